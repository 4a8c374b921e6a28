#!/usr/bin/env bash
# Runs an AddressSanitizer build of lyricposter through frame, card, lines, sequence, sheet, follow and control with
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
"$bin" card "$cover" "$lyrics" --lines 4-6 --theme block --preset feed -o "$work/card.png" --report "$work/card.json" >/dev/null
"$bin" lines "$cover" "$lyrics" -o "$work/lines" --quiet
"$bin" sequence "$cover" "$lyrics" --fps 5 --to 30 -o "$work/seq" --quiet --dense
"$bin" sheet samples/paper-lanterns/cover.png samples/paper-lanterns/paper-lanterns.lrc -o "$work/sheet.png" --quiet >/dev/null
"$bin" inspect "$lyrics" >/dev/null
# The cover read and decoded ahead of the parser but never asked for: the backdrop cached by the
# run before, then a lyrics error after the guess was decoded.
XDG_CACHE_HOME="$work/cache" "$bin" frame "$cover" "$lyrics" --at 10 -o "$work/cold.png" >/dev/null
XDG_CACHE_HOME="$work/cache" "$bin" frame "$cover" "$lyrics" --at 10 -o "$work/warm.png" >/dev/null
cmp -s "$work/cold.png" "$work/warm.png" || { echo "leak check: the warm frame differs from the cold one" >&2; exit 1; }
printf '[00:01.00]\n' > "$work/gaps.lrc"
status=0
"$bin" frame "$cover" "$work/gaps.lrc" --at 1 -o "$work/gaps.png" 2>/dev/null || status=$?
[ "$status" -eq 1 ] || { echo "leak check: the lyrics error after a guess exited $status, expected 1" >&2; exit 1; }
# An error path too: it must exit 1 (23 would mean a leak).
status=0
"$bin" frame Tests/Fixtures/covers/truncated.jpg "$lyrics" --at 1 -o "$work/bad.png" 2>/dev/null || status=$?
[ "$status" -eq 1 ] || { echo "leak check: error path exited $status, expected 1" >&2; exit 1; }
status=0
"$bin" card "$cover" "$lyrics" --quote "no such words" -o "$work/bad-card.png" 2>/dev/null || status=$?
[ "$status" -eq 1 ] || { echo "leak check: card's error path exited $status, expected 1" >&2; exit 1; }
# follow: a scripted player on a private session bus, a song change, a seek, then SIGTERM (exit 0;
# 23 would mean a leak).
mkdir -p "$work/music"
ffmpeg -nostdin -loglevel error -f lavfi -i "sine=frequency=330:duration=8" -metadata title=Leak "$work/music/leak.mp3"
printf '[00:00.00]zero\n[00:01.00]one\n[00:02.00]two\n[00:03.00]three\n' > "$work/music/leak.lrc"
cp "$cover" "$work/music/cover.jpg"
status=0
dbus-run-session -- bash -c '
    bin=$1 work=$2
    exec 3> >(/usr/bin/python3 Tests/Fixtures/mpris-player.py --name leak >/dev/null)
    sleep 1
    "$bin" follow -o "$work/follow/now.png" --size 360x640 --publish --events "$work/follow.jsonl" 2>"$work/follow.err" &
    pid=$!
    sleep 1
    echo "{\"cmd\":\"track\",\"metadata\":{\"xesam:title\":\"Leak\",\"xesam:url\":\"file://$work/music/leak.mp3\",\"mpris:trackid\":\"/t/1\"}}" >&3
    echo "{\"cmd\":\"play\"}" >&3
    sleep 2
    echo "{\"cmd\":\"seek\",\"position_us\":3000000}" >&3
    # control, through the same bus code: it must exit 0 (23: a leak).
    for action in pause "seek 0:02" play; do
        "$bin" control $action --player leak 2>>"$work/follow.err" || echo "control $action exited $?" >> "$work/control.failed"
    done
    echo "{\"cmd\":\"track\",\"metadata\":{\"xesam:title\":\"Nothing\",\"mpris:trackid\":\"/t/2\"}}" >&3
    sleep 2
    kill -TERM "$pid"
    wait "$pid"
' leak-check "$bin" "$work" 2>/dev/null || status=$?
[ "$status" -eq 0 ] || { cat "$work/follow.err" >&2; echo "leak check: follow exited $status, expected 0 (23: a leak)" >&2; exit 1; }
grep -q '"event": "poster"' "$work/follow.jsonl" || { echo "leak check: follow wrote no poster" >&2; exit 1; }
[ ! -e "$work/control.failed" ] || { cat "$work/control.failed" "$work/follow.err" >&2; echo "leak check: control failed (23: a leak)" >&2; exit 1; }
echo "leak check: no leaks outside suppressed system libraries"
