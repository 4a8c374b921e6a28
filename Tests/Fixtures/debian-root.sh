#!/usr/bin/env bash
# A clean Debian 12 root filesystem for the package test: `debootstrap --variant=minbase bookworm`,
# made once and kept (as a tarball) in CACHE, then unpacked fresh into DIR for each run.
#   debian-root.sh CACHE DIR   exit 0 when DIR holds a fresh root; else one line saying why (exit 1)
set -uo pipefail
cache=${1:?cache folder} dir=${2:?target folder}
fail() { echo "$*"; exit 1; }
[ "$(id -u)" -eq 0 ] || fail "debootstrap and chroot need root"
command -v debootstrap >/dev/null || fail "debootstrap is not installed (apt-get install debootstrap)"
mirror=$(sed -n 's/^URIs: *//p' /etc/apt/sources.list.d/debian.sources 2>/dev/null | head -1)
[ -n "$mirror" ] || mirror=$(awk '/^deb /{print $2; exit}' /etc/apt/sources.list 2>/dev/null)
mirror=${mirror:-http://deb.debian.org/debian}
tarball=$cache/bookworm-minbase.tar.gz
mkdir -p "$cache"
if [ ! -s "$tarball" ]; then
    work=$(mktemp -d "$cache/debootstrap.XXXXXX")
    if ! debootstrap --variant=minbase bookworm "$work/root" "$mirror" >"$work/log" 2>&1; then
        reason=$(grep -E "^E:|W: Failure" "$work/log" | head -1)
        rm -rf "$work"
        fail "debootstrap bookworm from $mirror failed: ${reason:-see its log}"
    fi
    tar -C "$work/root" -czf "$tarball.partial" . && mv "$tarball.partial" "$tarball"
    rm -rf "$work"
fi
rm -rf "$dir" && mkdir -p "$dir"
tar -C "$dir" -xzf "$tarball" || fail "cannot unpack $tarball"
cp /etc/resolv.conf "$dir/etc/resolv.conf" 2>/dev/null
exit 0
