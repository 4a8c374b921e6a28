# LyricPoster for catalogue rendering: a static-Swift-runtime build on Debian 12, run as a non-root
# user on debian:bookworm-slim with the packages of deploy/runtime-packages.txt.
#   docker build -t lyricposter .          (--build-arg SOURCE_URL=https://… labels the source)
#   docker run --rm --user "$(id -u):$(id -g)" -v "$PWD:/data" lyricposter frame …
# (--user: the process runs as you, so it can write into your folder; the image's own user, 10001,
# cannot write into a folder it does not own.)
# No ffmpeg in the image: `lyricposter video` reports it missing.

# Any official Swift 6 bookworm image (swift:6.1-bookworm or later); the project is developed on 6.3.
ARG SWIFT_IMAGE=swift:6.1-bookworm

FROM ${SWIFT_IMAGE} AS build
# The -dev packages behind Package.swift's pkg-config targets (as in the Makefile's PACKAGES).
# The Swift image already has pkg-config, git and libxml2-dev (FoundationXML); listed anyway.
RUN export DEBIAN_FRONTEND=noninteractive \
 && apt-get update \
 && apt-get install -y --no-install-recommends \
        make pkg-config \
        libcairo2-dev libpango1.0-dev libfontconfig-dev libfreetype-dev libpng-dev \
        libturbojpeg0-dev libdeflate-dev libisal-dev libssl-dev libwebp-dev libtag1-dev libsqlite3-dev libqrencode-dev \
        libglib2.0-dev libxml2-dev
# (The apt lists stay: check-runtime-libs.sh below reads them. This stage is not shipped.)
WORKDIR /src
# Dependencies first, so editing the sources does not fetch them again.
# (Package.resolve[d]: the file is optional; the glob lets COPY go on without it.)
COPY Package.swift Package.resolve[d] ./
RUN swift package resolve
COPY . .
# The static release build; then `make man` (swift-argument-parser's generate-manual plugin, which
# builds the package in debug first) and `make install-files`, which copies what is built: the
# binary, share/lyricposter/fonts, the man page, the shell completions and share/doc/lyricposter
# (the README, docs/, licence and changelog). (`make install` does
# all three on a machine with the build packages.) Last, the installed binary must load only
# libraries from deploy/runtime-packages.txt: a dynamic Swift runtime or a short list fails here.
RUN swift build -c release --product lyricposter --static-swift-stdlib \
 && make man install-files PREFIX=/usr/local DESTDIR=/staging STRIP=1 \
 && scripts/check-runtime-libs.sh /staging/usr/local/bin/lyricposter

FROM debian:bookworm-slim
# Where the sources live, for the image's label (empty unless given).
ARG SOURCE_URL=""
LABEL org.opencontainers.image.title="LyricPoster" \
      org.opencontainers.image.description="Lyric posters from a cover image, lyrics and a time (catalogue rendering; no ffmpeg)" \
      org.opencontainers.image.source="${SOURCE_URL}"
# Exactly the runtime packages (libraries, CJK/emoji fonts, fontconfig for the font caches);
# scripts/check-runtime-libs.sh checks a binary against the same list.
COPY deploy/runtime-packages.txt /tmp/runtime-packages.txt
RUN export DEBIAN_FRONTEND=noninteractive \
 && apt-get update \
 && apt-get install -y --no-install-recommends $(sed 's/#.*//' /tmp/runtime-packages.txt | tr -s ' \t\n' ' ') \
 && rm -rf /var/lib/apt/lists/* /tmp/runtime-packages.txt \
 && rm -f /usr/share/fonts/opentype/noto/NotoSerifCJK-*.ttc \
 && fc-cache -f
COPY --from=build /staging/usr/local /usr/local
# (The serif CJK fonts, 52 MB, are never drawn: removed above, with the font cache made again.)
# A fontconfig cache for the bundled fonts too (the system fonts' was made by fontconfig's
# install trigger), in /var/cache/fontconfig where FontLibrary looks.
RUN fc-cache /usr/local/share/lyricposter/fonts \
 && groupadd --gid 10001 lyricposter \
 && useradd --uid 10001 --gid 10001 --no-log-init --create-home --home-dir /home/lyricposter \
        --shell /usr/sbin/nologin lyricposter \
 && mkdir -p /data /cache \
 && chown 10001:10001 /data \
 && chmod 1777 /cache
# Backdrop and fontconfig caches in /cache, writable by any uid (`--user`), so a volume mounted
# there starts with those permissions too and keeps the caches between runs.
# The bundled fonts are found beside the binary (/usr/local/share/lyricposter/fonts).
ENV XDG_CACHE_HOME=/cache
WORKDIR /data
USER 10001:10001
ENTRYPOINT ["lyricposter"]
CMD ["--help"]
