#!/usr/bin/env python3
"""Generate the sample cover images for LyricPoster.

Everything here is procedural (gradients, circles, rectangles, noise) and
seeded, so running the script again produces the same pictures:

    python3 samples/make-covers.py            # writes all covers
    python3 samples/make-covers.py night-drive  # only one of them

Requires Pillow and NumPy (`pip install pillow numpy`).

Covers written:
    samples/night-drive/cover.jpg      1500x1500, dark neon night road, JPEG q90
    samples/paper-lanterns/cover.png   1200x1200, light paper with soft lanterns
    samples/all-scripts/cover.png      1000x1000, mid-tone saturated geometry
    samples/river-lights/cover.png     1200x1200, dusk river with lights and reflections
"""

import math
import os
import random
import sys

import numpy as np
from PIL import Image, ImageDraw, ImageFilter

HERE = os.path.dirname(os.path.abspath(__file__))


# ---------------------------------------------------------------- helpers ---

def hex_rgb(h):
    h = h.lstrip("#")
    return tuple(int(h[i:i + 2], 16) for i in (0, 2, 4))


def vertical_gradient(w, h, stops):
    """stops: list of (position 0..1, '#rrggbb'). Returns float32 HxWx3 in 0..1."""
    ys = np.linspace(0.0, 1.0, h, dtype=np.float32)
    pos = np.array([p for p, _ in stops], dtype=np.float32)
    cols = np.array([hex_rgb(c) for _, c in stops], dtype=np.float32) / 255.0
    out = np.empty((h, 3), dtype=np.float32)
    for ch in range(3):
        out[:, ch] = np.interp(ys, pos, cols[:, ch])
    return np.repeat(out[:, None, :], w, axis=1)


def linear_gradient(w, h, angle_deg, stops):
    """Gradient along a direction (0 deg = left to right, 90 deg = top to bottom)."""
    a = math.radians(angle_deg)
    yy, xx = np.mgrid[0:h, 0:w].astype(np.float32)
    t = (xx / (w - 1) - 0.5) * math.cos(a) + (yy / (h - 1) - 0.5) * math.sin(a)
    t = (t - t.min()) / (t.max() - t.min())
    pos = np.array([p for p, _ in stops], dtype=np.float32)
    cols = np.array([hex_rgb(c) for _, c in stops], dtype=np.float32) / 255.0
    out = np.empty((h, w, 3), dtype=np.float32)
    for ch in range(3):
        out[..., ch] = np.interp(t, pos, cols[:, ch])
    return out


def radial_mask(w, h, cx, cy, radius, power=2.0):
    """1 at (cx, cy) falling to 0 at `radius` (pixels)."""
    yy, xx = np.mgrid[0:h, 0:w].astype(np.float32)
    d = np.sqrt((xx - cx) ** 2 + (yy - cy) ** 2) / radius
    return np.clip(1.0 - d, 0.0, 1.0) ** power


def blend_color(base, mask, color, strength=1.0):
    """Mix `color` into float image `base` where `mask` (HxW, 0..1) is high."""
    c = np.array(hex_rgb(color), dtype=np.float32) / 255.0
    m = (mask * strength)[..., None]
    return base * (1.0 - m) + c * m


def screen_color(base, mask, color, strength=1.0):
    """Additive-ish 'screen' of a coloured light into base."""
    c = np.array(hex_rgb(color), dtype=np.float32) / 255.0
    m = (mask * strength)[..., None] * c
    return 1.0 - (1.0 - base) * (1.0 - m)


def to_image(arr):
    return Image.fromarray((np.clip(arr, 0.0, 1.0) * 255.0 + 0.5).astype(np.uint8), "RGB")


def to_float(img):
    return np.asarray(img.convert("RGB"), dtype=np.float32) / 255.0


def layer(w, h):
    return Image.new("RGBA", (w, h), (0, 0, 0, 0))


def composite(base_rgb, rgba):
    """Alpha-composite an RGBA Pillow layer over a float RGB array."""
    a = np.asarray(rgba, dtype=np.float32) / 255.0
    alpha = a[..., 3:4]
    return base_rgb * (1.0 - alpha) + a[..., :3] * alpha


def add_grain(arr, rng, amount):
    noise = rng.normal(0.0, amount, arr.shape[:2]).astype(np.float32)[..., None]
    return arr + noise


def vignette(arr, strength, power=2.2):
    h, w = arr.shape[:2]
    yy, xx = np.mgrid[0:h, 0:w].astype(np.float32)
    d = np.sqrt(((xx - w / 2) / (w / 2)) ** 2 + ((yy - h / 2) / (h / 2)) ** 2) / math.sqrt(2)
    return arr * (1.0 - strength * d[..., None] ** power)


def supersampled(w, h, draw_fn, ss=2):
    """Draw an RGBA layer at ss x resolution, then downsample (anti-aliasing)."""
    big = layer(w * ss, h * ss)
    draw_fn(ImageDraw.Draw(big), ss)
    return big.resize((w, h), Image.LANCZOS)


# ------------------------------------------------------------ night-drive ---

def night_drive(path):
    W = H = 1500
    rng = np.random.default_rng(20240601)
    rnd = random.Random(20240601)
    horizon = int(H * 0.60)

    # Sky: near-black indigo at the top, violet, then a magenta/amber band at the horizon.
    img = vertical_gradient(W, H, [
        (0.00, "#03030b"), (0.28, "#0b0a24"), (0.45, "#1d0f3a"),
        (0.56, "#4a1748"), (0.60, "#7a2450"),
        (0.601, "#0a0714"), (1.00, "#040309"),
    ])

    # Stars, denser and brighter near the top.
    stars = layer(W, H)
    d = ImageDraw.Draw(stars)
    for _ in range(420):
        x = rnd.uniform(0, W)
        y = horizon * 0.85 * (rnd.random() ** 1.7)
        r = rnd.choice([0.6, 0.8, 1.0, 1.0, 1.4, 2.0])
        a = int(255 * rnd.uniform(0.25, 0.9) * (1.0 - y / horizon))
        tint = rnd.choice([(255, 255, 255), (200, 220, 255), (255, 220, 240)])
        d.ellipse([x - r, y - r, x + r, y + r], fill=tint + (a,))
    img = composite(img, stars.filter(ImageFilter.GaussianBlur(0.6)))

    # Glow behind the sun, then a striped synthwave sun sinking behind the skyline.
    sun_cx, sun_cy, sun_r = W * 0.5, horizon - 150, 300
    img = screen_color(img, radial_mask(W, H, sun_cx, sun_cy, 900, 2.4), "#ff3d8b", 0.55)
    img = screen_color(img, radial_mask(W, H, sun_cx, sun_cy, 520, 1.6), "#ff9a3c", 0.35)

    sun_grad = vertical_gradient(W, H, [
        (0.0, "#ffe27a"), ((sun_cy - sun_r) / H, "#ffe27a"),
        ((sun_cy + sun_r * 0.1) / H, "#ff7a59"), ((sun_cy + sun_r) / H, "#d6246e"), (1.0, "#d6246e"),
    ])

    def draw_sun(dr, s):
        dr.ellipse([(sun_cx - sun_r) * s, (sun_cy - sun_r) * s,
                    (sun_cx + sun_r) * s, (sun_cy + sun_r) * s], fill=(255, 255, 255, 255))
        # Horizontal cuts that grow thicker towards the bottom.
        y = sun_cy - sun_r * 0.12
        gap = 4.0
        while y < horizon:
            dr.rectangle([0, y * s, W * s, (y + gap) * s], fill=(0, 0, 0, 0))
            y += gap + 22 - gap * 0.7
            gap += 2.6
        # nothing of the sun below the horizon
        dr.rectangle([0, horizon * s, W * s, H * s], fill=(0, 0, 0, 0))

    sun_mask = np.asarray(supersampled(W, H, draw_sun), dtype=np.float32)[..., 3] / 255.0
    img = img * (1 - sun_mask[..., None]) + sun_grad * sun_mask[..., None]

    # Two skyline layers: far (hazy violet) and near (almost black) with lit windows.
    def skyline(seed, base_y, min_h, max_h, colour, window_p, window_cols, avoid_centre):
        r = random.Random(seed)
        lay = layer(W, H)
        dr = ImageDraw.Draw(lay)
        x = -20
        while x < W:
            bw = r.randint(50, 130)
            bh = r.randint(min_h, max_h)
            centre = abs((x + bw / 2) - W / 2)
            if avoid_centre and centre < 230:
                bh = int(bh * 0.35)  # leave the sun visible through the middle
            top = base_y - bh
            dr.rectangle([x, top, x + bw, base_y], fill=colour)
            if r.random() < 0.3:  # antenna
                ax = x + r.randint(8, bw - 8)
                dr.rectangle([ax, top - r.randint(20, 60), ax + 3, top], fill=colour)
            for wy in range(int(top) + 10, base_y - 8, 14):
                for wx in range(x + 8, x + bw - 10, 12):
                    if r.random() < window_p:
                        c = r.choice(window_cols)
                        dr.rectangle([wx, wy, wx + 5, wy + 7], fill=c)
            x += bw + r.randint(-10, 6)
        return lay

    far = skyline(11, horizon, 120, 330, (38, 16, 60, 255), 0.10,
                  [(120, 80, 170, 255), (170, 90, 160, 255)], True)
    img = composite(img, far.filter(ImageFilter.GaussianBlur(1.2)))
    near = skyline(12, horizon + 2, 60, 230, (9, 6, 20, 255), 0.16,
                   [(255, 196, 110, 255), (110, 240, 255, 255), (255, 120, 200, 255),
                    (255, 230, 170, 255)], True)
    glow = near.filter(ImageFilter.GaussianBlur(6))
    img = composite(img, glow)
    img = composite(img, near)

    # Ground: perspective grid and a road with neon edges and dashed centre line.
    vx, vy = W / 2, horizon

    def draw_grid(dr, s):
        for i in range(-22, 23):
            x_bottom = W / 2 + i * 150
            dr.line([(vx * s, vy * s), (x_bottom * s, H * s)], fill=(255, 60, 170, 70), width=2 * s)
        for k in range(1, 30):
            t = (k / 30.0) ** 2.2
            y = vy + (H - vy) * t
            dr.line([(0, y * s), (W * s, y * s)], fill=(255, 60, 170, int(30 + 80 * t)), width=max(1, int(2 * s * (0.5 + t))))

    grid = supersampled(W, H, draw_grid)
    img = composite(img, grid.filter(ImageFilter.GaussianBlur(4)))
    img = composite(img, grid)

    def draw_road(dr, s):
        left, right = W / 2 - 520, W / 2 + 520
        dr.polygon([(vx * s, vy * s), (left * s, H * s), (right * s, H * s)], fill=(6, 5, 14, 235))
        dr.line([(vx * s, vy * s), (left * s, H * s)], fill=(80, 240, 255, 255), width=5 * s)
        dr.line([(vx * s, vy * s), (right * s, H * s)], fill=(255, 80, 200, 255), width=5 * s)
        # dashes: evenly spaced in perspective
        for k in range(0, 14):
            t0 = ((k + 0.0) / 14) ** 2.0
            t1 = ((k + 0.45) / 14) ** 2.0
            y0, y1 = vy + (H - vy) * t0, vy + (H - vy) * t1
            w0, w1 = 1 + 9 * t0, 1 + 9 * t1
            dr.polygon([((vx - w0) * s, y0 * s), ((vx + w0) * s, y0 * s),
                        ((vx + w1) * s, y1 * s), ((vx - w1) * s, y1 * s)], fill=(255, 225, 140, 230))

    road = supersampled(W, H, draw_road)
    img = composite(img, road.filter(ImageFilter.GaussianBlur(10)))
    img = composite(img, road)

    # Reflection of the sun on the road.
    refl = radial_mask(W, H, W / 2, horizon + 40, 380, 2.0)
    refl[:horizon] = 0
    img = screen_color(img, refl, "#ff5a8a", 0.35)

    # Horizon haze.
    yy = np.arange(H, dtype=np.float32)
    haze = np.exp(-((yy - horizon) / 26.0) ** 2)[:, None] * np.ones((1, W), np.float32)
    img = screen_color(img, haze, "#ff4f9a", 0.45)

    # Bokeh: soft out-of-focus city lights, mostly in the lower corners and top-left.
    bokeh = layer(W, H)
    dr = ImageDraw.Draw(bokeh)
    cols = [(80, 230, 255), (255, 80, 190), (255, 180, 80), (170, 120, 255)]
    for _ in range(40):
        sky = False
        if rnd.random() < 0.6:
            x = rnd.choice([rnd.uniform(-60, 420), rnd.uniform(W - 420, W + 60)])
            y = rnd.uniform(H * 0.62, H + 40)
        else:
            x = rnd.uniform(-60, W + 60)
            y = rnd.uniform(-40, H * 0.35)
            sky = True
        r = rnd.uniform(18, 85) * (0.7 if sky else 1.0)
        c = rnd.choice(cols)
        a = int(rnd.uniform(30, 95) * (0.6 if sky else 1.0))
        dr.ellipse([x - r, y - r, x + r, y + r], fill=c + (a,), outline=c + (min(255, a + 50),), width=3)
    img = composite(img, bokeh.filter(ImageFilter.GaussianBlur(5)))

    img = vignette(img, 0.55)
    img = add_grain(img, rng, 0.012)
    out = to_image(img)
    out.save(path, "JPEG", quality=90, optimize=True, progressive=False, subsampling="4:2:0")
    return out


# --------------------------------------------------------- paper-lanterns ---

def gaussian_blur_f(arr, sigma, axis):
    """Separable Gaussian blur of a float array along one axis (edges clamped)."""
    r = int(math.ceil(sigma * 3))
    k = np.exp(-0.5 * (np.arange(-r, r + 1, dtype=np.float32) / sigma) ** 2)
    k /= k.sum()
    pad = [(0, 0)] * arr.ndim
    pad[axis] = (r, r)
    p = np.pad(arr, pad, mode="edge")
    n = arr.shape[axis]
    out = np.zeros_like(arr)
    for i, w in enumerate(k):
        out += w * np.take(p, np.arange(i, i + n), axis=axis)
    return out


def blur_rgba(arr, radius):
    """Gaussian blur of a float HxWx4 straight-alpha array, done premultiplied
    (so transparent pixels do not darken the edges)."""
    if radius <= 0:
        return arr
    a = arr[..., 3:4]
    pre = np.concatenate([arr[..., :3] * a, a], axis=2)
    out = gaussian_blur_f(gaussian_blur_f(pre, radius, 0), radius, 1)
    alpha = out[..., 3:4]
    rgb = np.where(alpha > 1e-6, out[..., :3] / np.maximum(alpha, 1e-6), 0.0)
    return np.concatenate([np.clip(rgb, 0, 1), np.clip(alpha, 0, 1)], axis=2)


def over(base_rgb, rgba_f):
    """Composite a float straight-alpha RGBA array over a float RGB array."""
    a = rgba_f[..., 3:4]
    return base_rgb * (1.0 - a) + rgba_f[..., :3] * a


def lantern_layer(W, H, cx, cy, lw, lh, body_hex, blur, opacity):
    """One paper lantern as a float RGBA array: shaded body with curved ribs,
    dark caps, a tassel and a string to the top edge."""
    body = np.array(hex_rgb(body_hex), dtype=np.float32) / 255.0
    core = np.clip(body * 0.35 + 0.68, 0, 1)          # candle-lit centre
    edge = body * np.array([0.98, 0.74, 0.62], np.float32)  # warmer, darker rim
    pad = int(max(lw, lh) * 0.9 + blur * 3)
    x0, x1 = max(0, int(cx - pad)), min(W, int(cx + pad))
    y0, y1 = 0, min(H, int(cy + pad))                   # from the top: the string
    yy, xx = np.mgrid[y0:y1, x0:x1].astype(np.float32)
    u = (xx - cx) / (lw / 2)
    v = (yy - cy) / (lh / 2)
    d = np.sqrt(u * u + v * v)
    px = 2.0 / min(lw, lh)                              # one pixel in ellipse units
    inside = np.clip((1.0 - d) / px + 0.5, 0, 1)        # anti-aliased ellipse
    # shading: bright core fading to the rim, slightly lit from above
    t = np.clip(d, 0, 1) ** 1.6
    shade = core * (1 - t[..., None]) + edge * t[..., None]
    shade = shade * (1.0 - 0.06 * np.clip(v, 0, 1)[..., None])
    # ribs: latitude lines of a sphere, so they curve with the surface
    lat = v / np.sqrt(np.clip(1 - u * u, 0.05, 1))
    rib = np.abs(((lat + 1.0) * 5.0) % 1.0 - 0.5)       # 10 bands
    rib_line = np.clip(1.0 - (0.5 - rib) * (lh / 10) / 1.3, 0, 1) * (d < 0.97)
    shade = shade * (1.0 - 0.16 * rib_line[..., None])
    rgba = np.zeros(yy.shape + (4,), dtype=np.float32)
    rgba[..., :3] = shade
    rgba[..., 3] = inside

    # caps, tassel and string, drawn supersampled on a Pillow layer
    ss = 3
    lay = Image.new("RGBA", ((x1 - x0) * ss, (y1 - y0) * ss), (0, 0, 0, 0))
    dr = ImageDraw.Draw(lay)
    X = lambda x: (x - x0) * ss
    Y = lambda y: (y - y0) * ss
    top, bot = cy - lh / 2, cy + lh / 2
    cw, ch = lw * 0.46, max(8.0, lh * 0.075)
    dr.line([(X(cx), Y(0)), (X(cx), Y(top - ch * 0.5))], fill=(110, 80, 55, 150), width=2 * ss)
    dr.line([(X(cx), Y(bot + ch * 0.6)), (X(cx), Y(bot + lh * 0.24))], fill=(196, 72, 52, 230), width=3 * ss)
    dr.ellipse([X(cx - 5), Y(bot + lh * 0.24 - 2), X(cx + 5), Y(bot + lh * 0.24 + 10)], fill=(196, 72, 52, 230))
    for yc in (top, bot):
        dr.rounded_rectangle([X(cx - cw / 2), Y(yc - ch / 2), X(cx + cw / 2), Y(yc + ch / 2)],
                             radius=3 * ss, fill=(112, 62, 44, 240))
    lay = lay.resize((x1 - x0, y1 - y0), Image.LANCZOS)
    deco = np.asarray(lay, dtype=np.float32) / 255.0
    a = deco[..., 3:4]
    out_a = a + rgba[..., 3:4] * (1 - a)
    out_rgb = (deco[..., :3] * a + rgba[..., :3] * rgba[..., 3:4] * (1 - a)) / np.maximum(out_a, 1e-6)
    rgba = np.concatenate([out_rgb, out_a], axis=2)

    rgba = blur_rgba(rgba, blur)
    rgba[..., 3] *= opacity
    full = np.zeros((H, W, 4), dtype=np.float32)
    full[y0:y1, x0:x1] = rgba
    return full


def paper_lanterns(path):
    W = H = 1200
    rng = np.random.default_rng(8128)
    rnd = random.Random(8128)

    # Warm paper: cream at the top, slightly deeper beige at the bottom, brighter centre.
    img = vertical_gradient(W, H, [(0.0, "#fbf6ec"), (0.55, "#f6ecda"), (1.0, "#efdfc4")])
    img = screen_color(img, radial_mask(W, H, W * 0.45, H * 0.38, 900, 1.5), "#fffaf0", 0.55)

    # Low-frequency blotches (uneven paper tone).
    blot = rng.normal(0, 1, (H // 40, W // 40)).astype(np.float32)
    blot_img = Image.fromarray(((blot - blot.min()) / (blot.max() - blot.min()) * 255).astype(np.uint8))
    blot_img = blot_img.resize((W, H), Image.BICUBIC).filter(ImageFilter.GaussianBlur(30))
    blot_f = np.asarray(blot_img, dtype=np.float32)[..., None] / 255.0
    img = img * (0.975 + 0.035 * blot_f)

    # Paper fibres: short, faint, softly blurred strokes.
    fib = layer(W, H)
    dr = ImageDraw.Draw(fib)
    for _ in range(1500):
        x, y = rnd.uniform(0, W), rnd.uniform(0, H)
        ang = rnd.uniform(0, math.pi)
        ln = rnd.uniform(4, 20)
        if rnd.random() < 0.5:
            c = (160, 130, 90, rnd.randint(6, 16))
        else:
            c = (255, 255, 250, rnd.randint(25, 60))
        dr.line([(x, y), (x + ln * math.cos(ang), y + ln * math.sin(ang))], fill=c, width=1)
    img = composite(img, fib.filter(ImageFilter.GaussianBlur(0.8)))

    # A faint river at the bottom: a few pale grey-blue wavy lines.
    def draw_river(dr, s):
        for k in range(6):
            y0 = H * 0.82 + k * 34
            pts = []
            for xi in range(-10, W + 20, 8):
                y = y0 + 7 * math.sin(xi / 85.0 + k * 1.7)
                pts.append((xi * s, y * s))
            dr.line(pts, fill=(150, 170, 185, 28 + 6 * k), width=2 * s)

    img = composite(img, supersampled(W, H, draw_river).filter(ImageFilter.GaussianBlur(1.2)))

    # Far, blurred lanterns first, sharp near ones last.
    # (cx, cy, width, height, body colour, blur radius, opacity)
    lanterns = [
        (980, 960, 80, 100, "#f5c590", 12.0, 0.30),
        (600, 930, 90, 115, "#efa07f", 10.0, 0.32),
        (130, 760, 120, 150, "#f5c48c", 8.0, 0.42),
        (1060, 620, 110, 140, "#f0a07c", 7.0, 0.45),
        (420, 650, 150, 190, "#f6b488", 5.0, 0.55),
        (560, 190, 130, 165, "#f4c27e", 4.0, 0.62),
        (770, 700, 170, 215, "#f3c98e", 2.5, 0.70),
        (250, 300, 190, 240, "#f2a27a", 0.8, 0.88),
        (890, 330, 220, 275, "#ee8e6c", 0.8, 0.85),
    ]
    for (cx, cy, lw, lh, col, blur, op) in lanterns:
        img = screen_color(img, radial_mask(W, H, cx, cy, max(lw, lh) * 1.3, 2.2), "#ffc890", 0.45 * op)
        img = over(img, lantern_layer(W, H, cx, cy, lw, lh, col, blur, op))

    # Floating soft dots (paper confetti / bokeh), warm and very pale.
    dots = layer(W, H)
    dr = ImageDraw.Draw(dots)
    for _ in range(36):
        x, y = rnd.uniform(0, W), rnd.uniform(0, H)
        r = rnd.uniform(6, 28)
        c = rnd.choice([(255, 210, 160), (250, 190, 150), (255, 235, 200)])
        dr.ellipse([x - r, y - r, x + r, y + r], fill=c + (rnd.randint(25, 60),))
    dots_f = np.asarray(dots, dtype=np.float32) / 255.0
    img = over(img, blur_rgba(dots_f, 6))

    img = add_grain(img, rng, 0.008)
    out = to_image(img)
    out.save(path, "PNG", optimize=True)
    return out


# ------------------------------------------------------------ all-scripts ---

def all_scripts(path):
    W = H = 1000
    rng = np.random.default_rng(4242)
    rnd = random.Random(4242)

    # Saturated, mid-tone diagonal gradient: teal -> blue-violet -> magenta -> coral.
    img = linear_gradient(W, H, 35, [(0.0, "#138a8f"), (0.35, "#3a5cb0"), (0.7, "#9a3c9c"), (1.0, "#d0584f")])
    img = screen_color(img, radial_mask(W, H, W * 0.75, H * 0.25, 700, 2.0), "#f0a040", 0.30)

    # Each shape gets its own anti-aliased layer so overlaps blend instead of replacing.
    def shape(draw_fn):
        return supersampled(W, H, lambda dr, s: draw_fn(dr, s))

    # A band of faint diagonal stripes running corner to corner.
    def stripes(dr, s):
        for x in range(560, 1180, 40):
            dr.line([(x * s, 0), ((x - W) * s, H * s)], fill=(255, 255, 255, 20), width=8 * s)
    img = composite(img, shape(stripes))

    # Big translucent circles.
    for (cx, cy, r, c, a) in [
        (240, 260, 230, (30, 200, 190), 90),
        (760, 720, 300, (240, 80, 150), 90),
        (200, 800, 170, (80, 110, 240), 100),
        (640, 200, 140, (255, 176, 50), 150),
    ]:
        img = composite(img, shape(lambda dr, s, cx=cx, cy=cy, r=r, c=c, a=a: dr.ellipse(
            [(cx - r) * s, (cy - r) * s, (cx + r) * s, (cy + r) * s], fill=c + (a,))))

    # Concentric rings around the amber circle.
    def rings(dr, s):
        for k in range(6):
            r = 170 + k * 55
            dr.ellipse([(640 - r) * s, (200 - r) * s, (640 + r) * s, (200 + r) * s],
                       outline=(255, 255, 255, 46 - k * 6), width=3 * s)
    img = composite(img, shape(rings))

    # Triangles.
    for _ in range(6):
        cx, cy = rnd.uniform(60, W - 60), rnd.uniform(60, H - 60)
        r = rnd.uniform(40, 120)
        rot = rnd.uniform(0, 2 * math.pi)
        c = rnd.choice([(255, 220, 90), (60, 220, 200), (240, 100, 160), (120, 140, 255)])
        a = rnd.randint(90, 150)
        pts = [(cx + r * math.cos(rot + i * 2 * math.pi / 3), cy + r * math.sin(rot + i * 2 * math.pi / 3))
               for i in range(3)]
        img = composite(img, shape(lambda dr, s, pts=pts, c=c, a=a: dr.polygon(
            [(x * s, y * s) for x, y in pts], fill=c + (a,))))

    # Small bokeh dots.
    dots = layer(W, H)
    dr = ImageDraw.Draw(dots)
    for _ in range(30):
        x, y, r = rnd.uniform(0, W), rnd.uniform(0, H), rnd.uniform(4, 22)
        dr.ellipse([x - r, y - r, x + r, y + r], fill=(255, 240, 220, rnd.randint(20, 60)))
    img = over(img, blur_rgba(np.asarray(dots, dtype=np.float32) / 255.0, 4))

    img = vignette(img, 0.25)
    img = add_grain(img, rng, 0.01)
    out = to_image(img)
    out.save(path, "PNG", optimize=True)
    return out


def river_lights(path):
    """Dusk river: deep blue sky over dark water, warm lights on the far bank and their long
    wavering reflections, a faint mist band (1200x1200 PNG, mid-dark)."""
    W = H = 1200
    rng = random.Random(1107)
    nrng = np.random.default_rng(1107)
    arr = vertical_gradient(W, H, [(0.0, "#101a3a"), (0.45, "#2b3f73"), (0.52, "#1a2547"), (1.0, "#070b1c")])
    horizon = int(H * 0.5)
    # Far bank: a dark band with a soft top edge.
    bank = np.zeros((H, W), dtype=np.float32)
    bank[horizon - 40:horizon + 6, :] = 1.0
    arr = blend_color(arr, bank, "#0b1028", 0.85)
    lights = layer(W, H)
    draw = ImageDraw.Draw(lights)
    colours = ["#ffb347", "#ffd27f", "#ff8c5a", "#ffe6a8"]
    spots = []
    for _ in range(26):
        x = rng.uniform(30, W - 30)
        y = horizon - rng.uniform(8, 34)
        r = rng.uniform(4, 11)
        c = rng.choice(colours)
        spots.append((x, y, r, c))
        draw.ellipse([x - r, y - r, x + r, y + r], fill=hex_rgb(c) + (255,))
    glow = blur_rgba(np.asarray(lights, dtype=np.float32) / 255.0, 14)
    arr = over(arr, glow)
    arr = over(arr, np.asarray(lights, dtype=np.float32) / 255.0)
    # Reflections: broken vertical streaks under each light, wider and fainter further down.
    refl = layer(W, H)
    draw = ImageDraw.Draw(refl)
    for x, y, r, c in spots:
        yy = horizon + 8
        while yy < H:
            w = r * (0.6 + (yy - horizon) / H * 2.2) * rng.uniform(0.6, 1.4)
            h = rng.uniform(3, 9)
            a = int(200 * max(0.0, 1 - (yy - horizon) / (H - horizon)) * rng.uniform(0.4, 1.0))
            dx = rng.uniform(-4, 4)
            draw.rectangle([x + dx - w, yy, x + dx + w, yy + h], fill=hex_rgb(c) + (a,))
            yy += h + rng.uniform(2, 10)
    arr = over(arr, blur_rgba(np.asarray(refl, dtype=np.float32) / 255.0, 2))
    # Mist over the water line.
    mist = np.zeros((H, W), dtype=np.float32)
    for yy in range(horizon - 20, horizon + 90):
        mist[yy, :] = math.exp(-((yy - horizon - 30) / 45.0) ** 2)
    arr = screen_color(arr, mist, "#5a6fa8", 0.35)
    arr = vignette(arr, 0.35)
    arr = add_grain(arr, nrng, 0.012)
    out = to_image(arr)
    out.save(path, "PNG", optimize=True)
    return out


COVERS = {
    "night-drive": ("night-drive/cover.jpg", night_drive),
    "paper-lanterns": ("paper-lanterns/cover.png", paper_lanterns),
    "all-scripts": ("all-scripts/cover.png", all_scripts),
    "river-lights": ("river-lights/cover.png", river_lights),
}


def luminance(img):
    a = np.asarray(img.convert("RGB"), dtype=np.float32)
    return float((0.2126 * a[..., 0] + 0.7152 * a[..., 1] + 0.0722 * a[..., 2]).mean())


def main(argv):
    names = argv[1:] or list(COVERS)
    for name in names:
        rel, fn = COVERS[name]
        path = os.path.join(HERE, rel)
        os.makedirs(os.path.dirname(path), exist_ok=True)
        img = fn(path)
        print(f"{rel}: {img.size[0]}x{img.size[1]}, mean luminance {luminance(img):.1f}, "
              f"{os.path.getsize(path)} bytes")


if __name__ == "__main__":
    main(sys.argv)
