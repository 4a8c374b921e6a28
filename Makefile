# LyricPoster — the two commands a newcomer needs:
#   make demo   install what is missing, build (release), render the samples into out/
#   make test   install what is missing, run the test suite

SWIFT ?= swift
OUT ?= out
# What building needs (and the fonts every render uses), then what the tests and the demo add:
# ffmpeg (video), a session bus and a real player (follow), tag fixtures, YAML, /usr/bin/time, and
# VLC (follow against a second real player), for serve: curl, a headless browser (chromium, its driver, selenium), wrk and nginx (make bench),
# a single-node Slurm (slurm-wlm, munge) for the catalogue on a real cluster, and debootstrap (a clean
# Debian root filesystem that the .deb is installed into).
BUILD_PACKAGES = pkg-config libcairo2-dev libpango1.0-dev libfontconfig-dev libfreetype-dev libpng-dev zlib1g-dev \
           libturbojpeg0-dev libdeflate-dev libisal-dev libssl-dev libwebp-dev libtag1-dev libglib2.0-dev libxml2-dev libsqlite3-dev libqrencode-dev \
           fonts-noto-cjk fonts-noto-color-emoji
PACKAGES = $(BUILD_PACKAGES) curl ffmpeg python3-mutagen dbus mpv mpv-mpris playerctl python3-dbus python3-gi python3-yaml time \
           chromium chromium-driver python3-selenium wrk nginx vlc-bin vlc-plugin-base slurm-wlm munge debootstrap \
           groff-base mpd mpc supysonic python3-waitress sqlite3 zbar-tools
BIN = .build/release/lyricposter
# Release builds link the Swift runtime statically: the binary then needs only the Debian
# libraries of deploy/runtime-packages.txt, wherever it is installed.
RELEASE = -c release --static-swift-stdlib

# make install PREFIX=/usr/local DESTDIR=/staging   (the binary is stripped; STRIP= keeps its symbols)
PREFIX ?= /usr/local
DESTDIR ?=
STRIP ?= 1
bindir = $(DESTDIR)$(PREFIX)/bin
datadir = $(DESTDIR)$(PREFIX)/share
fontdir = $(datadir)/lyricposter/fonts
docdir = $(datadir)/doc/lyricposter
DOCS = README.md LICENSE CHANGELOG.md
FONTS = $(notdir $(wildcard fonts/*.ttf)) OFL.txt README.md
# What install puts where (uninstall removes exactly these, then the folders it made if empty).
INSTALLED = $(bindir)/lyricposter $(addprefix $(fontdir)/,$(FONTS)) $(datadir)/man/man1/lyricposter.1 \
            $(datadir)/bash-completion/completions/lyricposter $(datadir)/zsh/site-functions/_lyricposter \
            $(datadir)/fish/vendor_completions.d/lyricposter.fish $(addprefix $(docdir)/,$(DOCS)) \
            $(addprefix $(docdir)/,$(wildcard docs/*.md))
GENERATED_MANPAGE = .build/plugins/GenerateManual/outputs/lyricposter/lyricposter.1
MANPAGE = .build/man/lyricposter.1

.PHONY: all deps deps-build build demo gallery test docs bench bench-check bench-thresholds fuzz test-sanitized clean install install-files uninstall man runtime-deps deb

all: build

deps:
	@scripts/install-deps.sh $(PACKAGES)

deps-build:
	@scripts/install-deps.sh $(BUILD_PACKAGES)

build: deps-build
	$(SWIFT) build $(RELEASE) --product lyricposter
	@# A release build made earlier without --static-swift-stdlib is relinked as it was; replan.
	@if ldd $(BIN) | grep -q libswiftCore; then touch Package.swift; rm -f $(BIN); $(SWIFT) build $(RELEASE) --product lyricposter; fi

demo: build
	@scripts/install-deps.sh ffmpeg
	@scripts/demo.sh $(BIN) $(OUT)

# The README's pictures (docs/), tiled with ImageMagick.
gallery: build
	@scripts/install-deps.sh imagemagick
	@scripts/gallery.sh $(BIN) $(OUT)

# The release build first: the install and container tests check the binary users get. Then the
# example client package, which uses the LyricPoster library product as another package would.
CLIENT = Examples/PosterClient
test: deps build man
	$(SWIFT) test
	@# SwiftPM keeps a path dependency's list of files from the last plan: plan again, so that a
	@# file added to or removed from the engine since is seen.
	rm -f .build-client/debug.yaml
	$(SWIFT) test --package-path $(CLIENT) --scratch-path .build-client
	$(MAKE) docs

# The library's documentation (DocC, with the Snippets/ it shows) into out/docs; a broken link or
# an undocumented parameter of the public API is an error.
docs:
	mkdir -p $(OUT)
	$(SWIFT) package --disable-sandbox generate-documentation --target LyricPoster --warnings-as-errors \
		--output-path $(OUT)/docs >/dev/null
	@echo "documentation: $(OUT)/docs (open $(OUT)/docs/documentation/lyricposter/index.html through a web server)"

# Speed and memory of the release build (see docs/performance.md). RUNS=n for more or fewer runs.
RUNS ?= 5
# Seconds of each wrk run and of the SSE window in the serve benchmark (scripts/bench-serve.sh).
SERVE_SECONDS ?= 10
bench: deps
	$(SWIFT) build $(RELEASE) --product lyricposter
	$(SWIFT) build $(RELEASE) --product lyricposter-bench
	.build/release/lyricposter-bench --runs $(RUNS)
	scripts/bench-serve.sh $(BIN) $(SERVE_SECONDS)

# The figures a user sees (cold frame, lines beside the C floor, sequence, video, a catalogue song,
# serve's first frame) against the thresholds checked in under Benchmarks/Thresholds: a p90 more
# than 10 % over its threshold fails. bench-thresholds writes new ones (after a measured change).
# The Benchmarks package is separate, so that the library's clients never resolve ordo-one/benchmark.
bench-check: deps
	$(SWIFT) build $(RELEASE) --product lyricposter
	$(SWIFT) build $(RELEASE) --product lyricposter-bench
	cd Benchmarks && $(SWIFT) package benchmark thresholds check --no-progress
bench-thresholds: deps
	$(SWIFT) build $(RELEASE) --product lyricposter
	$(SWIFT) build $(RELEASE) --product lyricposter-bench
	cd Benchmarks && $(SWIFT) package --allow-writing-to-package-directory benchmark thresholds update --no-progress

# The test suite under AddressSanitizer, then ThreadSanitizer (the CLI tests run the sanitized
# binary too, so the parallel batch runs under TSan), then a LeakSanitizer pass over the binary.
# Leaks are checked on the binary only: the test process's own reports come from XCTest itself.
# Under both, tests see the sanitizer (TestSupport.Sanitizers): the heaviest tables run a share
# of their cases, and the .deb and Slurm tests, which add nothing a sanitizer checks, skip.
# ThreadSanitizer (about twice AddressSanitizer's time) leaves out the suites whose code runs on
# one thread: the look and layout tables in the test process, and the CLI suites about input
# mistakes, hostile input, completion and conversion (single frames, run just before under ASan),
# the lyric parsers' tables (LyricsCore keeps no state between calls), the catalogue's, video's
# and motion's cases whose threads are the same as those of the cases it keeps, the CLI's usage
# and bad-input cases (one frame or none), the band tables drawn on one thread (the two that
# encode across threads stay), and the VLC and mpv clock cases (FollowMPVTests and
# FollowClockTests keep the follow loop's threads, over a real mpv and a stepped player).
TSAN_SKIP = ^LyricsCoreTests\.|LookRenderTests|LookV3RenderTests|ThemeRenderTests|RenderTests\.RenderTests/|PixelKernelTests|MotionRenderTests|DecoderTests|^LayoutTests\.|InputMistakesTests|HostileInputTests|CompletionTests|ConvertCLITests|FormatsCLITests|InstallTests|CatalogTests/(testTwoRunsOfOneShard|testAKilledShard|testSlurmArraysMap|testAMillionLine)|VideoTests/testOptionsAreChecked|MotionTests/testEveryChangeOfLinesMoves|CLITests\.CLITests/(testEachOptionStatesOneDefault|testHelpExamplesDoNotWrap|testBadFlagsAreUsageErrors|testBadCoversFailWithOneLine)|CardCLITests/testBadChoicesFail|AudioCLITests/testBadAudioInputs|BandRenderTests/(testFramesDrawnFromTheBase|testMovesDrawnFromTheBase|testFramesOfAMove|testTicksOfASungLine)|FollowRealPlayersTests
test-sanitized: deps
	ASAN_OPTIONS=detect_leaks=0 $(SWIFT) test --sanitize=address --scratch-path .build-asan
	TSAN_OPTIONS=halt_on_error=1:suppressions=$(CURDIR)/Tests/Sanitizers/tsan.supp $(SWIFT) test --sanitize=thread --scratch-path .build-tsan \
		--skip '$(TSAN_SKIP)'
	rm -f .build-client-tsan/debug.yaml
	TSAN_OPTIONS=halt_on_error=1:suppressions=$(CURDIR)/Tests/Sanitizers/tsan.supp $(SWIFT) test --sanitize=thread \
		--package-path $(CLIENT) --scratch-path .build-client-tsan
	scripts/leak-check.sh .build-asan/debug/lyricposter

# Coverage-guided fuzzing of the LRC path and the cover decoders (libFuzzer + AddressSanitizer).
FUZZ_SECONDS ?= 60
fuzz: deps
	scripts/fuzz.sh $(FUZZ_SECONDS)

# The man page, from the command-line definitions (swift-argument-parser's generate-manual), then
# finished by scripts/finish-manual.sh (paragraphs as mdoc wants them, the real EXIT STATUS). The
# plugin builds the package first: in debug, so that it leaves the static release build alone.
man: $(MANPAGE)
$(GENERATED_MANPAGE): $(wildcard Sources/lyricposter/*.swift)
	$(SWIFT) package plugin generate-manual --configuration debug >/dev/null
$(MANPAGE): $(GENERATED_MANPAGE) scripts/finish-manual.sh
	@mkdir -p $(dir $@)
	scripts/finish-manual.sh < $< > $@.tmp && mv $@.tmp $@

# Installs the release build, its fonts, man page and shell completions under $(DESTDIR)$(PREFIX).
install: build man install-files

# The same, from what is already built (the container build uses this after its own build).
install-files:
	install -d $(bindir) $(fontdir) $(datadir)/man/man1 $(datadir)/bash-completion/completions \
		$(datadir)/zsh/site-functions $(datadir)/fish/vendor_completions.d $(docdir)/docs
	install -m 755 $(if $(STRIP),-s) $(BIN) $(bindir)/lyricposter
	install -m 644 $(addprefix fonts/,$(FONTS)) $(fontdir)/
	sed 's|/usr/share/doc/lyricposter|$(PREFIX)/share/doc/lyricposter|g' $(MANPAGE) > $(datadir)/man/man1/lyricposter.1
	chmod 644 $(datadir)/man/man1/lyricposter.1
	install -m 644 $(DOCS) $(docdir)/
	install -m 644 docs/*.md $(docdir)/docs/
	$(BIN) --generate-completion-script bash > $(datadir)/bash-completion/completions/lyricposter
	$(BIN) --generate-completion-script zsh > $(datadir)/zsh/site-functions/_lyricposter
	$(BIN) --generate-completion-script fish > $(datadir)/fish/vendor_completions.d/lyricposter.fish

uninstall:
	rm -f $(INSTALLED)
	-rmdir $(fontdir) $(datadir)/lyricposter $(docdir)/docs $(docdir) 2>/dev/null

# A Debian package of the release build in out/ (binary stripped, fonts, man page, completions,
# the systemd user unit, README; Depends: from the libraries the binary links). Installed into a
# clean Debian 12 root filesystem by the tests (DebianPackageTests).
deb: build man
	@scripts/make-deb.sh $(BIN) $(MANPAGE) $(OUT)

# The Debian packages an installed binary needs at run time (the container's list).
runtime-deps:
	@scripts/install-deps.sh $$(grep -v '^#' deploy/runtime-packages.txt)

clean:
	rm -rf .build .build-fuzz .build-asan .build-tsan $(OUT)
