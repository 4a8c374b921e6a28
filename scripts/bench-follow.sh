#!/usr/bin/env bash
# Measures `follow` against real players on their own clocks (Tests/Fixtures/follow-player.sh and
# measure-lateness.py): a 3-minute song with a line every 2.5 s, followed with the scripted player
# running 3 % slow in 250 ms steps, mpv, and VLC (as an ordinary user when run as root: VLC refuses
# root), then mpv at --speed=8. Prints lateness on each player's clock (median, p95, worst) and
# follow's processor time. Usage: scripts/bench-follow.sh BINARY [SECONDS] (default 185).
set -euo pipefail
[ $# -ge 1 ] || { echo "usage: scripts/bench-follow.sh BINARY [SECONDS]" >&2; exit 1; }
bin=$(realpath "$1")
seconds=${2:-185}
cd "$(dirname "$0")/.."
fixtures=$(pwd)/Tests/Fixtures
work=$(mktemp -d /tmp/lyricposter-bench-follow.XXXXXX)
trap 'rm -rf "$work"' EXIT
chmod 777 "$work"
ffmpeg -nostdin -loglevel error -y -f lavfi -i sine=frequency=330:duration=190 -metadata title=Bench -metadata artist=Tester \
    -q:a 9 "$work/song.mp3"
/usr/bin/python3 -c '
import sys
lines = []
for i in range(1, 75):
    ms = i * 2500
    lines.append("[%02d:%02d.%02d]Bench line %d" % (ms // 60000, ms // 1000 % 60, ms % 1000 // 10, i))
open(sys.argv[1], "w").write("\n".join(lines) + "\n")' "$work/song.lrc"
cp samples/night-drive/cover.jpg "$work/cover.jpg"
chmod 644 "$work"/*

summary() {  # LABEL: the measurement's JSON on stdin → one line
    /usr/bin/python3 -c '
import json, sys
label = sys.argv[1]
m, cpu = {}, None
for line in sys.stdin:
    try: j = json.loads(line)
    except ValueError: continue
    if "lateness_ms" in j: m = j
    if "follow_cpu_s" in j: cpu = j["follow_cpu_s"]
if not m.get("lateness_ms"):
    print("%s: no measurement %s" % (label, m)); sys.exit(0)
print("%s: %d line changes on the player clock: median %.1f ms, p95 %.1f ms, worst %.1f ms; follow CPU %s s"
      % (label, len(m["lateness_ms"]), m["median"], m["p95"], m["worst"], cpu))' "$1"
}

runs=0
run() {  # PLAYER LABEL
    local player=$1 label=$2
    # Each run in a folder of its own (VLC's runs as another user, who cannot replace root's files).
    runs=$((runs + 1))
    local folder="$work/run-$runs"
    mkdir "$folder" && chmod 777 "$folder"
    cp "$work/song.mp3" "$work/song.lrc" "$work/cover.jpg" "$folder/" && chmod 644 "$folder"/*
    local command=(dbus-run-session -- "$fixtures/follow-player.sh" "$bin" "$folder" "$player" "$seconds" "$folder/song.mp3")
    if [ "$player" = vlc ] && [ "$(id -u)" -eq 0 ]; then
        id -u lyricposter-test >/dev/null 2>&1 || useradd --system --create-home --shell /usr/sbin/nologin lyricposter-test
        command=(runuser -u lyricposter-test -- "${command[@]}")
    fi
    "${command[@]}" 2>/dev/null | summary "$label"
}

PLAYER_ARGS="--skew 0.97 --step-ms 250" run scripted "scripted player, 3 % slow, 250 ms steps"
run mpv "mpv"
run vlc "VLC 3"
seconds=$((seconds / 8 + 3)) PLAYER_ARGS=--speed=8 run mpv "mpv --speed=8"
