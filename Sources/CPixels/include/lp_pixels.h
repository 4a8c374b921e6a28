#ifndef LP_PIXELS_H
#define LP_PIXELS_H
// Pixel loops that Swift spends too long in (bounds and overflow checks on every pixel): blurs,
// luminance, halving and area reduction of covers, row extremes, and ARGB32 to packed RGB(A).
// Pure functions of their inputs; no library behind them.
#include <stddef.h>
#include <stdint.h>

/// Converts native-endian ARGB32 pixels (cairo's layout, premultiplied) to 8-bit RGB (`opaque`
/// non-zero: the alpha byte is dropped) or straight RGBA, tightly packed, into `out`
/// (width * height * 3 or 4 bytes).
void lp_argb32_to_rgb(const uint8_t *pixels, uint32_t width, uint32_t height, size_t stride, int opaque,
                      uint8_t *out);

/// `passes` box blurs of `radius` (each horizontal, then vertical; a window clamped at the edges,
/// edge pixels repeating; each pixel the floor of its window's mean) over channels
/// [first_channel, end_channel) of 4-byte pixels, rows `stride` bytes apart. Scratch: `plane` and
/// `other` hold width × height bytes, `sums` width values.
void lp_box_blur(uint8_t *p, int width, int height, size_t stride, int radius, int first_channel, int end_channel,
                 int passes, uint8_t *plane, uint8_t *other, int32_t *sums);

/// The luminance (in 1/1024 steps) that a share `quantile` of the ARGB32 pixels in [x0, x1) ×
/// [y0, y1) do not exceed, each channel mapped to linear light by its 256-entry table.
double lp_luminance_quantile(const uint8_t *data, size_t stride, int x0, int x1, int y0, int y1,
                             const double *red, const double *green, const double *blue, double quantile);

/// Halves ARGB32 (or any 4-byte) pixels: each output pixel is the rounded mean of a 2×2 block,
/// channel by channel (means of premultiplied values stay premultiplied). Output is
/// (width / 2) × (height / 2); an odd last column or row is dropped.
void lp_halve_argb32(const uint8_t *src, size_t src_stride, int width, int height, uint8_t *dst, size_t dst_stride);

// Premultiplied ARGB32: for each row y0..<y1, the largest (`brightest`) or smallest straight
// (un-premultiplied, rounded like Bitmap.rgba) red, green and blue over the columns x0..<x1,
// written as three bytes per row to `out`. Empty column ranges give the neutral extreme.
void lp_row_extremes(const uint8_t *data, size_t stride, int x0, int x1, int y0, int y1, int brightest, uint8_t *out);

// Premultiplied ARGB32: the rectangle (sx, sy, sw, sh) of a width×height picture (in its pixels,
// fractional; pixels outside the picture repeat its edge) reduced to dw×dh by area averaging (each
// output pixel the mean of the source area it covers, edges weighted by the share they cover).
// Returns 0, or -1 when out of memory or given sizes it cannot take.
int lp_area_reduce_argb32(const uint8_t *src, size_t src_stride, int width, int height, double sx, double sy, double sw, double sh,
                          uint8_t *dst, size_t dst_stride, int dw, int dh);
// The same, each output pixel summed and rounded one channel at a time (what the SSE2 path is held
// to in the tests; the path used where SSE2 is not built).
int lp_area_reduce_argb32_scalar(const uint8_t *src, size_t src_stride, int width, int height, double sx, double sy, double sw,
                                 double sh, uint8_t *dst, size_t dst_stride, int dw, int dh);

#endif
