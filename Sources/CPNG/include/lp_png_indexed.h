#ifndef LP_PNG_INDEXED_H
#define LP_PNG_INDEXED_H
// Indexed (palette) PNGs for e-ink panels: one palette index a pixel in, a PNG of colour type 3
// out, through libpng behind setjmp like the rest of this target (see lp_png.h).
#include <stddef.h>
#include <stdint.h>

#include "lp_png.h"

/// Encodes `indices` (width * height bytes, row-major, one palette index a pixel) as a palette PNG
/// of `bit_depth` bits a pixel (1, 2, 4 or 8; pixels packed most significant bits first), its
/// PLTE the `colours` (1 to 1 << bit_depth) RGB triples of `palette_rgb`. Only IHDR, PLTE, IDAT
/// and IEND are written (no time, text or colour-space chunks), so the bytes depend on the input
/// alone.
///
/// Every index is checked before anything is written: one of `colours` or more is refused. On
/// success returns 0 with `*out` a malloc'd buffer of `*out_size` bytes that the caller frees with
/// lp_png_free_buffer; on failure returns -1 with `*out` NULL, `*out_size` 0 and `message` set.
int lp_png_write_indexed(const uint8_t *indices, uint32_t width, uint32_t height,
                         const uint8_t *palette_rgb, int colours, int bit_depth,
                         uint8_t **out, size_t *out_size, char message[LP_PNG_MESSAGE_SIZE]);

/// Frees a buffer lp_png_write_indexed returned (NULL is allowed).
void lp_png_free_buffer(uint8_t *buffer);

#endif
