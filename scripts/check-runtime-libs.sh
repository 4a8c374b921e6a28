#!/usr/bin/env bash
# Checks that every shared library BINARY loads comes from a Debian package that an image built
# from PACKAGE_LIST has: a listed package, one of their dependencies, or the base system
# (packages of priority required and their dependencies, as in debian:bookworm-slim).
#
#   scripts/check-runtime-libs.sh BINARY [PACKAGE_LIST]
#
# PACKAGE_LIST defaults to deploy/runtime-packages.txt (one package a line, # comments).
# Runs on Debian with the apt lists present (apt-get update). Exit 0 when everything is
# provided, 1 on any problem, 2 on bad usage. VERBOSE=1 prints each library's package;
# DEPENDS=FILE appends each library's package to FILE (scripts/make-deb.sh's Depends:).
set -euo pipefail

usage() { echo "usage: $0 BINARY [PACKAGE_LIST]" >&2; exit 2; }
[[ $# -ge 1 && $# -le 2 ]] || usage

binary=$1
root=$(cd "$(dirname "$(readlink -f -- "${BASH_SOURCE[0]}")")/.." && pwd)
if [[ $# -eq 2 ]]; then
    list=$2 list_name=$2
else
    list=$root/deploy/runtime-packages.txt list_name=deploy/runtime-packages.txt
fi
[[ -f $binary ]] || { echo "error: no such file: $binary" >&2; exit 2; }
[[ -r $list ]] || { echo "error: cannot read the package list: $list" >&2; exit 2; }
for tool in ldd dpkg-query apt-cache readlink; do
    command -v "$tool" >/dev/null || { echo "error: $tool not found (this check runs on Debian)" >&2; exit 2; }
done

problems=0
problem() { echo "$1"; problems=$((problems + 1)); }

# --- The libraries the binary loads -----------------------------------------------------------
if ! ldd_out=$(LC_ALL=C ldd -- "$binary" 2>&1); then
    # static-pie: "statically linked"; classic static: "not a dynamic executable" (as for a
    # non-ELF file or another architecture's binary, hence the readelf check).
    if grep -q 'statically linked' <<<"$ldd_out" ||
       { command -v readelf >/dev/null && LC_ALL=C readelf -d -- "$binary" 2>/dev/null | grep -q 'no dynamic section'; }; then
        echo "ok: $binary is statically linked, no shared libraries"
        exit 0
    fi
    echo "error: ldd failed on $binary:" >&2
    echo "$ldd_out" >&2
    exit 1
fi

libs=()
while IFS= read -r line; do
    line=${line#"${line%%[![:space:]]*}"}
    if [[ $line =~ ^([^[:space:]]+)[[:space:]]+=\>[[:space:]]+not\ found ]]; then
        problem "not found: ${BASH_REMATCH[1]} (ldd cannot resolve it on this machine)"
    elif [[ $line =~ =\>[[:space:]]+(/[^[:space:]]+) ]]; then
        libs+=("${BASH_REMATCH[1]}")
    elif [[ $line =~ ^(/[^[:space:]]+) ]]; then
        libs+=("${BASH_REMATCH[1]}")   # the dynamic loader: "/lib64/ld-linux-x86-64.so.2 (0x…)"
    fi
    # Anything else (linux-vdso.so.1, linux-gate.so.1) is provided by the kernel, not a file.
done <<<"$ldd_out"

# --- Which package owns each library --------------------------------------------------------
# dpkg records the path the package shipped; ldd prints the path it found. On merged-/usr systems
# they can differ (/lib/x86_64-linux-gnu vs /usr/lib/x86_64-linux-gnu, /lib64 vs /usr/lib64),
# and either may be a symlink, so several spellings are tried.
spellings() {
    local p=$1 dir real x
    local -a forms=("$p")
    if dir=$(readlink -f -- "$(dirname -- "$p")"); then forms+=("$dir/$(basename -- "$p")"); fi
    if real=$(readlink -f -- "$p"); then forms+=("$real"); fi
    for x in "${forms[@]}"; do
        echo "$x"
        case $x in
            /usr/lib*|/usr/bin/*|/usr/sbin/*) echo "${x#/usr}" ;;
            /lib*|/bin/*|/sbin/*) echo "/usr$x" ;;
        esac
    done | awk '!seen[$0]++'
}

declare -A candidates=()   # library → its spellings, newline-separated
all_paths=()
for lib in "${libs[@]}"; do
    forms=$(spellings "$lib")
    candidates[$lib]=$forms
    while IFS= read -r f; do all_paths+=("$f"); done <<<"$forms"
done

declare -A owner=()   # path → owning packages, space-separated, without :arch
if [[ ${#all_paths[@]} -gt 0 ]]; then
    # An absolute pattern is matched exactly, but glob characters must be escaped. One call for
    # all paths: dpkg-query exits 1 when some are unowned, which is expected here.
    mapfile -t patterns < <(printf '%s\n' "${all_paths[@]}" | awk '!seen[$0]++' | sed 's/[][*?\\]/\\&/g')
    while IFS= read -r line; do
        case $line in "diversion by "*|"local diversion "*) continue ;; esac
        [[ $line == *": /"* ]] || continue
        pkgs=${line%%: /*}
        path=/${line#*: /}
        pkgs=$(tr ',' '\n' <<<"$pkgs" | sed -e 's/^ *//' -e 's/:.*//' | tr '\n' ' ')
        owner[$path]="${owner[$path]:-}$pkgs"
    done < <(LC_ALL=C dpkg-query -S -- "${patterns[@]}" 2>/dev/null || true)
fi

# --- The packages the image will have -------------------------------------------------------
mapfile -t listed < <(sed -e 's/#.*//' "$list" | tr -s ' \t\r' '\n\n\n' | sed '/^$/d')
mapfile -t base < <(dpkg-query -W -f='${db:Status-Status} ${Package} ${Priority} ${Essential}\n' |
    awk '$1 == "installed" && ($3 == "required" || $4 == "yes") { print $2 }' | sort -u)
[[ ${#base[@]} -gt 0 ]] || { echo "error: dpkg-query lists no required packages" >&2; exit 2; }

declare -A available=()
while IFS= read -r pkg; do
    available[$pkg]=1
done < <(apt-cache depends --recurse --no-recommends --no-suggests --no-conflicts --no-breaks \
            --no-replaces --no-enhances "${listed[@]}" "${base[@]}" |
         grep -v '^[[:space:]]' | grep -v '^<' | sed 's/:.*//' | sort -u)

for pkg in "${listed[@]}"; do
    if [[ -z ${available[${pkg%%:*}]:-} ]]; then
        problem "unknown: package $pkg in $list_name is not known to apt (a typo, or run apt-get update)"
    fi
done

# --- The verdict ----------------------------------------------------------------------------
swift_runtime=0
for lib in "${libs[@]}"; do
    pkgs=""
    while IFS= read -r f; do
        if [[ -n ${owner[$f]:-} ]]; then pkgs=${owner[$f]}; break; fi
    done <<<"${candidates[$lib]}"
    if [[ -z $pkgs ]]; then
        problem "unpackaged: $lib"
        case $(basename -- "$lib") in
            libswift*|libFoundation*|lib_Foundation*|libdispatch*|libBlocksRuntime*) swift_runtime=1 ;;
        esac
        continue
    fi
    # DEPENDS=FILE: also list each library's package there (make deb's Depends: line).
    if [[ -n ${DEPENDS:-} ]]; then read -r first _ <<<"$pkgs"; echo "$first" >>"$DEPENDS"; fi
    provided=""
    for pkg in $pkgs; do
        if [[ -n ${available[$pkg]:-} ]]; then provided=$pkg; break; fi
    done
    if [[ -n $provided ]]; then
        if [[ ${VERBOSE:-0} == 1 ]]; then echo "  $lib: $provided"; fi
    else
        read -r first _ <<<"$pkgs"
        problem "missing: $lib (package $first is not in $list_name or its dependencies)"
    fi
done

if [[ $swift_runtime == 1 ]]; then
    echo "hint: the Swift runtime is linked dynamically (toolchain libraries are in no Debian package);"
    echo "      build with: swift build -c release --product lyricposter --static-swift-stdlib"
fi

if [[ $problems -gt 0 ]]; then
    echo "failed: $problems problem(s) among ${#libs[@]} libraries of $binary"
    exit 1
fi
echo "ok: ${#libs[@]} libraries, all provided by the runtime packages"
