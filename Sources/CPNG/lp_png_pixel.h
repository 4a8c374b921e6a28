#ifndef LP_PNG_PIXEL_H
#define LP_PNG_PIXEL_H
// One straight-alpha pixel as cairo's premultiplied native-endian ARGB32, rounded to nearest:
// the one formula both PNG readers (lp_png.c through libpng, lp_png_fast.c without it) use, so
// that they give the same bytes.
#include <stdint.h>
#include <string.h>

static inline void lp_store_premultiplied(uint32_t r, uint32_t g, uint32_t b, uint32_t a, uint8_t *out) {
    if (a != 255) {
        r = (r * a + 127) / 255;
        g = (g * a + 127) / 255;
        b = (b * a + 127) / 255;
    }
    uint32_t argb = (a << 24) | (r << 16) | (g << 8) | b;
    memcpy(out, &argb, 4);
}

#endif
