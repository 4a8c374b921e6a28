#!/usr/bin/env bash
# Catalogue throughput: `lyricposter catalog` over the generated test catalogue (Tests/Fixtures/
# make-catalog.py: 200 songs that render, 5 broken) against `lines` run once per song in a shell
# loop, both at the default 1080×1920. Prints wall time, songs/min, frames/s and peak RSS.
# Usage: scripts/bench/catalog.sh [BINARY] [WORK_DIR]
set -euo pipefail
cd "$(dirname "$0")/../.."
bin=${1:-.build/release/lyricposter}
work=${2:-.build/bench/catalog}
rm -rf "$work" && mkdir -p "$work"
/usr/bin/python3 Tests/Fixtures/make-catalog.py "$work/fixture" >/dev/null
lib="$work/fixture/library"
export LYRICPOSTER_NO_CACHE=1

measure() {  # label command...
    local label=$1; shift
    local start end
    start=$(date +%s.%N)
    /usr/bin/time -f "%M" -o "$work/rss" "$@" >/dev/null 2>"$work/stderr" || true
    end=$(date +%s.%N)
    echo "$label $(echo "$end - $start" | bc) $(tail -1 "$work/rss")"
}

# One process for the whole catalogue (all cores, one song per core).
read -r _ wall rss < <(measure catalog "$bin" catalog "$lib" -o "$work/out-catalog" --quiet)
songs=$(grep -c '"rendered"' "$work/out-catalog/catalog/"*.jsonl)
frames=$(grep '"rendered"' "$work/out-catalog/catalog/"*.jsonl | sed 's/.*"frames":\([0-9]*\).*/\1/' | paste -sd+ | bc)
printf '| catalog | %d | %d | %.1f | %.0f | %.0f | %.0f |\n' "$songs" "$frames" "$wall" "$(echo "$songs * 60 / $wall" | bc -l)" \
    "$(echo "$frames / $wall" | bc -l)" "$(echo "$rss / 1024" | bc -l)"

# Again: every song is skipped.
read -r _ rewall _ < <(measure rerun "$bin" catalog "$lib" -o "$work/out-catalog" --quiet)

# The shell loop: `lines` once per song (each process sets up fonts and uses all cores for its frames).
loop() {
    local n=0
    while IFS= read -r -d '' f; do
        n=$((n + 1))
        "$bin" lines "$f" -o "$work/out-loop/$n" --quiet || true
    done < <(find "$lib" \( -name '*.mp3' -o -name '*.flac' -o -name '*.opus' \) -print0 | sort -z)
    for lrc in "$lib"/pairs/*.lrc; do
        n=$((n + 1))
        "$bin" lines "${lrc%.lrc}.png" "$lrc" -o "$work/out-loop/$n" --quiet || true
    done
}
export -f loop
export bin work lib
read -r _ lwall lrss < <(measure loop bash -c loop)
lframes=$(find "$work/out-loop" -name '*.png' | wc -l)
lsongs=$(find "$work/out-loop" -name manifest.json | wc -l)
printf '| `lines` in a shell loop | %d | %d | %.1f | %.0f | %.0f | %.0f |\n' "$lsongs" "$lframes" "$lwall" "$(echo "$lsongs * 60 / $lwall" | bc -l)" \
    "$(echo "$lframes / $lwall" | bc -l)" "$(echo "$lrss / 1024" | bc -l)"
printf 're-run of the catalogue (everything skipped): %.1f s\n' "$rewall"
