#!/usr/bin/env bash
# Measures `lyricposter serve` on loopback against outside references:
#   1. a cached frame.png (Night Drive at 0:31) against nginx serving the same PNG as a static file,
#      wrk -t2 -c32: requests/s and p99 latency of each;
#   2. uncached frames (a new `at` for every request, scripts/bench-serve.lua), wrk -t2 -c4, in runs
#      of one line (the same scene drawn again) and with every request in another line, against
#      `lines` rendering the whole song into a folder: frames/s of each;
#   3. /events fanned out to 500 Server-Sent Events clients (scripts/bench-serve-sse.py) by
#      `serve --follow`, with the tests' scripted MPRIS player (Tests/Fixtures/mpris-player.py) on a
#      private session bus playing a generated 60 s song: the spread of each poster's arrival over
#      the clients, and the server's memory with them connected (skipped without dbus-daemon or
#      Debian's python3-dbus and python3-gi);
#   1b. a song's first frame: a server over 12 songs with covers it has never seen, each song's
#      first frame.png request timed from request to last byte;
#   and serve's resident memory (VmRSS, peak VmHWM) after each phase. Both servers run with 2 jobs.
# Usage: scripts/bench-serve.sh BINARY [SECONDS]   (SECONDS per wrk run and of the SSE window, at
# most 40 for the latter; default 10). Prints numbers only; exits 1 with one line when a tool is
# missing or a server does not start.
set -euo pipefail

die() { echo "bench-serve: $*" >&2; exit 1; }

[ $# -ge 1 ] || die "usage: scripts/bench-serve.sh BINARY [SECONDS]"
[ -x "$1" ] || die "$1 is not an executable (build it first)"
bin=$(realpath "$1")
duration=${2:-10}
[[ $duration =~ ^[1-9][0-9]*$ ]] || die "SECONDS must be a whole number of seconds, not '$duration'"
cd "$(dirname "$0")/.."

for tool in wrk curl; do
    command -v "$tool" >/dev/null || die "$tool is missing (apt-get install -y $tool)"
done
nginx=$(command -v nginx || echo /usr/sbin/nginx)
[ -x "$nginx" ] || die "nginx is missing (apt-get install -y nginx)"
py=$(command -v /usr/bin/python3 || command -v python3 || true)
[ -n "$py" ] || die "python3 is missing (apt-get install -y python3)"

work=$(mktemp -d)
pids=()

stop() {  # PID: TERM, up to 5 s to exit, then KILL
    local pid=$1 i
    kill -TERM "$pid" 2>/dev/null || return 0
    for ((i = 0; i < 50; i++)); do
        kill -0 "$pid" 2>/dev/null || break
        sleep 0.1
    done
    kill -KILL "$pid" 2>/dev/null || true
    wait "$pid" 2>/dev/null || true
}

cleanup() {
    local i
    exec 9>&- 2>/dev/null || true  # the scripted player's stdin: EOF makes it leave the bus
    for ((i = ${#pids[@]} - 1; i >= 0; i--)); do stop "${pids[i]}"; done
    rm -rf "$work"
}
trap cleanup EXIT
trap 'exit 130' INT TERM

# Keep renders' disk cache (prepared backdrops) out of the user's ~/.cache.
export XDG_CACHE_HOME=$work/cache

listening_port() {  # PID LOG: the port `serve` printed (waits up to 30 s; LOG may not exist yet, as
                    # the background shell that starts serve creates it)
    local i port
    for ((i = 0; i < 300; i++)); do
        port=$(sed -n 's|^lyricposter serve: listening on http://127\.0\.0\.1:\([0-9][0-9]*\).*|\1|p' "$2" 2>/dev/null | head -n 1)
        if [ -n "$port" ]; then echo "$port"; return 0; fi
        kill -0 "$1" 2>/dev/null || return 1
        sleep 0.1
    done
    return 1
}

not_started() {  # PID LOG: why `serve` printed no port
    local status=0
    if kill -0 "$1" 2>/dev/null; then
        printf 'no "listening on" line within 30 s'
    else
        wait "$1" || status=$?
        printf 'it exited with status %d' "$status"
    fi
    if [ -s "$2" ]; then printf ': %s' "$(tail -n 1 "$2")"; fi
}

free_port() {
    "$py" -c 'import socket; s = socket.socket(); s.bind(("127.0.0.1", 0)); print(s.getsockname()[1])'
}

memory() {  # LABEL PID
    [ -r "/proc/$2/status" ] || die "serve (pid $2) exited"
    awk -v label="$1" '/^VmRSS:/ {rss = $2} /^VmHWM:/ {hwm = $2}
        END {printf "%s: VmRSS %.1f MiB, VmHWM %.1f MiB\n", label, rss / 1024, hwm / 1024}' "/proc/$2/status"
}

# wrk's figures as "REQUESTS_PER_S P99_MS ERRORS REQUESTS", ERRORS counting non-2xx/3xx answers (such
# as serve's 503 when its render queue is full) and socket errors.
wrk_figures() {  # OUTPUT_FILE
    awk '/^Requests\/sec:/ {rps = $2}
        $1 == "99%" {v = $2; if (v ~ /us$/) p99 = v / 1000; else if (v ~ /ms$/) p99 = v + 0;
                     else if (v ~ /m$/) p99 = v * 60000; else if (v ~ /s$/) p99 = v * 1000}
        /Non-2xx or 3xx responses:/ {bad += $NF}
        /Socket errors:/ {bad += $4 + $6 + $8 + $10}
        / requests in / {total = $1}
        END {if (rps == "" || p99 == "") exit 1; printf "%s %s %d %d\n", rps, p99, bad, total}' "$1"
}

side() {  # NAME UNIT RPS P99 ERRORS REQUESTS
    printf '%s %.0f %s p99 %.1f ms' "$1" "$3" "$2" "$4"
    if [ "$5" -gt 0 ]; then printf ' (%d of %d requests failed or non-2xx)' "$5" "$6"; fi
}

ratio() { awk -v a="$1" -v b="$2" 'BEGIN {printf (b > 0 ? "%.2f" : "n/a"), (b > 0 ? a / b : 0)}'; }

run_wrk() {  # NAME wrk-arguments...: wrk's output in $work/NAME.wrk, its figures on stdout
    local name=$1
    shift
    wrk "$@" >"$work/$name.wrk" 2>&1 || die "wrk ($name) failed: $(tail -n 1 "$work/$name.wrk")"
    wrk_figures "$work/$name.wrk" || die "wrk ($name) printed no Requests/sec or 99% latency: $(tail -n 1 "$work/$name.wrk")"
}

# --- serve over the samples -------------------------------------------------------------------

"$bin" serve samples --port 0 --jobs 2 >"$work/serve.out" 2>"$work/serve.err" &
serve=$!
pids+=("$serve")
port=$(listening_port "$serve" "$work/serve.err") || die "serve did not start ($(not_started "$serve" "$work/serve.err"))"
base=http://127.0.0.1:$port

id=
for ((i = 0; i < 300; i++)); do
    id=$(curl -fsS "$base/api/songs" 2>/dev/null | "$py" -c '
import json, sys
for song in json.load(sys.stdin)["songs"]:
    if song["file"] == "night-drive/night-drive.lrc":
        print(song["id"])' 2>/dev/null || true)
    [ -n "$id" ] && break
    kill -0 "$serve" 2>/dev/null || die "serve exited: $(tail -n 1 "$work/serve.err")"
    sleep 0.1
done
[ -n "$id" ] || die "serve did not list night-drive/night-drive.lrc within 30 s"
frame_url=$base/api/songs/$id/frame.png
memory "serve memory after start" "$serve"

# --- 1. cached frame vs nginx -----------------------------------------------------------------

mkdir -p "$work/www" "$work/nginx/temp"
curl -fsS -o "$work/www/frame.png" "$frame_url?at=31000" || die "serve did not render $frame_url?at=31000"
nginx_port=$(free_port)
cat >"$work/nginx/nginx.conf" <<EOF
daemon off;
master_process off;
worker_processes 1;
pid $work/nginx/nginx.pid;
error_log $work/nginx/error.log;
events { worker_connections 1024; }
http {
    access_log off;
    sendfile on;
    tcp_nopush on;
    keepalive_requests 1000000;
    types { image/png png; }
    client_body_temp_path $work/nginx/temp/body;
    proxy_temp_path $work/nginx/temp/proxy;
    fastcgi_temp_path $work/nginx/temp/fastcgi;
    uwsgi_temp_path $work/nginx/temp/uwsgi;
    scgi_temp_path $work/nginx/temp/scgi;
    server {
        listen 127.0.0.1:$nginx_port;
        root $work/www;
    }
}
EOF
"$nginx" -p "$work/nginx/" -e "$work/nginx/error.log" -c "$work/nginx/nginx.conf" >"$work/nginx/stdout.log" 2>&1 &
pids+=("$!")
nginx_url=http://127.0.0.1:$nginx_port/frame.png
for ((i = 0; i < 100; i++)); do
    curl -fsS -o "$work/nginx.png" "$nginx_url" 2>/dev/null && break
    sleep 0.1
done
cmp -s "$work/nginx.png" "$work/www/frame.png" ||
    die "nginx did not start: $(tail -n 1 "$work/nginx/error.log" 2>/dev/null || tail -n 1 "$work/nginx/stdout.log")"

figures=$(run_wrk cached-serve -t2 -c32 -d"${duration}s" --latency "$frame_url?at=31000")
read -r s_rps s_p99 s_bad s_all <<<"$figures"
figures=$(run_wrk cached-nginx -t2 -c32 -d"${duration}s" --latency "$nginx_url")
read -r n_rps n_p99 n_bad n_all <<<"$figures"
echo "cached frame.png ($(($(stat -c %s "$work/www/frame.png") / 1024)) KiB, wrk -t2 -c32 ${duration}s):" \
    "$(side serve req/s "$s_rps" "$s_p99" "$s_bad" "$s_all") | $(side nginx req/s "$n_rps" "$n_p99" "$n_bad" "$n_all") | ratio $(ratio "$s_rps" "$n_rps")"
memory "serve memory after cached frames" "$serve"

# --- 1b. a song's first frame ------------------------------------------------------------------
# A second server over 12 songs it has never seen, each with its own cover (the benchmark's
# photographic 3000² JPEG when lyricposter-bench has made it, else the night-drive cover, each
# copy made distinct by a JPEG comment), a fresh cache folder: the time from the first request
# for a song's frame to its last byte (curl's time_total), for each song in turn.
first_cover=.build/bench/inputs/cover-photo-3000.jpg
[ -f "$first_cover" ] || first_cover=samples/night-drive/cover.jpg
mkdir -p "$work/first"
"$py" - "$first_cover" "$work/first" <<'PY'
import sys, os
cover = open(sys.argv[1], "rb").read()
lyrics = open("samples/night-drive/night-drive.lrc", "rb").read()
for i in range(12):
    folder = os.path.join(sys.argv[2], "song-%02d" % i)
    os.makedirs(folder, exist_ok=True)
    text = b"lyricposter bench-serve cover %d" % i
    with open(os.path.join(folder, "cover.jpg"), "wb") as f:
        f.write(cover[:2] + bytes([0xFF, 0xFE, (len(text) + 2) >> 8, (len(text) + 2) & 0xFF]) + text + cover[2:])
    with open(os.path.join(folder, "song.lrc"), "wb") as f:
        f.write(lyrics)
PY
XDG_CACHE_HOME=$work/first-cache "$bin" serve "$work/first" --port 0 --jobs 2 >"$work/first.out" 2>"$work/first.err" &
first_serve=$!
pids+=("$first_serve")
first_port=$(listening_port "$first_serve" "$work/first.err") || die "serve (first frames) did not start ($(not_started "$first_serve" "$work/first.err"))"
first_ids=
for ((i = 0; i < 300; i++)); do
    first_ids=$(curl -fsS "http://127.0.0.1:$first_port/api/songs" 2>/dev/null | "$py" -c '
import json, sys
songs = json.load(sys.stdin)["songs"]
if len(songs) == 12: print(" ".join(s["id"] for s in songs))' 2>/dev/null || true)
    [ -n "$first_ids" ] && break
    sleep 0.1
done
[ -n "$first_ids" ] || die "serve did not list the 12 first-frame songs within 30 s"
first_times=
for song in $first_ids; do
    t=$(curl -fsS -o /dev/null -w '%{time_total}' "http://127.0.0.1:$first_port/api/songs/$song/frame.png?at=31000") ||
        die "serve did not render the first frame of song $song"
    first_times+="$t"$'\n'
done
stop "$first_serve"
echo "a song's first frame.png ($(basename "$first_cover"), a fresh cache, 12 songs never seen, one at a time):" \
    "$(printf '%s' "$first_times" | sort -n | awk '{v[NR] = $1 * 1000} END {printf "median %.1f ms, fastest %.1f ms, slowest %.1f ms", v[int((NR + 1) / 2)], v[1], v[NR]}')"

# --- 2. uncached frames vs lines --------------------------------------------------------------

# `lines` with the same 2 jobs: one warm-up run (fills the backdrop cache, as serve's session is
# already prepared), then the median of 3.
lines() {  # OUT: "PNGS SECONDS"
    local start end
    start=$(date +%s%N)
    "$bin" lines samples/night-drive/cover.jpg samples/night-drive/night-drive.lrc -o "$1" --jobs 2 --quiet >/dev/null 2>"$work/lines.err" ||
        die "lines failed: $(tail -n 1 "$work/lines.err")"
    end=$(date +%s%N)
    echo "$(find "$1" -name '*.png' | wc -l) $(awk -v ns=$((end - start)) 'BEGIN {printf "%.3f", ns / 1e9}')"
}
lines "$work/lines-warm" >/dev/null
runs=
for run in 1 2 3; do
    result=$(lines "$work/lines-$run")
    runs+="$result"$'\n'
done
read -r l_pngs l_secs <<<"$(printf '%s' "$runs" | sort -k2 -n | sed -n 2p)"
l_fps=$(awk -v n="$l_pngs" -v s="$l_secs" 'BEGIN {printf "%.1f", n / s}')
reference="lines $l_fps frames/s ($l_pngs PNGs in $l_secs s, median of 3, process start included)"

# A new `at` for every request: 38 ms apart, even (runs of ~145 requests in one line: the same
# scene drawn again), then 6008 ms apart, odd (every request another line); no time is asked twice.
for mode in "38 0 runs in one line" "6008 1 another line each request"; do
    read -r step parity label <<<"$mode"
    figures=$(run_wrk "uncached-$step" -t2 -c4 -d"${duration}s" --latency -s scripts/bench-serve.lua "$frame_url" -- 2 "$step" "$parity")
    read -r u_rps u_p99 u_bad u_all <<<"$figures"
    echo "uncached frame.png, $label (at += $step ms, wrk -t2 -c4 ${duration}s):" \
        "$(side serve frames/s "$u_rps" "$u_p99" "$u_bad" "$u_all") | $reference | ratio $(ratio "$u_rps" "$l_fps")"
done
memory "serve memory after uncached frames" "$serve"

# --- 2b. a library of 10 000 songs -------------------------------------------------------------
# 100 folders of 100 cover+lyrics pairs: how soon the first songs and then all of them are listed,
# how soon every song's lyrics have been read (tags, line counts), and a search's time.
"$py" - "$work/library" <<'PY'
import os, sys
root = sys.argv[1]
lyrics = open("samples/night-drive/night-drive.lrc", encoding="utf-8").read()
cover = open("samples/night-drive/cover.jpg", "rb").read()
for a in range(100):
    folder = os.path.join(root, "artist%03d" % a)
    os.makedirs(folder)
    open(os.path.join(folder, "cover.jpg"), "wb").write(cover)
    for s in range(100):
        open(os.path.join(folder, "song%03d.lrc" % s), "w", encoding="utf-8").write(lyrics.replace("Night Drive", "Song %d-%d" % (a, s)))
PY
"$bin" serve "$work/library" --port 0 >"$work/library.out" 2>"$work/library.err" &
library=$!
pids+=("$library")
library_port=$(listening_port "$library" "$work/library.err") || die "serve (library) did not start"
"$py" - "$library_port" <<'PY'
import json, sys, time, urllib.request
base = "http://127.0.0.1:%s" % sys.argv[1]
start = time.time()
first = listed = None
while time.time() - start < 120:
    answer = json.load(urllib.request.urlopen(base + "/api/songs?limit=1"))
    now = time.time() - start
    if first is None and answer["total"] > 0: first = now
    if listed is None and answer["total"] >= 10000: listed = now
    if not answer["scanning"]: break
    time.sleep(0.01)
described = time.time() - start
t = time.time(); urllib.request.urlopen(base + "/api/songs?limit=1000").read(); page = (time.time() - t) * 1000
t = time.time(); urllib.request.urlopen(base + "/api/songs?q=song%2099-9&limit=1000").read(); search = (time.time() - t) * 1000
print("library of 10000 pairs (from the server's first answer): first songs %.3f s, all listed %.3f s, all described %.3f s; "
      "a page of 1000 %.1f ms; a search %.1f ms" % (first or -1, listed or -1, described, page, search))
PY
memory "serve memory with 10000 songs" "$library"
stop "$library"

# --- 3. SSE fan-out to 500 clients ------------------------------------------------------------

sse_skip=
if [ ! -x /usr/bin/dbus-daemon ]; then
    sse_skip="no /usr/bin/dbus-daemon"
elif [ ! -x /usr/bin/python3 ] || ! /usr/bin/python3 -c 'import dbus, gi' 2>/dev/null; then
    sse_skip="/usr/bin/python3 with dbus and gi is missing (apt-get install -y python3-dbus python3-gi)"
elif ! command -v ffmpeg >/dev/null; then
    sse_skip="no ffmpeg"
fi
if [ -n "$sse_skip" ]; then
    echo "sse: skipped ($sse_skip)"
    exit 0
fi

sse_seconds=$((duration < 40 ? duration : 40))
/usr/bin/dbus-daemon --session --nofork --nopidfile --print-address=1 >"$work/bus.address" 2>"$work/bus.err" &
pids+=("$!")
for ((i = 0; i < 100; i++)); do
    [ -s "$work/bus.address" ] && break
    sleep 0.1
done
bus=$(head -n 1 "$work/bus.address")
[ -n "$bus" ] || die "dbus-daemon did not start: $(tail -n 1 "$work/bus.err")"

music=$work/music
mkdir -p "$music"
ffmpeg -nostdin -loglevel error -y -f lavfi -i sine=frequency=330:duration=60 -metadata title=Bench -metadata artist=Tester \
    -q:a 9 "$music/song.mp3" || die "ffmpeg could not make the test song"
for ((i = 1; i < 60; i++)); do printf '[%02d:%02d.00]Line %d\n' $((i / 60)) $((i % 60)) "$i"; done >"$music/song.lrc"
cp samples/night-drive/cover.jpg "$music/cover.jpg"

mkfifo "$work/player.in"
DBUS_SESSION_BUS_ADDRESS=$bus /usr/bin/python3 Tests/Fixtures/mpris-player.py --name bench \
    <"$work/player.in" >"$work/player.log" 2>&1 &
pids+=("$!")
exec 9>"$work/player.in"
for ((i = 0; i < 100; i++)); do
    grep -q '"ready"' "$work/player.log" && break
    sleep 0.1
done
grep -q '"ready"' "$work/player.log" || die "the scripted player did not start: $(tail -n 1 "$work/player.log")"

DBUS_SESSION_BUS_ADDRESS=$bus "$bin" serve "$music" --follow --player bench --port 0 --jobs 2 \
    >"$work/follow.out" 2>"$work/follow.err" &
follow=$!
pids+=("$follow")
follow_port=$(listening_port "$follow" "$work/follow.err") ||
    die "serve --follow did not start ($(not_started "$follow" "$work/follow.err"))"

song_url=$("$py" -c 'import pathlib, sys; print(pathlib.Path(sys.argv[1]).as_uri())' "$music/song.mp3")
echo '{"cmd": "track", "metadata": {"xesam:url": "'"$song_url"'", "xesam:title": "Bench", "xesam:artist": ["Tester"],' \
    '"mpris:length": 60000000, "mpris:trackid": "/bench/1"}, "position_us": 0}' >&9
echo '{"cmd": "play"}' >&9
for ((i = 0; i < 150; i++)); do
    curl -fsS "http://127.0.0.1:$follow_port/now.json" 2>/dev/null | grep -Eq '"poster": ?"' && break
    sleep 0.1
done
curl -fsS "http://127.0.0.1:$follow_port/now.json" 2>/dev/null | grep -Eq '"poster": ?"' ||
    die "serve --follow showed no poster within 15 s: $(tail -n 1 "$work/follow.err")"
# From the top again, so that the window fits in the song.
echo '{"cmd": "seek", "position_us": 0}' >&9
memory "serve --follow memory before clients" "$follow"
/usr/bin/python3 scripts/bench-serve-sse.py "$follow_port" 500 "$sse_seconds" "$follow" ||
    die "the SSE clients failed"
memory "serve --follow memory after clients left" "$follow"
