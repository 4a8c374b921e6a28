#!/usr/bin/env bash
# Builds out/lyricposter_VERSION_ARCH.deb from what `make build man` made: the stripped static
# binary in /usr/bin, the bundled fonts, the man page, the shell completions, the systemd user unit
# (ExecStart pointed at /usr/bin), the README, its docs/ pages, the changelog and licences under
# /usr/share/doc/lyricposter.
# Depends: is the packages of the libraries the binary really links (scripts/check-runtime-libs.sh's
# mapping, DEPENDS=), plus the fonts and fontconfig the renderer needs at run time.
#   scripts/make-deb.sh BINARY MANPAGE OUT
set -euo pipefail
binary=${1:?binary} manpage=${2:?man page} out=${3:?output folder}
root=$(cd "$(dirname "$(readlink -f -- "${BASH_SOURCE[0]}")")/.." && pwd)
version=$("$binary" --version | awk 'NR == 1 { print $2 }')
arch=$(dpkg --print-architecture)
[ -n "$version" ] || { echo "error: $binary --version gave no version" >&2; exit 1; }

stage=$(mktemp -d "${TMPDIR:-/tmp}/lyricposter-deb.XXXXXX")
trap 'rm -rf "$stage"' EXIT
make -s -C "$root" install-files PREFIX=/usr DESTDIR="$stage/root" BIN="$binary" MANPAGE="$manpage" STRIP=1 >/dev/null
# install-files put the README, LICENSE, CHANGELOG and docs/*.md (the README's links go there; the
# decision records stay in the source) in /usr/share/doc/lyricposter.
doc=$stage/root/usr/share/doc/lyricposter
install -d "$stage/root/usr/lib/systemd/user" "$stage/root/usr/share/lyricposter/examples"
install -m 644 "$root/fonts/OFL.txt" "$doc/OFL-fonts.txt"
sed 's|/usr/local/bin/lyricposter|/usr/bin/lyricposter|g' "$root/deploy/systemd/lyricposter-follow.service" \
    > "$stage/root/usr/lib/systemd/user/lyricposter-follow.service"
install -m 644 "$root/deploy/systemd/follow.env" "$stage/root/usr/share/lyricposter/examples/follow.env"
gzip -9n "$stage/root/usr/share/man/man1/lyricposter.1"

# The libraries' packages, as the runtime check maps them (it also fails on anything unpackaged).
list=$stage/depends
: >"$list"
DEPENDS=$list "$root/scripts/check-runtime-libs.sh" "$stage/root/usr/bin/lyricposter" >/dev/null
depends=$( (cat "$list"; echo fontconfig; echo fonts-noto-cjk; echo fonts-noto-color-emoji) | sort -u | paste -sd, | sed 's/,/, /g')
# Installed-Size in KiB from the files' own sizes (each rounded up, plus one per folder or link),
# not from du, whose block counts for freshly written files vary from one build to the next.
size=$(find "$stage/root" -mindepth 1 \( -type f -printf '%s\n' -o -printf '1024\n' \) \
    | awk '{ total += int(($1 + 1023) / 1024) } END { print total }')

install -d "$stage/root/DEBIAN"
cat >"$stage/root/DEBIAN/control" <<CONTROL
Package: lyricposter
Version: $version
Architecture: $arch
Maintainer: LyricPoster developers <lyricposter@localhost>
Installed-Size: $size
Depends: $depends
Recommends: ffmpeg
Suggests: mpv-mpris, playerctl
Section: graphics
Priority: optional
Description: lyric posters from a cover image, lyrics and a time
 LyricPoster composites the current lyric line and its neighbours onto a
 song's cover (Cairo, Pango, HarfBuzz) and writes PNG, JPEG or WebP frames,
 per-line batches, contact sheets, share cards and lyric videos (with
 ffmpeg). It reads LRC, enhanced LRC, TTML, QRC, KRC and more, music files
 with embedded lyrics, follows a playing MPRIS player, and serves the poster
 to browsers and overlays with its serve command.
CONTROL
(cd "$stage/root" && find . -type f ! -path './DEBIAN/*' -printf '%P\0' | sort -z | xargs -0 md5sum) >"$stage/root/DEBIAN/md5sums"
mkdir -p "$out"
deb=$out/lyricposter_${version}_${arch}.deb
# Same inputs, same bytes: file times clamped, owners root.
export SOURCE_DATE_EPOCH=${SOURCE_DATE_EPOCH:-$(git -C "$root" log -1 --format=%ct 2>/dev/null || echo 0)}
find "$stage/root" -exec touch -h -d "@$SOURCE_DATE_EPOCH" {} +
dpkg-deb --root-owner-group -Zxz --build "$stage/root" "$deb.partial" >/dev/null
mv "$deb.partial" "$deb"
echo "$deb"
