#!/usr/bin/env bash
# Installs a lyricposter .deb into a clean Debian 12 root filesystem (debian-root.sh: debootstrap
# --variant=minbase, cached) with apt-get, then runs the tool there as an unprivileged user.
#   deb-check.sh DEB CACHE WORK INPUTS
# INPUTS is a folder copied in as the user's (cover.jpg, song.lrc, song.flac, catalog.jsonl).
# Writes WORK/results/: <name>.status, <name>.out, <name>.err for each run, and the outputs in
# WORK/results/files/. Exit 0 when the root was set up (the runs' statuses are for the caller);
# otherwise one line saying why, exit 1 (the caller skips, saying so).
set -uo pipefail
deb=${1:?deb} cache=${2:?cache} work=${3:?work} inputs=${4:?inputs}
here=$(cd "$(dirname "$(readlink -f -- "${BASH_SOURCE[0]}")")" && pwd)
root=$work/root
results=$work/results
cleanup() {
    umount -l "$root/var/cache/apt/archives" 2>/dev/null
    umount -l "$root/proc" 2>/dev/null
    # Never remove through a mount that is still there (the package cache is the host's).
    if ! grep -q " $root/" /proc/self/mounts; then rm -rf "$root"; fi
}
trap cleanup EXIT
fail() { echo "$*"; exit 1; }

why=$("$here/debian-root.sh" "$cache" "$root") || fail "$why"
mkdir -p "$results/files" "$cache/archives/partial"
mount -t proc proc "$root/proc" || fail "cannot mount /proc in the root"
# Downloaded packages are kept between runs.
mount --bind "$cache/archives" "$root/var/cache/apt/archives" || fail "cannot bind the package cache"
cp "$deb" "$root/tmp/lyricposter.deb"
in_root() { chroot "$root" /usr/bin/env -i PATH=/usr/sbin:/usr/bin:/sbin:/bin DEBIAN_FRONTEND=noninteractive LANG=C.UTF-8 "$@"; }
in_root apt-get update -qq >"$results/apt.log" 2>&1 || fail "apt-get update in the clean root failed: $(tail -1 "$results/apt.log")"
# Run as the test's "apt-get install ./lyricposter_*.deb": the Depends: line must bring everything.
{ time in_root apt-get install -y -qq --no-install-recommends /tmp/lyricposter.deb; } >>"$results/apt.log" 2>&1
echo $? >"$results/install.status"
in_root dpkg-query -W -f='${Package}\n' >"$results/packages.txt"

in_root useradd --create-home --uid 4242 --user-group poster >/dev/null 2>&1
mkdir -p "$root/home/poster/in" "$root/home/poster/out"
cp -r "$inputs"/. "$root/home/poster/in/"
chown -R 4242:4242 "$root/home/poster"
# As `docker run --user "$(id -u):$(id -g)"` runs it: a user whose folder it writes into, and a
# cache folder any user can write.
run() {
    local name=$1; shift
    chroot --userspec=4242:4242 "$root" /usr/bin/env -i PATH=/usr/bin:/bin HOME=/home/poster LANG=C.UTF-8 \
        XDG_CACHE_HOME=/home/poster/.cache sh -c 'cd /home/poster && exec "$@"' sh "$@" \
        >"$results/$name.out" 2>"$results/$name.err"
    echo $? >"$results/$name.status"
}
run version lyricposter --version
run frame lyricposter frame in/cover.jpg in/song.lrc --at 12 -o out/frame.png
run audio lyricposter frame in/song.flac --at 1.6 -o out/audio.png
run lines lyricposter lines in/cover.jpg in/song.lrc -o out/lines --quiet
run inspect lyricposter inspect in/song.lrc
run catalog lyricposter catalog in/catalog.jsonl -o out/catalog --size 96x160 --quiet
run man sh -c 'test -s /usr/share/man/man1/lyricposter.1.gz && test -s /usr/share/bash-completion/completions/lyricposter && test -s /usr/share/doc/lyricposter/README.md && test -s /usr/lib/systemd/user/lyricposter-follow.service'
cp -r "$root/home/poster/out"/. "$results/files/"
# Without /proc the binary cannot read its arguments: it must say so, not run with none.
umount -l "$root/proc"
run noproc lyricposter frame in/cover.jpg in/song.lrc -o out/never.png
exit 0
