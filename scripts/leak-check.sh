#!/usr/bin/env bash
# Runs an AddressSanitizer build of lyricposter through frame, lines, sequence and sheet with
# LeakSanitizer on. System libraries that keep process-wide caches are suppressed
# (Tests/Sanitizers/lsan.supp); any other leak fails. Usage: scripts/leak-check.sh BINARY
set -euo pipefail
cd "$(dirname "$0")/.."
bin=$1
work=$(mktemp -d)
trap 'rm -rf "$work"' EXIT
export ASAN_OPTIONS=detect_leaks=1:exitcode=23
export LSAN_OPTIONS=suppressions=$PWD/Tests/Sanitizers/lsan.supp:print_suppressions=0
cover=samples/night-drive/cover.jpg
lyrics=samples/night-drive/night-drive.lrc
"$bin" frame "$cover" "$lyrics" --at 58.5 -o "$work/frame.png" --report "$work/frame.json" >/dev/null
"$bin" lines "$cover" "$lyrics" -o "$work/lines" --quiet
"$bin" sequence "$cover" "$lyrics" --fps 5 --to 30 -o "$work/seq" --quiet --dense
"$bin" sheet samples/paper-lanterns/cover.png samples/paper-lanterns/paper-lanterns.lrc -o "$work/sheet.png" --quiet >/dev/null
"$bin" inspect "$lyrics" >/dev/null
# An error path too: it must exit 1 (23 would mean a leak).
status=0
"$bin" frame Tests/Fixtures/covers/truncated.jpg "$lyrics" --at 1 -o "$work/bad.png" 2>/dev/null || status=$?
[ "$status" -eq 1 ] || { echo "leak check: error path exited $status, expected 1" >&2; exit 1; }
echo "leak check: no leaks outside suppressed system libraries"
