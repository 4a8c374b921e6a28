#!/usr/bin/env bash
# Builds the libFuzzer targets with AddressSanitizer and runs each for a bounded time.
# Usage: scripts/fuzz.sh [SECONDS_PER_TARGET [TARGET...]]   (default 60; targets lrc ttml yrc srt vtt eslrc lys lyl lqe ass lyricsfile qrc krc cover png tags mpris mpd push subsonic lrclib manifest palette choice request)
# Seeds come from Tests/Fuzz/corpus/<target> (read only); new inputs go to .build-fuzz/corpus/.
# A crash leaves crash-* files in .build-fuzz/ and a non-zero exit; turn each into a test.
set -euo pipefail
cd "$(dirname "$0")/.."
seconds=${1:-60}
shift || true
targets=("$@")
[ ${#targets[@]} -gt 0 ] || targets=(lrc ttml yrc srt vtt eslrc lys lyl lqe ass lyricsfile qrc krc cover png tags mpris mpd push subsonic lrclib manifest palette choice request)
runtime=$(dirname "$(dirname "$(command -v swift)")")/lib/swift/clang/lib/linux/libclang_rt.fuzzer_no_main-x86_64.a
[ -f "$runtime" ] || { echo "error: libFuzzer runtime not found at $runtime" >&2; exit 1; }
flags=(-c release --scratch-path .build-fuzz
       -Xswiftc -sanitize=address -Xswiftc -sanitize-coverage=edge,inline-8bit-counters,pc-table,trace-cmp
       -Xcc -fsanitize=fuzzer-no-link,address
       -Xlinker --whole-archive -Xlinker "$runtime" -Xlinker --no-whole-archive -Xlinker -lstdc++ -Xlinker --export-dynamic)
status=0
swift build --product lyricposter-fuzz "${flags[@]}" 2>&1 | grep -v "Cannot export local symbol" | tail -1
for target in "${targets[@]}"; do
    mkdir -p ".build-fuzz/corpus/$target"
    # The cover decoders get pictures of at most a few megapixels: any allocation past 256 MB is
    # a decoder trusting a length it has not read (libpng's chunk buffers are bounded for that).
    limit=()
    case $target in cover|png) limit=(-malloc_limit_mb=256) ;; esac
    echo "fuzzing $target for ${seconds}s"
    (cd .build-fuzz && FUZZ_TARGET=$target ASAN_OPTIONS=detect_leaks=0 SWIFT_BACKTRACE=enable=no release/lyricposter-fuzz "corpus/$target" "../Tests/Fuzz/corpus/$target" \
        -max_total_time="$seconds" -rss_limit_mb=2048 "${limit[@]}" -timeout=10 -print_final_stats=1 2>&1 \
        | grep -E "^(stat::number_of_executed_units|stat::peak_rss_mb|#[0-9]+ +DONE|==[0-9]+==ERROR|SUMMARY|artifact_prefix|Test unit written)" ) || status=1
done
exit $status
