#!/bin/bash
# Controls a real VLC from the poster screen's API: runs VLC (headless, its MPRIS interface) and
# `lyricposter serve --follow --player vlc` on the current session bus (start it under
# dbus-run-session), then sends each control over HTTP and through `lyricposter control`, and
# prints one JSON line per step with what VLC itself then reported over MPRIS (playerctl).
#   control-player.sh BINARY FOLDER        (FOLDER holds song.mp3, song.lrc and cover.jpg)
set -u
binary=$1 folder=$2
cd "$folder" || exit 1
export XDG_CACHE_HOME="$folder/cache" HOME="$folder"
cvlc --intf dummy --control dbus --aout dummy --no-video song.mp3 >player.log 2>&1 &
vlc=$!
"$binary" serve "$folder" --follow --player vlc --port 0 --size 360x640 2>serve.log &
server=$!
trap 'kill $vlc $server 2>/dev/null; wait 2>/dev/null' EXIT
base=
for _ in $(seq 200); do
    base=$(grep -o 'http://127.0.0.1:[0-9]*' serve.log | head -1)
    [ -n "$base" ] && break
    sleep 0.1
done
[ -n "$base" ] || { echo '{"error": "serve did not start"}'; exit 1; }
status() { playerctl -p vlc status 2>/dev/null; }
position_ms() { playerctl -p vlc position 2>/dev/null | awk '{ printf "%d", $1 * 1000 }'; }
start_ms() { curl -s "$base/now.json" | python3 -c 'import json, sys; print(json.load(sys.stdin).get("start_ms"))'; }
# Waits up to 5 s for `check` to print `want`; prints what it last printed.
settle() {
    local want=$1 check=$2 seen=
    for _ in $(seq 50); do
        seen=$($check)
        [ "$seen" = "$want" ] && break
        sleep 0.1
    done
    printf '%s' "$seen"
}
post() { curl -s -o /dev/null -w '%{http_code}' -X POST "$base/api/player/$1"; }
for _ in $(seq 100); do [ "$(status)" = Playing ] && [ "$(start_ms)" != None ] && break; sleep 0.1; done
echo "{\"step\": \"start\", \"vlc\": \"$(status)\", \"start_ms\": $(start_ms | sed 's/None/null/')}"
for step in pause:Paused play:Playing toggle:Paused toggle:Playing; do
    action=${step%%:*} want=${step#*:}
    code=$(post "$action")
    echo "{\"step\": \"$action\", \"http\": $code, \"vlc\": \"$(settle "$want" status)\"}"
done
# Seeks: while playing, and while paused (VLC sends no Seeked then; the server reads it again).
for step in 20000:play 7500:play 15000:pause; do
    target=${step%%:*}
    [ "${step#*:}" = pause ] && { playerctl -p vlc pause; settle Paused status >/dev/null; }
    code=$(post "seek?position_ms=$target")
    position=$(position_ms)
    line=$(( target / 1700 * 1700 ))
    shown=$(settle "$line" start_ms)
    echo "{\"step\": \"seek\", \"target_ms\": $target, \"http\": $code, \"vlc_ms\": ${position:-null}, \"line_ms\": $line, \"start_ms\": ${shown/None/null}, \"paused\": $([ "${step#*:}" = pause ] && echo true || echo false)}"
done
echo "{\"step\": \"past-end\", \"http\": $(post 'seek?position_ms=99000')}"
"$binary" control play --player vlc 2>control.err
echo "{\"step\": \"control-play\", \"exit\": $?, \"vlc\": \"$(settle Playing status)\"}"
"$binary" control seek 0:05 --player vlc 2>>control.err
echo "{\"step\": \"control-seek\", \"exit\": $?, \"vlc_ms\": $(position_ms)}"
