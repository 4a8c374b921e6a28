#!/usr/bin/python3
"""Write samples/harbour-bells/harbour-bells.mp3: a 32-second tune of sine bells (ffmpeg) with its
lyrics (our words) and cover embedded the way taggers write them (Debian's python3-mutagen):
ID3v2.4 TIT2/TPE1/TALB, USLT holding LRC, and an APIC front cover (river-lights' cover,
shrunk to 600x600 JPEG by ffmpeg).

    /usr/bin/python3 samples/make-audio.py

The file is committed; run this again only to change it.
"""

import os
import subprocess
import tempfile

from mutagen.id3 import APIC, ID3, TALB, TIT2, TPE1, USLT, Encoding

HERE = os.path.dirname(os.path.abspath(__file__))
OUT = os.path.join(HERE, "harbour-bells", "harbour-bells.mp3")

LYRICS = """[ti:Harbour Bells]
[ar:The Sample Quay]
[al:Made for LyricPoster]
[00:02.00]Bells across the harbour
[00:06.00]Ring the boats back home
[00:10.00]Ropes are coiled and waiting
[00:14.00]Lamps along the stone
[00:18.00]
[00:22.00]Bells across the harbour
[00:26.00]Sing us safe and slow
"""

# A bell every half second over four chords: C, A minor, F, G (Hz of the notes).
CHORDS = [(523.25, 659.25, 783.99), (440.0, 523.25, 659.25), (349.23, 440.0, 523.25), (392.0, 493.88, 587.33)]


def main():
    with tempfile.TemporaryDirectory() as tmp:
        inputs, filters = [], []
        for i in range(64):
            note = CHORDS[(i // 16) % 4][i % 3]
            inputs += ["-f", "lavfi", "-i", f"sine=frequency={note}:duration=0.5:sample_rate=22050"]
        # Each bell decays; then all play one after another.
        for i in range(64):
            filters.append(f"[{i}:a]afade=t=out:st=0.05:d=0.45[b{i}]")
        filters.append("".join(f"[b{i}]" for i in range(64)) + "concat=n=64:v=0:a=1[tune]")
        wav = os.path.join(tmp, "tune.wav")
        subprocess.run(["ffmpeg", "-v", "error", "-y", *inputs, "-filter_complex", ";".join(filters), "-map", "[tune]",
                        "-ac", "1", wav], check=True)
        cover = os.path.join(tmp, "cover.jpg")
        subprocess.run(["ffmpeg", "-v", "error", "-y", "-i", os.path.join(HERE, "river-lights", "cover.png"),
                        "-vf", "scale=600:600", "-q:v", "4", cover], check=True)
        subprocess.run(["ffmpeg", "-v", "error", "-y", "-i", wav, "-c:a", "libmp3lame", "-b:a", "32k",
                        "-map_metadata", "-1", "-fflags", "+bitexact", "-flags:a", "+bitexact", OUT], check=True)
        tags = ID3()
        tags.add(TIT2(encoding=Encoding.UTF8, text="Harbour Bells"))
        tags.add(TPE1(encoding=Encoding.UTF8, text="The Sample Quay"))
        tags.add(TALB(encoding=Encoding.UTF8, text="Made for LyricPoster"))
        tags.add(USLT(encoding=Encoding.UTF8, lang="eng", desc="", text=LYRICS))
        tags.add(APIC(encoding=Encoding.UTF8, mime="image/jpeg", type=3, desc="", data=open(cover, "rb").read()))
        tags.save(OUT, v2_version=4)
    print(OUT, os.path.getsize(OUT), "bytes")


if __name__ == "__main__":
    main()
