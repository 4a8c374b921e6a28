# LyricPoster — the two commands a newcomer needs:
#   make demo   install what is missing, build (release), render the samples into out/
#   make test   install what is missing, run the test suite

SWIFT ?= swift
OUT ?= out
PACKAGES = pkg-config libcairo2-dev libpango1.0-dev libfontconfig-dev libfreetype-dev libpng-dev \
           libturbojpeg0-dev libdeflate-dev libisal-dev libssl-dev libwebp-dev libtag1-dev fonts-noto-cjk fonts-noto-color-emoji \
           ffmpeg python3-mutagen libglib2.0-dev dbus mpv mpv-mpris playerctl python3-dbus python3-gi
BIN = .build/release/lyricposter

.PHONY: all deps build demo gallery test bench fuzz test-sanitized clean

all: build

deps:
	@scripts/install-deps.sh $(PACKAGES)

build: deps
	$(SWIFT) build -c release --product lyricposter

demo: build
	@scripts/demo.sh $(BIN) $(OUT)

# The README's pictures (docs/), tiled with ImageMagick.
gallery: build
	@scripts/install-deps.sh imagemagick
	@scripts/gallery.sh $(BIN) $(OUT)

test: deps
	$(SWIFT) test

# Speed and memory of the release build (see README, Performance). RUNS=n for more or fewer runs.
RUNS ?= 5
bench: deps
	$(SWIFT) build -c release --product lyricposter
	$(SWIFT) build -c release --product lyricposter-bench
	.build/release/lyricposter-bench --runs $(RUNS)

# The test suite under AddressSanitizer, then ThreadSanitizer (the CLI tests run the sanitized
# binary too, so the parallel batch runs under TSan), then a LeakSanitizer pass over the binary.
# Leaks are checked on the binary only: the test process's own reports come from XCTest itself.
test-sanitized: deps
	ASAN_OPTIONS=detect_leaks=0 $(SWIFT) test --sanitize=address --scratch-path .build-asan
	TSAN_OPTIONS=halt_on_error=1 $(SWIFT) test --sanitize=thread --scratch-path .build-tsan
	scripts/leak-check.sh .build-asan/debug/lyricposter

# Coverage-guided fuzzing of the LRC path and the cover decoders (libFuzzer + AddressSanitizer).
FUZZ_SECONDS ?= 60
fuzz: deps
	scripts/fuzz.sh $(FUZZ_SECONDS)

clean:
	rm -rf .build .build-fuzz .build-asan .build-tsan $(OUT)
