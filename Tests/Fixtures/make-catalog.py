#!/usr/bin/python3
"""A generated music catalogue for the catalogue tests (ffmpeg + Debian's python3-mutagen).

Usage: make-catalog.py OUT_DIR

OUT_DIR/library/        a music library, walked as a folder:
  Artist NN/Album NN/   10 songs per album, alternating
                          MP3 with ID3 USLT lyrics (LRC) and an APIC front cover,
                          FLAC with a sidecar .lrc and the album's cover.jpg,
                          Opus with Vorbis-comment LYRICS and the album's cover.jpg
  pairs/                cover + lyrics pairs sharing a stem (song-NN.png + song-NN.lrc)
  broken/               a corrupt cover, unsynchronised lyrics, a truncated MP3, and two
                        audio files with no lyrics at all (reported "no-lyrics")
OUT_DIR/manifest.jsonl  songs by id with paths relative to it (into library/), with title
                        overrides, an "at" poster, and broken lines (bad JSON, a missing file,
                        an unsafe id, no id)
OUT_DIR/expected.json   {"folder": {relative path: status}, "manifest": {id or line-N: status}}
Every lyric line is written here; the audio is a short sine tone, copied and re-tagged.
"""
import json
import os
import shutil
import struct
import subprocess
import sys
import zlib

from mutagen.flac import FLAC
from mutagen.id3 import APIC, ID3, TIT2, TPE1, USLT
from mutagen.oggopus import OggOpus

OUT = sys.argv[1]
WORDS = ["harbour", "lantern", "river", "signal", "window", "morning", "static", "velvet", "silver", "echo"]


def png(w, h, rgb, seed=0):
    """A small RGB PNG: a diagonal gradient over `rgb`, so covers differ."""
    def chunk(kind, data):
        return struct.pack(">I", len(data)) + kind + data + struct.pack(">I", zlib.crc32(kind + data) & 0xFFFFFFFF)
    rows = []
    for y in range(h):
        row = bytearray(b"\x00")
        for x in range(w):
            t = (x + y + seed) % 64
            row += bytes(min(255, c + t) for c in rgb)
        rows.append(bytes(row))
    return (b"\x89PNG\r\n\x1a\n" + chunk(b"IHDR", struct.pack(">IIBBBBB", w, h, 8, 2, 0, 0, 0))
            + chunk(b"IDAT", zlib.compress(b"".join(rows), 9)) + chunk(b"IEND", b""))


def lrc(n, title):
    lines = [f"[ti:{title}]"]
    for i in range(3):
        a, b = WORDS[(n + i) % 10], WORDS[(n * 3 + i) % 10]
        lines.append(f"[00:0{i}.50]The {a} and the {b}, line {i + 1}")
    lines.append("[00:04.00]")
    return "\n".join(lines) + "\n"


def tone(path, codec):
    subprocess.run(["ffmpeg", "-v", "error", "-y", "-f", "lavfi", "-i", "sine=frequency=330:duration=1",
                    "-ac", "1", *codec, "-map_metadata", "-1", "-fflags", "+bitexact", "-flags:a", "+bitexact", path],
                   check=True)


def main():
    if os.path.exists(OUT):
        shutil.rmtree(OUT)
    lib = os.path.join(OUT, "library")
    os.makedirs(lib)
    expected_folder, expected_manifest = {}, {}
    base = os.path.join(OUT, "base")
    os.makedirs(base)
    tones = {ext: os.path.join(base, "tone" + ext) for ext in (".mp3", ".flac", ".opus")}
    tone(tones[".mp3"], ["-c:a", "libmp3lame", "-b:a", "32k"])
    tone(tones[".flac"], ["-c:a", "flac"])
    tone(tones[".opus"], ["-c:a", "libopus", "-b:a", "16k", "-ar", "48000"])

    n = 0
    for artist in range(4):
        for album in range(4):
            folder = os.path.join(lib, f"Artist {artist:02d}", f"Album {album:02d}")
            os.makedirs(folder)
            with open(os.path.join(folder, "cover.jpg"), "wb") as f:
                # PNG bytes in cover.jpg: covers are recognised by their content, not their name.
                f.write(png(48, 48, (40 + artist * 40, 60, 90 + album * 30), seed=artist * 4 + album))
            for track in range(10):
                n += 1
                kind = track % 3
                title = f"Song {n:03d}"
                rel_folder = os.path.relpath(folder, lib)
                if kind == 0:
                    name = f"{track + 1:02d} {title}.mp3"
                    path = os.path.join(folder, name)
                    shutil.copy(tones[".mp3"], path)
                    tags = ID3()
                    tags.add(TIT2(encoding=3, text=title))
                    tags.add(TPE1(encoding=3, text=f"Artist {artist:02d}"))
                    tags.add(USLT(encoding=3, lang="eng", desc="", text=lrc(n, title)))
                    tags.add(APIC(encoding=3, mime="image/png", type=3, desc="front",
                                  data=png(40, 40, (150, 50 + track * 10, 60), seed=n)))
                    tags.save(path, v2_version=4)
                elif kind == 1:
                    name = f"{track + 1:02d} {title}.flac"
                    path = os.path.join(folder, name)
                    shutil.copy(tones[".flac"], path)
                    audio = FLAC(path)
                    audio["TITLE"] = title
                    audio.save()
                    with open(os.path.splitext(path)[0] + ".lrc", "w") as f:
                        f.write(lrc(n, title))
                else:
                    name = f"{track + 1:02d} {title}.opus"
                    path = os.path.join(folder, name)
                    shutil.copy(tones[".opus"], path)
                    audio = OggOpus(path)
                    audio["TITLE"] = title
                    audio["LYRICS"] = lrc(n, title)
                    audio.save()
                expected_folder[os.path.join(rel_folder, name)] = "rendered"

    pairs = os.path.join(lib, "pairs")
    os.makedirs(pairs)
    for i in range(40):
        with open(os.path.join(pairs, f"song-{i:02d}.png"), "wb") as f:
            f.write(png(48, 48, (90, 40 + i * 4, 120), seed=i))
        with open(os.path.join(pairs, f"song-{i:02d}.lrc"), "w") as f:
            f.write(lrc(200 + i, f"Pair {i:02d}"))
        expected_folder[f"pairs/song-{i:02d}.lrc"] = "rendered"

    broken = os.path.join(lib, "broken")
    os.makedirs(broken)
    with open(os.path.join(broken, "corrupt.png"), "wb") as f:
        f.write(b"this is not an image")
    with open(os.path.join(broken, "corrupt.lrc"), "w") as f:
        f.write(lrc(300, "Corrupt cover"))
    expected_folder["broken/corrupt.lrc"] = "failed"
    with open(os.path.join(broken, "plain.png"), "wb") as f:
        f.write(png(48, 48, (20, 20, 20)))
    with open(os.path.join(broken, "plain.lrc"), "w") as f:
        f.write("Words without any times\nOnly plain text here\n")
    expected_folder["broken/plain.lrc"] = "failed"
    data = open(tones[".mp3"], "rb").read()
    tagged = os.path.join(broken, "truncated.mp3")
    shutil.copy(tones[".mp3"], tagged)
    tags = ID3()
    tags.add(USLT(encoding=3, lang="eng", desc="", text=lrc(301, "Truncated")))
    tags.save(tagged, v2_version=4)
    with open(tagged, "rb") as f:
        head = f.read(60)
    with open(tagged, "wb") as f:
        f.write(head)
    expected_folder["broken/truncated.mp3"] = "failed"
    for name in ("silent-a.mp3", "silent-b.mp3"):
        shutil.copy(tones[".mp3"], os.path.join(broken, name))
        expected_folder["broken/" + name] = "no-lyrics"
    with open(os.path.join(broken, "cover.jpg"), "wb") as f:
        f.write(png(48, 48, (60, 60, 60)))

    # The manifest: 60 songs of the library by id, and broken lines.
    lines = []
    songs = sorted(k for k, v in expected_folder.items() if v == "rendered" and not k.startswith("pairs/"))
    for i, rel in enumerate(songs[:60]):
        entry = {"id": f"m-{i:04d}", "audio": "library/" + rel}
        if i % 5 == 0:
            entry["title"] = f"Manifest title {i}"
        if i % 7 == 0:
            entry["at"] = "0:02"
        lines.append(json.dumps(entry))
        expected_manifest[entry["id"]] = "rendered"
    for i in range(10):
        entry = {"id": f"p-{i:04d}", "cover": f"library/pairs/song-{i:02d}.png", "lyrics": f"library/pairs/song-{i:02d}.lrc"}
        lines.append(json.dumps(entry))
        expected_manifest[entry["id"]] = "rendered"
    lines.append('{"id": "bad-json", "audio": ')
    expected_manifest[f"line-{len(lines)}"] = "failed"
    lines.append(json.dumps({"id": "gone", "audio": "library/nowhere.mp3"}))
    expected_manifest["gone"] = "failed"
    lines.append(json.dumps({"id": "../escape", "audio": "library/" + songs[0]}))
    expected_manifest[f"line-{len(lines)}"] = "failed"
    lines.append(json.dumps({"audio": "library/" + songs[0]}))
    expected_manifest[f"line-{len(lines)}"] = "failed"
    with open(os.path.join(OUT, "manifest.jsonl"), "w") as f:
        f.write("\n".join(lines) + "\n")
    shutil.rmtree(base)
    with open(os.path.join(OUT, "expected.json"), "w") as f:
        json.dump({"folder": expected_folder, "manifest": expected_manifest}, f, indent=1, sort_keys=True)


main()
