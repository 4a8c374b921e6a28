#!/usr/bin/python3
"""Generate the audio fixtures for the tag reader in a folder (default: .build/audio-fixtures).

    /usr/bin/python3 Tests/Fixtures/make-audio.py [OUT_DIR]

Needs ffmpeg and Debian's python3-mutagen (hence /usr/bin/python3). Every track is a short sine
tone written by ffmpeg; tags are then written by mutagen exactly as taggers do. Output is
deterministic (no encoder version strings or dates are written). Prints the folder.

Files (all 3 s unless said):
  tagged.mp3        ID3v2.4: TIT2/TPE1/TALB, USLT (LRC), SYLT (ms), APIC back cover then front cover
  txxx.mp3          ffmpeg -metadata lyrics=…: a TXXX:lyrics frame, no USLT
  plain.mp3         USLT with unsynchronised plain text only
  sylt-disagree.mp3 SYLT spanning 0–2 s, USLT LRC spanning 0–60 s (they disagree: USLT is used)
  tagged.flac       Vorbis comments TITLE/ARTIST/ALBUM/LYRICS, a FLAC PICTURE block (front cover)
  tagged.ogg        Vorbis: LYRICS, METADATA_BLOCK_PICTURE
  tagged.opus       Opus: UNSYNCEDLYRICS, METADATA_BLOCK_PICTURE
  tagged.m4a        AAC in MP4: ©nam/©ART/©alb, ©lyr, covr (PNG)
  bare.mp3          no tags at all
  truncated.mp3     the first 3000 bytes of tagged.mp3
  lying-size.mp3    tagged.mp3 with the USLT frame's size field set to 0x0FFFFFFF
  huge-apic.mp3     an ID3v2.3 tag whose APIC frame declares 200 MB, then a short tone
  text-picture.mp3  APIC whose data is plain text
  not-audio.mp3     plain text named .mp3
"""

import base64
import os
import struct
import subprocess
import sys
import zlib

from mutagen.flac import FLAC, Picture
from mutagen.id3 import APIC, ID3, SYLT, TALB, TIT2, TPE1, USLT, Encoding
from mutagen.mp4 import MP4, MP4Cover
from mutagen.oggopus import OggOpus
from mutagen.oggvorbis import OggVorbis

OUT = sys.argv[1] if len(sys.argv) > 1 else os.path.join(".build", "audio-fixtures")

LRC = "[ti:Fixture Song]\n[00:00.50]First fixture line\n[00:01.50]Second fixture line\n[00:02.50]Third fixture line\n"
SYLT_LINES = [("First synced line", 400), ("Second synced line", 1400), ("Third synced line", 2400)]


def png(w, h, rgb):
    """A solid-colour RGB PNG."""
    def chunk(kind, data):
        return struct.pack(">I", len(data)) + kind + data + struct.pack(">I", zlib.crc32(kind + data) & 0xFFFFFFFF)
    raw = b"".join(b"\x00" + bytes(rgb) * w for _ in range(h))
    return (b"\x89PNG\r\n\x1a\n" + chunk(b"IHDR", struct.pack(">IIBBBBB", w, h, 8, 2, 0, 0, 0))
            + chunk(b"IDAT", zlib.compress(raw, 9)) + chunk(b"IEND", b""))


FRONT = png(64, 64, (200, 40, 40))     # red: the front cover
BACK = png(64, 64, (40, 40, 200))      # blue: a back cover, never the poster's cover


def tone(path, seconds=3, extra=()):
    codec = {
        ".mp3": ["-c:a", "libmp3lame", "-b:a", "64k"],
        ".flac": ["-c:a", "flac"],
        ".ogg": ["-c:a", "libvorbis", "-q:a", "1"],
        ".opus": ["-c:a", "libopus", "-b:a", "32k", "-ar", "48000"],
        ".m4a": ["-c:a", "aac", "-b:a", "64k"],
    }[os.path.splitext(path)[1]]
    subprocess.run(["ffmpeg", "-v", "error", "-y", "-f", "lavfi", "-i", f"sine=frequency=440:duration={seconds}",
                    "-ac", "1", "-ar", "44100", *codec, "-map_metadata", "-1", "-fflags", "+bitexact",
                    "-flags:a", "+bitexact", *extra, path], check=True)


def flac_picture(data, kind=3, mime="image/png"):
    picture = Picture()
    picture.type = kind
    picture.mime = mime
    picture.width = picture.height = 64
    picture.depth = 24
    picture.data = data
    return picture


def main():
    os.makedirs(OUT, exist_ok=True)
    p = lambda name: os.path.join(OUT, name)

    tone(p("tagged.mp3"))
    tags = ID3()
    tags.add(TIT2(encoding=Encoding.UTF8, text="Fixture Song"))
    tags.add(TPE1(encoding=Encoding.UTF8, text="Fixture Band"))
    tags.add(TALB(encoding=Encoding.UTF8, text="Fixture Album"))
    tags.add(USLT(encoding=Encoding.UTF8, lang="eng", desc="", text=LRC))
    tags.add(SYLT(encoding=Encoding.UTF8, lang="eng", format=2, type=1, desc="", text=SYLT_LINES))
    tags.add(APIC(encoding=Encoding.UTF8, mime="image/png", type=4, desc="back", data=BACK))
    tags.add(APIC(encoding=Encoding.UTF8, mime="image/png", type=3, desc="front", data=FRONT))
    tags.save(p("tagged.mp3"), v2_version=4)

    tone(p("txxx.mp3"), extra=["-metadata", "lyrics=" + LRC, "-id3v2_version", "3"])

    tone(p("plain.mp3"))
    tags = ID3()
    tags.add(USLT(encoding=Encoding.UTF8, lang="eng", desc="", text="A plain line\nAnother plain line\n"))
    tags.save(p("plain.mp3"))

    tone(p("sylt-disagree.mp3"))
    tags = ID3()
    tags.add(USLT(encoding=Encoding.UTF8, lang="eng", desc="", text=LRC + "[01:00.00]A line a minute in\n"))
    tags.add(SYLT(encoding=Encoding.UTF8, lang="eng", format=2, type=1, desc="", text=[("Early", 0), ("Late", 2000)]))
    tags.save(p("sylt-disagree.mp3"))

    tone(p("tagged.flac"))
    audio = FLAC(p("tagged.flac"))
    audio["TITLE"], audio["ARTIST"], audio["ALBUM"], audio["LYRICS"] = "Fixture Song", "Fixture Band", "Fixture Album", LRC
    audio.add_picture(flac_picture(FRONT))
    audio.save()

    for name, key in (("tagged.ogg", "LYRICS"), ("tagged.opus", "UNSYNCEDLYRICS")):
        tone(p(name))
        audio = OggVorbis(p(name)) if name.endswith(".ogg") else OggOpus(p(name))
        audio["TITLE"], audio[key] = "Fixture Song", LRC
        audio["METADATA_BLOCK_PICTURE"] = [base64.b64encode(flac_picture(FRONT).write()).decode("ascii")]
        audio.save()

    tone(p("tagged.m4a"))
    audio = MP4(p("tagged.m4a"))
    audio["\xa9nam"], audio["\xa9ART"], audio["\xa9alb"] = "Fixture Song", "Fixture Band", "Fixture Album"
    audio["\xa9lyr"] = LRC
    audio["covr"] = [MP4Cover(FRONT, imageformat=MP4Cover.FORMAT_PNG)]
    audio.save()

    tone(p("bare.mp3"))

    data = open(p("tagged.mp3"), "rb").read()
    open(p("truncated.mp3"), "wb").write(data[:3000])
    at = data.find(b"USLT")
    lying = bytearray(data)
    lying[at + 4:at + 8] = bytes([0x7F, 0x7F, 0x7F, 0x7F])  # sync-safe 0x0FFFFFFF
    open(p("lying-size.mp3"), "wb").write(bytes(lying))

    # ID3v2.3 by hand: one APIC frame declaring 200 MB, holding 100 bytes, then the audio.
    tone(p("bare-tone.mp3"))
    audio = open(p("bare-tone.mp3"), "rb").read()
    frame = b"APIC" + struct.pack(">I", 200 * 1024 * 1024) + b"\x00\x00" + b"\x00image/png\x00\x03\x00" + FRONT[:100]
    size = len(frame)
    syncsafe = bytes([(size >> 21) & 0x7F, (size >> 14) & 0x7F, (size >> 7) & 0x7F, size & 0x7F])
    open(p("huge-apic.mp3"), "wb").write(b"ID3\x03\x00\x00" + syncsafe + frame + audio)
    os.remove(p("bare-tone.mp3"))

    tone(p("text-picture.mp3"))
    tags = ID3()
    tags.add(USLT(encoding=Encoding.UTF8, lang="eng", desc="", text=LRC))
    tags.add(APIC(encoding=Encoding.UTF8, mime="image/png", type=3, desc="", data=b"This is not a picture.\n" * 20))
    tags.save(p("text-picture.mp3"))

    open(p("not-audio.mp3"), "w").write("This is a text file with an .mp3 name.\n")
    print(OUT)


if __name__ == "__main__":
    main()
