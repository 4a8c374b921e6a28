#!/usr/bin/env bash
# The pictures of vertical writing, your own picture, e-ink panels, card options and the look
# fixes (docs/gallery-57/), from the bundled samples and pictures made here with ImageMagick.
# Usage: scripts/gallery-posters.sh BINARY OUT_DIR   (called by scripts/gallery.sh)
set -euo pipefail
bin=$1
out=$2/gallery-57
docs=docs/gallery-57
mkdir -p "$out" "$docs"
nd=samples/night-drive
pl=samples/paper-lanterns
tile() {  # out height files…: side by side at one height, on a dark ground
    local file=$1 height=$2
    shift 2
    convert "$@" -resize "x$height" -bordercolor '#202020' -border 5 +append "$file"
    echo "$file"
}

# Pictures made here: a busy "photograph" (plasma) and a vivid two-colour cover.
busy="$out/busy.png" vivid="$out/vivid.png"
convert -size 900x900 -seed 57 plasma:fractal -blur 0x1 "$busy"
convert -size 800x400 xc:'#FF005A' \( -size 800x400 xc:'#00DCFF' \) -append "$vivid"

# Vertical writing: Chinese with its English translations, Japanese with furigana and Chinese
# translations (a line with a Latin word and upright 17), a landscape poster and a card.
"$bin" frame "$pl/cover.png" "$pl/paper-lanterns.lrc" --at 0:19 --writing vertical -o "$out/v-zh.png" > /dev/null
"$bin" frame "$pl/cover.png" "$pl/tooi-natsu.lrcx" --at 0:09 --writing vertical -o "$out/v-ja.png" > /dev/null
"$bin" frame "$nd/cover.jpg" "$pl/tooi-natsu.lrcx" --at 0:21 --writing vertical --theme immersive -o "$out/v-mixed.png" > /dev/null
"$bin" card "$pl/cover.png" "$pl/tooi-natsu.lrcx" --lines 1,3-4 --writing vertical --preset feed --theme block -o "$out/v-card.png" > /dev/null
"$bin" frame "$pl/cover.png" "$pl/paper-lanterns.lrc" --at 0:19 --writing vertical --preset landscape -o "$out/v-wide.png" > /dev/null
tile "$out/v-top.png" 640 "$out"/v-{zh,ja,mixed,card}.png
convert "$out/v-wide.png" -resize x640 "$out/v-wide-small.png"
convert "$out/v-top.png" \( "$out/v-wide-small.png" -bordercolor '#202020' -border 5 \) -gravity west -background '#202020' -append "$docs/vertical.png"
echo "$docs/vertical.png"

# Your own picture behind the lyrics, in four themes, and as a card.
for theme in card immersive block minimal; do
    "$bin" frame "$nd/cover.jpg" "$nd/night-drive.lrc" --at 0:30 --background "$busy" --theme "$theme" -o "$out/photo-$theme.png" > /dev/null
done
"$bin" card "$nd/cover.jpg" "$nd/night-drive.lrc" --lines 4-5 --background "$busy" --preset feed -o "$out/photo-card.png" > /dev/null
tile "$docs/photo-background.png" 560 "$busy" "$out"/photo-{card,immersive,block,minimal}.png "$out/photo-card.png"

# E-ink: each palette on the vivid cover at 800x480, read back as RGB.
for palette in inky7 spectra6 gray4 mono; do
    "$bin" frame "$vivid" "$nd/night-drive.lrc" --at 0:30 --palette "$palette" --size 800x480 -o "$out/eink-$palette.png" > /dev/null
    convert "$out/eink-$palette.png" -define png:color-type=2 "$out/eink-$palette-rgb.png"
done
"$bin" card "$nd/cover.jpg" "$nd/night-drive.lrc" --lines 4-5 --panel inky-impression-7.3 --qr https://example.org/night-drive -o "$out/eink-card.png" > /dev/null
convert "$out/eink-card.png" -define png:color-type=2 "$out/eink-card-rgb.png"
convert \( "$out"/eink-{inky7,spectra6}-rgb.png +append \) \( "$out"/eink-{gray4,mono}-rgb.png +append \) \
    \( "$out/eink-card-rgb.png" "$vivid" -resize x480 +append \) -append -resize 1600x "$docs/eink.png"
echo "$docs/eink.png"

# Card options: lines that skip, right-aligned; a QR code; a cover-only card; vertical.
"$bin" card "$nd/cover.jpg" "$nd/night-drive.lrc" --lines 3,7-8 -o "$out/co-skip.png" > /dev/null
"$bin" card "$nd/cover.jpg" "$nd/night-drive.lrc" --lines 3,7-8 --align right --theme block --preset feed -o "$out/co-right.png" > /dev/null
"$bin" card "$pl/cover.png" "$pl/paper-lanterns.lrc" --lines 2-3 --qr https://example.org/paper-lanterns --preset feed -o "$out/co-qr.png" > /dev/null
"$bin" card samples/harbour-bells/harbour-bells.mp3 --cover-only --preset feed -o "$out/co-cover.png" > /dev/null
tile "$docs/card-options.png" 600 "$out"/co-{skip,right,qr,cover}.png

# The look fixes: block's neighbours on a saturated cover; minimal on three unlike photographs
# that share only some orange lights.
"$bin" frame "$vivid" "$nd/night-drive.lrc" --at 0:30 --theme block --preset feed -o "$out/fix-block.png" > /dev/null
fixes=("$out/fix-block.png")
for tint in '#5A6E8C' '#5F8050' '#8A5E80'; do
    name=${tint#\#}
    convert -size 600x600 -seed 7 plasma:"$tint"-"$tint" -modulate 100,40 \
        \( -size 600x600 xc:none -fill '#FF8C1A' -draw 'circle 120,140 132,152' -draw 'circle 420,380 436,396' -draw 'circle 300,520 310,530' \) \
        -composite "$out/photo-$name.png"
    "$bin" frame "$out/photo-$name.png" "$nd/night-drive.lrc" --at 0:30 --theme minimal --preset feed -o "$out/fix-minimal-$name.png" > /dev/null
    fixes+=("$out/photo-$name.png" "$out/fix-minimal-$name.png")
done
tile "$docs/look-fixes.png" 500 "${fixes[@]}"

mogrify -depth 8 -strip -define png:compression-level=9 "$docs"/*.png
