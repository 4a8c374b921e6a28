#!/usr/bin/env bash
# Renders the README's gallery from the bundled samples and tiles it with ImageMagick into docs/.
# Usage: scripts/gallery.sh BINARY OUT_DIR   (make gallery)
set -euo pipefail
bin=$1
out=$2/gallery
mkdir -p "$out" docs

nd=samples/night-drive
pl=samples/paper-lanterns
as=samples/all-scripts
# A dark, a light and a busy cover, each at a moment with something to show.
covers=("$nd/cover.jpg $nd/night-drive.lrc 0:58.5" "$pl/cover.png $pl/paper-lanterns.lrc 0:33.2" "$as/cover.png $as/all-scripts.lrc 0:37.5")

frame() {  # out cover lyrics time preset theme [extra…]
    local file=$1 cover=$2 lyrics=$3 at=$4 preset=$5 theme=$6
    shift 6
    "$bin" frame "$cover" "$lyrics" --at "$at" --preset "$preset" --theme "$theme" -o "$file" "$@" > /dev/null
}

for theme in card classic immersive minimal block; do
    portraits=() wides=()
    for i in 0 1 2; do
        read -r cover lyrics at <<< "${covers[$i]}"
        frame "$out/$theme-lockscreen-$i.png" "$cover" "$lyrics" "$at" lockscreen "$theme"
        frame "$out/$theme-landscape-$i.png" "$cover" "$lyrics" "$at" landscape "$theme"
        portraits+=("$out/$theme-lockscreen-$i.png")
        wides+=("$out/$theme-landscape-$i.png")
    done
    montage "${portraits[@]}" -tile 3x1 -geometry 300x533+6+6 -background '#202020' "$out/$theme-top.png"
    montage "${wides[@]}" -tile 3x1 -geometry 300x169+6+6 -background '#202020' "$out/$theme-bottom.png"
    convert "$out/$theme-top.png" "$out/$theme-bottom.png" -append "docs/theme-$theme.png"
    echo "docs/theme-$theme.png"
done

# Every theme at the original lock-screen size, 480×800.
classic=()
for theme in card classic immersive minimal block; do
    frame "$out/$theme-classic.png" "$nd/cover.jpg" "$nd/night-drive.lrc" 0:58.5 classic "$theme"
    classic+=("$out/$theme-classic.png")
done
montage "${classic[@]}" -tile 5x1 -geometry 240x400+6+6 -background '#202020' docs/classic-preset.png
echo docs/classic-preset.png

# The states of a song in the card theme: intro, a karaoke line, an interlude, the outro.
frame "$out/state-intro.png" "$nd/cover.jpg" "$nd/night-drive.lrc" 0:03 lockscreen card
frame "$out/state-karaoke.png" "$pl/cover.png" "$pl/paper-lanterns.lrc" 0:44.9 lockscreen card
frame "$out/state-gap.png" "$nd/cover.jpg" "$nd/night-drive.lrc" 1:36 lockscreen card
frame "$out/state-outro.png" "$pl/cover.png" "$pl/paper-lanterns.lrc" 2:03 lockscreen card
montage "$out"/state-{intro,karaoke,gap,outro}.png -tile 4x1 -geometry 240x427+6+6 -background '#202020' docs/states.png
echo docs/states.png

# The opening picture: the three samples at the lockscreen preset.
frame "$out/open-0.png" "$nd/cover.jpg" "$nd/night-drive.lrc" 0:58.5 lockscreen card
frame "$out/open-1.png" "$pl/cover.png" "$pl/paper-lanterns.lrc" 0:32 lockscreen card
frame "$out/open-2.png" "$as/cover.png" "$as/all-scripts.lrc" 0:57.5 lockscreen card
montage "$out"/open-{0,1,2}.png -tile 3x1 -geometry 360x640+0+0 docs/lockscreen.png
echo docs/lockscreen.png

# Presets: square, feed and classic; and landscape.
frame "$out/preset-square.png" "$nd/cover.jpg" "$nd/night-drive.lrc" 0:58.5 square card
frame "$out/preset-feed.png" "$pl/cover.png" "$pl/paper-lanterns.lrc" 0:32 feed card
frame "$out/preset-classic.png" "$nd/cover.jpg" "$nd/night-drive.lrc" 0:58.5 classic classic
montage "$out"/preset-{square,feed,classic}.png -tile 3x1 -geometry +6+6 -resize x388 -background '#202020' docs/presets.png
echo docs/presets.png
frame "$out/preset-landscape.png" "$pl/cover.png" "$pl/paper-lanterns.lrc" 0:32 landscape card
convert "$out/preset-landscape.png" -resize 640x360 docs/landscape.png
echo docs/landscape.png

# A whole song on one contact sheet.
"$bin" sheet "$nd/cover.jpg" "$nd/night-drive.lrc" -o "$out/sheet.png" --quiet > /dev/null
convert "$out/sheet.png" -resize 900x docs/sheet.png
echo docs/sheet.png

# A TTML duet: romanisation and translation under each line, backing vocals filling as they are
# sung, the second singer on the other side (left-aligned themes) or in a second hue (centred ones).
rl=samples/river-lights
frame "$out/ttml-card.png" "$rl/cover.png" "$rl/river-lights.ttml" 0:21.6 lockscreen card
frame "$out/ttml-immersive.png" "$rl/cover.png" "$rl/river-lights.ttml" 0:31.9 lockscreen immersive
frame "$out/ttml-duet.png" "$rl/cover.png" "$rl/river-lights.ttml" 0:24 lockscreen card
montage "$out"/ttml-{card,immersive,duet}.png -tile 3x1 -geometry 300x533+6+6 -background '#202020' docs/ttml.png
echo docs/ttml.png

# Share cards: the same three lines in every theme, as a 9:16 story and a 4:5 feed card, on a
# dark, a light and a vivid cover (the vivid one is made here: purple to magenta over green).
vivid="$out/vivid-cover.png"
convert -size 1000x700 gradient:'#7B1FE0'-'#E0149A' \( -size 1000x300 xc:'#18C060' \) -append "$vivid"
cards=("$nd/cover.jpg" "$pl/cover.png" "$vivid")
for theme in card classic immersive minimal block; do
    stories=() feeds=()
    for i in 0 1 2; do
        "$bin" card "${cards[$i]}" "$nd/night-drive.lrc" --lines 5-7 --theme "$theme" -o "$out/card-$theme-story-$i.png" > /dev/null
        "$bin" card "${cards[$i]}" "$nd/night-drive.lrc" --lines 5-7 --theme "$theme" --preset feed -o "$out/card-$theme-feed-$i.png" > /dev/null
        stories+=("$out/card-$theme-story-$i.png")
        feeds+=("$out/card-$theme-feed-$i.png")
    done
    # Side by side at one height (montage would give every tile the widest one's width).
    convert "${stories[@]}" "${feeds[@]}" -resize x300 -bordercolor '#202020' -border 5 +append "docs/cards-$theme.png"
    echo "docs/cards-$theme.png"
done

# 8 bits per channel and no time stamps: small files that only change when the pictures do.
mogrify -depth 8 -strip -define png:compression-level=9 docs/*.png

# Motion: a change of lines on its way (sequence --fps 30), every other tick for 450 ms, in the
# card theme and, below, on a transparent canvas (--alpha) over a checkerboard.
rm -rf "$out/motion" "$out/motion-alpha"
"$bin" sequence "$nd/cover.jpg" "$nd/night-drive.lrc" --fps 30 --from 13.5 --to 14.1 --preset lockscreen -o "$out/motion" --quiet
"$bin" sequence "$nd/cover.jpg" "$nd/night-drive.lrc" --fps 30 --from 13.5 --to 14.1 --preset lockscreen --alpha -o "$out/motion-alpha" --quiet
crop() { convert "$1" -crop 1080x760+0+1020 +repage "$2"; }
strip=() alpha=()
for tick in 3 5 6 7 9 11 13 17; do
    file=$(python3 -c 'import json,sys; m=json.load(open(sys.argv[1])); f=m["ticks"][int(sys.argv[2])]["frame"]; print(next(x["file"] for x in m["frames"] if x["index"] == f))' "$out/motion/manifest.json" "$tick")
    crop "$out/motion/$file" "$out/motion-$tick.png"
    crop "$out/motion-alpha/$file" "$out/motion-alpha-$tick.png"
    convert -size 1080x760 pattern:checkerboard -scale 400% -crop 1080x760+0+0 +repage "$out/motion-alpha-$tick.png" \
        -composite "$out/motion-alpha-$tick.png"
    strip+=("$out/motion-$tick.png")
    alpha+=("$out/motion-alpha-$tick.png")
done
montage "${strip[@]}" "${alpha[@]}" -tile 8x2 -geometry 240x169+3+3 -background '#202020' docs/motion.png
echo docs/motion.png

# Stories: every theme at --preset story, the apps' safe area outlined.
story=()
for theme in card immersive block classic minimal; do
    frame "$out/story-$theme.png" "$nd/cover.jpg" "$nd/night-drive.lrc" 0:58.5 story "$theme"
    convert "$out/story-$theme.png" -fill none -stroke '#39ff88' -strokewidth 5 -draw "rectangle 65,269 1015,1248" "$out/story-$theme.png"
    story+=("$out/story-$theme.png")
done
montage "${story[@]}" -tile 5x1 -geometry 240x427+6+6 -background '#202020' docs/story.png
echo docs/story.png

# Vertical writing, your own picture, e-ink panels, card options and the look fixes.
scripts/gallery-posters.sh "$bin" "$2"
