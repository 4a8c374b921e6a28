#!/usr/bin/env bash
# Renders the bundled samples with the built binary; prints every path it writes.
# Usage: scripts/demo.sh BINARY OUT_DIR
set -euo pipefail
bin=$1
out=$2
mkdir -p "$out"

render() {  # name cover lyrics time preset [extra args]
    local name=$1 cover=$2 lyrics=$3 at=$4 preset=$5
    shift 5
    "$bin" frame "$cover" "$lyrics" --at "$at" --preset "$preset" -o "$out/$name-$preset.png" "$@"
}

nd=samples/night-drive
pl=samples/paper-lanterns
as=samples/all-scripts
for preset in lockscreen feed square landscape classic; do
    render night-drive "$nd/cover.jpg" "$nd/night-drive.lrc" 0:58.5 "$preset"
    render paper-lanterns "$pl/cover.png" "$pl/paper-lanterns.lrc" 0:32 "$preset"
done
render night-drive-intro "$nd/cover.jpg" "$nd/night-drive.lrc" 0:03 lockscreen
render night-drive-gap "$nd/cover.jpg" "$nd/night-drive.lrc" 1:36 lockscreen
render all-scripts "$as/cover.png" "$as/all-scripts.lrc" 0:37.5 landscape --before 5 --after 6
# Straight from an audio file: lyrics (USLT) and cover (APIC) come from its tags.
"$bin" frame samples/harbour-bells/harbour-bells.mp3 --at 0:07 -o "$out/harbour-bells.png"
"$bin" inspect samples/harbour-bells/harbour-bells.mp3 > "$out/harbour-bells.json"
echo "$out/harbour-bells.json"
# A TTML duet with romanisation, translations and backing vocals.
rl=samples/river-lights
render river-lights "$rl/cover.png" "$rl/river-lights.ttml" 0:21.6 lockscreen
render river-lights-duet "$rl/cover.png" "$rl/river-lights.ttml" 0:29 landscape --theme immersive
"$bin" inspect "$rl/river-lights.ttml" > "$out/river-lights.json"
echo "$out/river-lights.json"
render all-scripts "$as/cover.png" "$as/all-scripts.lrc" 0:57.5 lockscreen --before 4 --after 0
"$bin" inspect "$pl/paper-lanterns.lrc" > "$out/paper-lanterns.json"
echo "$out/paper-lanterns.json"

# A whole song: one frame per line with its manifest and ffconcat script, and a contact sheet.
"$bin" lines "$nd/cover.jpg" "$nd/night-drive.lrc" -o "$out/night-drive-lines" --quiet
echo "$out/night-drive-lines/manifest.json"
echo "$out/night-drive-lines/frames.ffconcat"
"$bin" sheet "$nd/cover.jpg" "$nd/night-drive.lrc" -o "$out/night-drive-sheet.png" --quiet
"$bin" sheet "$pl/cover.png" "$pl/paper-lanterns.lrc" -o "$out/paper-lanterns-sheet.png" --quiet

# Every theme at a portrait and a landscape preset.
for theme in card classic immersive minimal block; do
    render "theme-$theme" "$nd/cover.jpg" "$nd/night-drive.lrc" 0:58.5 lockscreen --theme "$theme"
    render "theme-$theme" "$pl/cover.png" "$pl/paper-lanterns.lrc" 0:32.6 landscape --theme "$theme"
done

# Share cards: three chosen lines as a story and a feed card, and a quote from an audio file.
"$bin" card "$nd/cover.jpg" "$nd/night-drive.lrc" --lines 5-7 -o "$out/card-story.png"
"$bin" card "$nd/cover.jpg" "$nd/night-drive.lrc" --lines 5-7 --preset feed --theme block -o "$out/card-feed.png"
"$bin" card "$pl/cover.png" "$pl/paper-lanterns.lrc" --at 0:12.5 --count 2 --preset square -o "$out/card-square.png"
"$bin" card samples/harbour-bells/harbour-bells.mp3 --lines 1-2 -o "$out/card-harbour-bells.png"

# A lyric video straight from the audio file: one frame per line, its own audio copied.
"$bin" video samples/harbour-bells/harbour-bells.mp3 -o "$out/harbour-bells.mp4" --quiet
