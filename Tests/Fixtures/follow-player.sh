#!/bin/bash
# Runs a real player, `lyricposter follow` and the outside measurement together on the current
# session bus (start it under dbus-run-session), in FOLDER, and prints the measurement's JSON.
#   follow-player.sh BINARY FOLDER PLAYER SECONDS AUDIO [FOLLOW-ARGUMENTS...]
# PLAYER: vlc (cvlc, headless) or mpv (headless, with its MPRIS plugin); FOLLOW-ARGUMENTS are
# passed to follow (--offset, …); PLAYER_ARGS (environment) are added to the player's.
set -u
binary=$1 folder=$2 player=$3 seconds=$4 audio=$5
shift 5
cd "$folder" || exit 1
rm -f now.png events.jsonl
export XDG_CACHE_HOME="$folder/cache" HOME="$folder"
"$binary" follow --player "$player" -o now.png --events events.jsonl --size 360x640 "$@" 2>follow.log &
follow=$!
sleep 1
case $player in
    vlc) cvlc --intf dummy --control dbus --aout dummy --no-video --play-and-exit ${PLAYER_ARGS:-} "$audio" >player.log 2>&1 & ;;
    scripted)
        # The tests' own player (Tests/Fixtures/mpris-player.py), PLAYER_ARGS as its options; it is
        # given the song and told to play through a pipe.
        mkfifo commands
        /usr/bin/python3 "$(dirname "$0")/mpris-player.py" --name scripted ${PLAYER_ARGS:-} <commands >player.log 2>&1 &
        exec 9>commands
        sleep 1
        printf '{"cmd": "track", "metadata": {"xesam:url": "file://%s", "xesam:title": "Bench", "mpris:trackid": "/t/1"}}\n{"cmd": "play"}\n' "$audio" >&9
        ;;
    mpv) mpv --no-config --script=/usr/lib/mpv-mpris/mpris.so --ao=null --no-video --really-quiet ${PLAYER_ARGS:-} "$audio" >player.log 2>&1 & ;;
    *) echo '{"error": "unknown player"}'; kill $follow; exit 1 ;;
esac
played=$!
/usr/bin/python3 "$(dirname "$0")/measure-lateness.py" --player "$player" --poster now.png --events events.jsonl \
    --seconds "$seconds" --offset "${OFFSET_MS:-0}"
# follow's processor time over the run (user + system, from /proc).
read -r -a stat </proc/$follow/stat 2>/dev/null && echo "{\"follow_cpu_s\": $(( (${stat[13]} + ${stat[14]}) ))e-2}"
kill $played $follow 2>/dev/null
wait 2>/dev/null
