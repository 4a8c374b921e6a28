#!/usr/bin/env python3
"""Generate the small image-decoder fixtures in Tests/Fixtures/covers/.

    python3 Tests/Fixtures/make-fixtures.py          # write every fixture, then verify
    python3 Tests/Fixtures/make-fixtures.py --check  # only verify the committed files

Requires Pillow (`pip install pillow`). NumPy is not needed.

Every good fixture shows, once decoded (and, for the EXIF ones, once the EXIF
orientation is applied), a 64x48 image split into four 32x24 quadrants:

    top-left  red   (255,0,0)      top-right    green (0,255,0)
    bottom-left blue (0,0,255)     bottom-right white (255,255,255)

Grey images use the levels 0 / 85 / 170 / 255 in the same quadrant order.
See covers/README.md for the per-file table.

PNG files are written by the small encoder below (not by Pillow), so that the
colour type, bit depth, filters and interlacing are exactly what the file name
says. JPEG files are written by Pillow (libjpeg). Output is deterministic.
"""

import io
import os
import random
import struct
import sys
import zlib

from PIL import Image, ImageOps

HERE = os.path.dirname(os.path.abspath(__file__))
OUT = os.path.join(HERE, "covers")

W, H = 64, 48                      # displayed size of every good fixture
RED, GREEN, BLUE, WHITE = (255, 0, 0), (0, 255, 0), (0, 0, 255), (255, 255, 255)
QUAD_RGB = (RED, GREEN, BLUE, WHITE)          # TL, TR, BL, BR
QUAD_GREY = (0, 85, 170, 255)                 # TL, TR, BL, BR


def quadrant(x, y, w=W, h=H):
    """0 = top-left, 1 = top-right, 2 = bottom-left, 3 = bottom-right."""
    return (1 if x >= w // 2 else 0) + (2 if y >= h // 2 else 0)


def pattern(values, w=W, h=H):
    """Rows of pixels (tuples or ints) with values[quadrant]."""
    return [[values[quadrant(x, y, w, h)] for x in range(w)] for y in range(h)]


# ------------------------------------------------------------ PNG encoder ---

def chunk(kind, data):
    body = kind + data
    return struct.pack(">I", len(data)) + body + struct.pack(">I", zlib.crc32(body) & 0xFFFFFFFF)


def paeth(a, b, c):
    p = a + b - c
    pa, pb, pc = abs(p - a), abs(p - b), abs(p - c)
    if pa <= pb and pa <= pc:
        return a
    return b if pb <= pc else c


def filter_row(ftype, row, prev, bpp):
    out = bytearray([ftype])
    for i, x in enumerate(row):
        a = row[i - bpp] if i >= bpp else 0
        b = prev[i] if prev is not None else 0
        c = prev[i - bpp] if (prev is not None and i >= bpp) else 0
        if ftype == 0:
            v = x
        elif ftype == 1:
            v = x - a
        elif ftype == 2:
            v = x - b
        elif ftype == 3:
            v = x - ((a + b) >> 1)
        else:
            v = x - paeth(a, b, c)
        out.append(v & 0xFF)
    return bytes(out)


def pack_row(pixels, channels, bit_depth):
    """pixels: list of ints (channels == 1) or tuples. Returns the raw scanline bytes."""
    if bit_depth < 8:
        out = bytearray()
        per_byte = 8 // bit_depth
        for i in range(0, len(pixels), per_byte):
            byte = 0
            group = pixels[i:i + per_byte]
            for j in range(per_byte):
                v = group[j] if j < len(group) else 0
                byte |= v << (8 - bit_depth * (j + 1))
            out.append(byte)
        return bytes(out)
    out = bytearray()
    for p in pixels:
        vals = (p,) if channels == 1 else p
        for v in vals:
            if bit_depth == 16:
                out += struct.pack(">H", v)
            else:
                out.append(v)
    return bytes(out)


ADAM7 = [(0, 0, 8, 8), (4, 0, 8, 8), (0, 4, 4, 8), (2, 0, 4, 4), (0, 2, 2, 4), (1, 0, 2, 2), (0, 1, 1, 2)]


def encode_png(rows, color_type, bit_depth, interlace=False, palette=None, trns=None):
    """rows: list of rows of pixel values. Filters cycle None/Sub/Up/Average/Paeth
    row by row so that a decoder has to implement all five."""
    h, w = len(rows), len(rows[0])
    channels = {0: 1, 2: 3, 3: 1, 4: 2, 6: 4}[color_type]
    bpp = max(1, channels * bit_depth // 8)

    def scanlines(sub_rows, counter):
        data = bytearray()
        prev = None
        for r in sub_rows:
            raw = pack_row(r, channels, bit_depth)
            data += filter_row(counter[0] % 5, raw, prev, bpp)
            counter[0] += 1
            prev = raw
        return data

    counter = [0]
    if interlace:
        raw = bytearray()
        for (x0, y0, dx, dy) in ADAM7:
            sub = [[rows[y][x] for x in range(x0, w, dx)] for y in range(y0, h, dy)]
            if sub and sub[0]:
                raw += scanlines(sub, counter)
    else:
        raw = scanlines(rows, counter)

    ihdr = struct.pack(">IIBBBBB", w, h, bit_depth, color_type, 0, 0, 1 if interlace else 0)
    png = b"\x89PNG\r\n\x1a\n" + chunk(b"IHDR", ihdr)
    if palette is not None:
        png += chunk(b"PLTE", b"".join(bytes(c) for c in palette))
    if trns is not None:
        png += chunk(b"tRNS", bytes(trns))
    png += chunk(b"IDAT", zlib.compress(bytes(raw), 9))
    png += chunk(b"IEND", b"")
    return png


# ----------------------------------------------------------------- writers ---

def write(name, data):
    with open(os.path.join(OUT, name), "wb") as f:
        f.write(data)


def jpeg_bytes(img, **kw):
    buf = io.BytesIO()
    img.save(buf, "JPEG", **kw)
    return buf.getvalue()


def rgb_image(w=W, h=H):
    img = Image.new("RGB", (w, h))
    img.putdata([QUAD_RGB[quadrant(x, y, w, h)] for y in range(h) for x in range(w)])
    return img


def make_png():
    rgb = pattern(QUAD_RGB)
    write("rgb8.png", encode_png(rgb, 2, 8))
    write("rgb16.png", encode_png(pattern(tuple(tuple(c * 257 for c in q) for q in QUAD_RGB)), 2, 16))
    # palette.png: 2-bit indices; palette-trns.png: 8-bit indices plus tRNS.
    pal = [RED, GREEN, BLUE, WHITE]
    write("palette.png", encode_png(pattern((0, 1, 2, 3)), 3, 2, palette=pal))
    write("palette-trns.png", encode_png(pattern((0, 1, 2, 3)), 3, 8, palette=pal, trns=[255, 255, 128, 0]))
    write("grey8.png", encode_png(pattern(QUAD_GREY), 0, 8))
    write("grey16.png", encode_png(pattern(tuple(g * 257 for g in QUAD_GREY)), 0, 16))
    write("grey-alpha.png", encode_png(pattern(((0, 255), (85, 255), (170, 128), (255, 0))), 4, 8))
    write("rgba8.png", encode_png(pattern(((255, 0, 0, 255), (0, 255, 0, 255), (0, 0, 255, 255),
                                           (255, 255, 255, 0))), 6, 8))
    write("interlaced.png", encode_png(rgb, 2, 8, interlace=True))


def exif_bytes(orientation):
    exif = Image.Exif()
    exif[0x0112] = orientation
    return exif.tobytes()


# Transpose that turns the displayed pattern into the stored pixels. Pillow's
# exif_transpose applies 3 -> ROTATE_180, 6 -> ROTATE_270, 8 -> ROTATE_90,
# so the stored image is the displayed one with the inverse operation applied.
STORE_FOR_ORIENTATION = {
    3: Image.Transpose.ROTATE_180,
    6: Image.Transpose.ROTATE_90,    # stored 48x64; display = rotate 90 deg clockwise
    8: Image.Transpose.ROTATE_270,   # stored 48x64; display = rotate 90 deg counter-clockwise
}


def make_jpeg():
    rgb = rgb_image()
    write("baseline.jpg", jpeg_bytes(rgb, quality=95))                                   # 4:2:0
    write("progressive.jpg", jpeg_bytes(rgb, quality=95, progressive=True))             # 4:2:0
    grey = Image.new("L", (W, H))
    grey.putdata([QUAD_GREY[quadrant(x, y)] for y in range(H) for x in range(W)])
    write("grey.jpg", jpeg_bytes(grey, quality=95))
    # CMYK in ink terms (0 = no ink): red = M+Y, green = C+Y, blue = C+M, white = none.
    cmyk = Image.new("CMYK", (W, H))
    inks = ((0, 255, 255, 0), (255, 0, 255, 0), (255, 255, 0, 0), (0, 0, 0, 0))
    cmyk.putdata([inks[quadrant(x, y)] for y in range(H) for x in range(W)])
    write("cmyk.jpg", jpeg_bytes(cmyk, quality=95, subsampling="4:4:4"))
    for o, op in STORE_FOR_ORIENTATION.items():
        stored = rgb.transpose(op)
        write(f"exif-orient-{o}.jpg", jpeg_bytes(stored, quality=95, subsampling="4:4:4", exif=exif_bytes(o)))


def make_bad():
    rgb8 = open(os.path.join(OUT, "rgb8.png"), "rb").read()
    write("truncated.png", rgb8[: len(rgb8) // 2])
    write("wrong-extension.jpg", rgb8)

    # A 256x192 baseline JPEG with some texture (so the scan is several KB), cut in half.
    big = rgb_image(256, 192)
    rnd = random.Random(1234)
    px = big.load()
    for y in range(192):
        for x in range(256):
            r, g, b = px[x, y]
            d = rnd.randint(-40, 0) if (x // 4 + y // 4) % 2 else rnd.randint(-10, 0)
            px[x, y] = (max(0, r + d), max(0, g + d), max(0, b + d))
    full = jpeg_bytes(big, quality=95)
    write("truncated.jpg", full[: len(full) // 2])

    write("not-an-image.png", b"This is not an image.\nIt is a plain text file named like a PNG,\n"
                              b"used to check that the decoder rejects it cleanly.\n")
    write("empty.png", b"")

    # bomb.png: a correct PNG header declaring 100000 x 100000 RGB 8-bit (30 GB decoded),
    # one IDAT holding the first scanline only (300001 zero bytes, deflated), then IEND.
    ihdr = struct.pack(">IIBBBBB", 100000, 100000, 8, 2, 0, 0, 0)
    bomb = (b"\x89PNG\r\n\x1a\n" + chunk(b"IHDR", ihdr)
            + chunk(b"IDAT", zlib.compress(b"\x00" * (1 + 100000 * 3), 9)) + chunk(b"IEND", b""))
    write("bomb.png", bomb)

    # bomb.jpg: a valid 16x16 baseline JPEG whose SOF0 is patched to say 60000 x 60000.
    tiny = bytearray(jpeg_bytes(Image.new("RGB", (16, 16), (200, 60, 60)), quality=50))
    sof = find_marker(tiny, 0xC0)
    struct.pack_into(">HH", tiny, sof + 5, 60000, 60000)   # FFC0 len(2) P(1) Y(2) X(2)
    write("bomb.jpg", bytes(tiny))

    # corrupt.jpg: baseline.jpg's headers (up to and including SOS) followed by random
    # entropy-coded bytes of the same length (no 0xFF, so no accidental markers) and EOI.
    base = open(os.path.join(OUT, "baseline.jpg"), "rb").read()
    sos = find_marker(base, 0xDA)
    sos_end = sos + 2 + struct.unpack(">H", base[sos + 2:sos + 4])[0]
    scan_len = len(base) - 2 - sos_end
    rnd = random.Random(99)
    garbage = bytes(rnd.randint(0, 0xFE) for _ in range(scan_len))
    write("corrupt.jpg", base[:sos_end] + garbage + b"\xff\xd9")


def make_webp():
    """WebP covers: lossless, lossy, with alpha, animated (the first frame is the pattern), and
    bad ones: truncated, and a header claiming 16383x16383 pixels (checked before decoding)."""
    rgb = rgb_image()
    def webp(img, **kw):
        buf = io.BytesIO()
        img.save(buf, "WEBP", **kw)
        return buf.getvalue()
    write("lossless.webp", webp(rgb, lossless=True))
    write("lossy.webp", webp(rgb, quality=95, method=6))
    rgba = Image.new("RGBA", (W, H))
    rgba.putdata([q for row in pattern(((255, 0, 0, 255), (0, 255, 0, 255), (0, 0, 255, 128), (255, 255, 255, 0)))
                  for q in row])
    write("alpha.webp", webp(rgba, lossless=True, exact=True))
    second = Image.new("RGB", (W, H), (0, 0, 0))
    write("animated.webp", webp(rgb, save_all=True, append_images=[second], duration=[100, 100], loop=0, lossless=True))
    full = webp(rgb, lossless=True)
    write("truncated.webp", full[: len(full) // 2])
    # VP8L: signature 0x2F, then width-1 and height-1 in 14 bits each, alpha bit, 3-bit version.
    bits = (16382) | (16382 << 14) | (0 << 28) | (0 << 29)
    vp8l = b"\x2f" + struct.pack("<I", bits) + bytes(64)
    chunk_data = b"VP8L" + struct.pack("<I", len(vp8l)) + vp8l
    write("bomb.webp", b"RIFF" + struct.pack("<I", 4 + len(chunk_data)) + b"WEBP" + chunk_data)


def find_marker(data, code):
    """Offset of the first FFxx marker with the given code, walking the segments."""
    i = 2
    while i < len(data):
        assert data[i] == 0xFF, f"not at a marker at {i}"
        m = data[i + 1]
        if m == code:
            return i
        seg_len = struct.unpack(">H", data[i + 2:i + 4])[0]
        i += 2 + seg_len
    raise ValueError(f"marker FF{code:02X} not found")


# ------------------------------------------------------------ verification ---

def sample_points(w, h):
    """Centre of each quadrant, in TL, TR, BL, BR order."""
    return [(w // 4, h // 4), (3 * w // 4, h // 4), (w // 4, 3 * h // 4), (3 * w // 4, 3 * h // 4)]


def close(a, b, tol):
    a = a if isinstance(a, tuple) else (a,)
    b = b if isinstance(b, tuple) else (b,)
    return len(a) == len(b) and all(abs(x - y) <= tol for x, y in zip(a, b))


def check_quadrants(name, img, expected, tol, stored_size=None):
    if stored_size is not None:
        assert img.size == stored_size, f"{name}: stored size {img.size} != {stored_size}"
    if name.startswith("exif"):
        img = ImageOps.exif_transpose(img)
    assert img.size == (W, H), f"{name}: displayed size {img.size}"
    got = [img.getpixel(p) for p in sample_points(*img.size)]
    for g, e in zip(got, expected):
        assert close(g, e, tol), f"{name}: got {got}, expected {expected}"
    # every pixel of each quadrant, away from the edges (JPEG ringing), within tol
    for y in range(H):
        for x in range(W):
            if min(abs(x - W // 2), abs(y - H // 2)) < 4:
                continue
            v = img.getpixel((x, y))
            e = expected[quadrant(x, y)]
            assert close(v, e, tol + 6), f"{name}: pixel {(x, y)} = {v}, expected {e}"
    return got


def verify():
    ok = []
    rgba = QUAD_RGB
    cases = [
        # name, expected Pillow mode, expected quadrant values, tolerance, stored size
        ("rgb8.png", "RGB", rgba, 0, (W, H)),
        ("rgb16.png", None, rgba, 0, (W, H)),
        ("palette.png", "P", rgba, 0, (W, H)),
        ("palette-trns.png", "P", ((255, 0, 0, 255), (0, 255, 0, 255), (0, 0, 255, 128),
                                   (255, 255, 255, 0)), 0, (W, H)),
        ("grey8.png", "L", QUAD_GREY, 0, (W, H)),
        ("grey16.png", None, QUAD_GREY, 0, (W, H)),
        ("grey-alpha.png", "LA", ((0, 255), (85, 255), (170, 128), (255, 0)), 0, (W, H)),
        ("rgba8.png", "RGBA", ((255, 0, 0, 255), (0, 255, 0, 255), (0, 0, 255, 255),
                               (255, 255, 255, 0)), 0, (W, H)),
        ("interlaced.png", "RGB", rgba, 0, (W, H)),
        ("baseline.jpg", "RGB", rgba, 6, (W, H)),
        ("progressive.jpg", "RGB", rgba, 6, (W, H)),
        ("grey.jpg", "L", QUAD_GREY, 4, (W, H)),
        ("cmyk.jpg", "CMYK", ((0, 255, 255, 0), (255, 0, 255, 0), (255, 255, 0, 0), (0, 0, 0, 0)), 6, (W, H)),
        ("exif-orient-3.jpg", "RGB", rgba, 6, (W, H)),
        ("exif-orient-6.jpg", "RGB", rgba, 6, (H, W)),
        ("exif-orient-8.jpg", "RGB", rgba, 6, (H, W)),
        ("wrong-extension.jpg", "RGB", rgba, 0, (W, H)),
        ("lossless.webp", "RGB", rgba, 0, (W, H)),
        ("lossy.webp", "RGB", rgba, 8, (W, H)),
        ("alpha.webp", "RGBA", ((255, 0, 0, 255), (0, 255, 0, 255), (0, 0, 255, 128), (255, 255, 255, 0)), 0, (W, H)),
        ("animated.webp", None, rgba, 0, (W, H)),
    ]
    for name, mode, expected, tol, size in cases:
        img = Image.open(os.path.join(OUT, name))
        img.load()
        fmt = img.format
        if mode is not None:
            assert img.mode == mode, f"{name}: mode {img.mode} != {mode}"
        if name == "rgb16.png":
            # Pillow has no 16-bit RGB mode: it reads it as 8-bit RGB. Check the raw samples too.
            img = img.convert("RGB")
        if name == "grey16.png":
            assert img.mode in ("I;16", "I;16B", "I"), img.mode
            got16 = [img.getpixel(p) for p in sample_points(W, H)]
            assert got16 == [g * 257 for g in QUAD_GREY], f"grey16: {got16}"
            g8 = Image.new("L", img.size)
            g8.putdata([img.getpixel((x, y)) // 257 for y in range(H) for x in range(W)])
            img = g8
        if name.startswith("palette"):
            img = img.convert("RGBA") if "trns" in name else img.convert("RGB")
        if name.startswith("exif"):
            o = img.getexif().get(0x0112)
            assert o == int(name[12]), f"{name}: orientation {o}"
        got = check_quadrants(name, img, expected, tol, size)
        ok.append(f"{name:20s} {fmt:5s} stored {size[0]}x{size[1]} -> {got}")

    # rgb16: confirm the file really holds 16-bit samples (IHDR) and the values round-trip.
    data = open(os.path.join(OUT, "rgb16.png"), "rb").read()
    assert data[24] == 16 and data[25] == 2, "rgb16.png IHDR bit depth / colour type"
    assert open(os.path.join(OUT, "interlaced.png"), "rb").read()[28] == 1, "interlace flag"
    assert Image.open(os.path.join(OUT, "progressive.jpg")).info.get("progressive") == 1
    assert Image.open(os.path.join(OUT, "baseline.jpg")).info.get("progressive") is None

    # CMYK: Pillow writes (and always reads) CMYK JPEGs with Adobe's inverted convention
    # (stored sample = 255 - ink). Decode once more without Pillow's inversion to see the
    # samples exactly as stored, i.e. as libjpeg / TurboJPEG (TJPF_CMYK) hand them out.
    raw = open(os.path.join(OUT, "cmyk.jpg"), "rb").read()
    app14 = find_marker(raw, 0xEE)
    seg = raw[app14:app14 + 2 + struct.unpack(">H", raw[app14 + 2:app14 + 4])[0]]
    assert seg[4:9] == b"Adobe", seg
    transform = seg[-1]
    stored = Image.open(io.BytesIO(raw))
    stored.tile = [t._replace(args=("CMYK", "")) for t in stored.tile]
    stored.load()
    stored_vals = [stored.getpixel(p) for p in sample_points(W, H)]
    inverted = all(close(s, tuple(255 - v for v in e), 6) for s, e in zip(
        stored_vals, ((0, 255, 255, 0), (255, 0, 255, 0), (255, 255, 0, 0), (0, 0, 0, 0))))
    assert inverted, f"cmyk stored samples {stored_vals}"
    ok.append(f"cmyk.jpg             Adobe APP14 transform={transform}; stored samples (inverted) {stored_vals}")

    # Bad files.
    Image.MAX_IMAGE_PIXELS = None      # only to read the bomb headers
    for name, size in (("bomb.png", (100000, 100000)), ("bomb.jpg", (60000, 60000))):
        path = os.path.join(OUT, name)
        img = Image.open(path)
        assert img.size == size, f"{name}: header says {img.size}"
        n = os.path.getsize(path)
        assert n < (1024 if name.endswith("png") else 2048), f"{name}: {n} bytes"
        ok.append(f"{name:20s} header {img.format} {img.mode} {img.size[0]}x{img.size[1]}, {n} bytes")
    Image.MAX_IMAGE_PIXELS = 89478485
    for name in ("truncated.png", "truncated.jpg", "corrupt.jpg", "not-an-image.png", "empty.png"):
        try:
            img = Image.open(os.path.join(OUT, name))
            img.load()
            ok.append(f"{name:20s} Pillow decoded it anyway: {img.format} {img.size} (see README)")
        except Exception as e:  # noqa: BLE001 - we only report what Pillow says
            ok.append(f"{name:20s} Pillow: {type(e).__name__}: {str(e).replace(OUT + os.sep, '')}")
    return ok


def main(argv):
    os.makedirs(OUT, exist_ok=True)
    if "--check" not in argv:
        make_png()
        make_jpeg()
        make_bad()
        make_webp()
    for line in verify():
        print(line)
    print("all fixtures verified")


if __name__ == "__main__":
    main(sys.argv)
