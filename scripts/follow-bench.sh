#!/usr/bin/env bash
# Measures `lyricposter follow` against a real mpv on a private session bus (see docs/follow.md):
#   1. a 3-minute song with 60 lines at normal speed: line-change latency (median, worst) and CPU time;
#   2. a playlist of 30 songs at --speed 8: resident memory after the last one.
# Usage: scripts/follow-bench.sh [BIN]   (default .build/release/lyricposter). Prints numbers only.
set -euo pipefail
BIN=$(realpath "${1:-.build/release/lyricposter}")
WORK=$(mktemp -d)
trap 'rm -rf "$WORK"' EXIT
COVER=$(realpath samples/night-drive/cover.jpg)

song() {  # song DIR STEM SECONDS LINES
    mkdir -p "$1"
    ffmpeg -nostdin -loglevel error -y -f lavfi -i "sine=frequency=330:duration=$3" -metadata "title=$2" -metadata artist=Bench -q:a 9 "$1/$2.mp3"
    python3 -c "
import sys
seconds, lines = int(sys.argv[1]), int(sys.argv[2])
step = seconds * 1000 // lines
for i in range(lines):
    t = i * step
    print('[%02d:%02d.%02d]%s, line %d of the benchmark song' % (t // 60000, t // 1000 % 60, t % 1000 // 10, sys.argv[3], i))
" "$3" "$4" "$2" > "$1/$2.lrc"
    cp "$COVER" "$1/cover.jpg"
}

cat > "$WORK/run.sh" <<'INNER'
set -euo pipefail
BIN=$1 WORK=$2 MODE=$3
"$BIN" follow -o "$WORK/out/now.png" --events "$WORK/events-$MODE.jsonl" 2>"$WORK/follow-$MODE.log" &
F=$!
sleep 1
if [ "$MODE" = song ]; then
    mpv --no-config --script=/usr/lib/mpv-mpris/mpris.so --ao=null --no-video --really-quiet "$WORK/one/long.mp3"
else
    mpv --no-config --script=/usr/lib/mpv-mpris/mpris.so --ao=null --no-video --really-quiet --speed=8 "$WORK"/many/*/*.mp3
fi
sleep 0.5
read -r utime stime < <(awk '{print $14, $15}' /proc/$F/stat)
echo "cpu_ticks $((utime + stime)) $(getconf CLK_TCK)"
grep -E 'VmRSS|VmHWM' /proc/$F/status
kill -TERM $F; wait $F
INNER

song "$WORK/one" long 180 60
for i in $(seq -w 1 30); do song "$WORK/many/$i" "song$i" 20 20; done

report() {  # report MODE RATE
    python3 - "$WORK/events-$1.jsonl" "$2" <<'PY'
import json, sys, statistics
rate = float(sys.argv[2])
events = [json.loads(l) for l in open(sys.argv[1])]
posters = [e for e in events if e["event"] == "poster"]
pairs = [(a, b) for a, b in zip(posters, posters[1:]) if b["frame"] == a["frame"] + 1 and b["track"] == a["track"]]
late = [(b["position_ms"] - b["start_ms"]) / rate for a, b in pairs]
songs = len([e for e in events if e["event"] == "song"])
print(f"  songs {songs}, posters {len(posters)}, line changes timed {len(late)}")
if late:
    print(f"  latency ms: median {statistics.median(late):.1f}, p95 {sorted(late)[int(0.95 * (len(late) - 1))]:.1f}, worst {max(late):.1f}")
    worst = sorted(zip(late, pairs), key=lambda x: -x[0])[:3]
    for ms, (a, b) in worst:
        before = [e["event"] for e in events if b["wall_ms"] - 1000 <= e["wall_ms"] <= b["wall_ms"] and e["event"] != "poster"]
        print(f"    {ms:.0f} ms late: frame {b['frame']} of {b['track']!r}, {b['wall_ms'] - a['wall_ms']} ms after the previous poster, state changes in the second before: {before}")
PY
}

echo "one 3-minute song, 60 lines, speed 1:"
dbus-run-session -- bash "$WORK/run.sh" "$BIN" "$WORK" song 2>/dev/null | sed 's/^/  /'
report song 1
echo "30 songs of 20 s, 20 lines each, speed 8:"
dbus-run-session -- bash "$WORK/run.sh" "$BIN" "$WORK" many 2>/dev/null | sed 's/^/  /'
report many 8
