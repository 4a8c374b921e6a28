// Per-pixel loops that Swift spends too long in (bounds and overflow checks on every pixel): the
// box blur and the luminance histogram. Same integer and floating-point steps as the Swift they
// replace, so results are bit-identical.
#include "lp_pixels.h"

#include <math.h>
#include <stdint.h>
#include <stdlib.h>
#include <string.h>
#if defined(__SSE2__)
#include <emmintrin.h>
#endif
#if defined(__x86_64__)
#include <cpuid.h>
#include <immintrin.h>
#endif

#pragma STDC FP_CONTRACT OFF

// The quotients sum / window for every sum a window of bytes can hold (0 ... 255 × window): an
// integer division per pixel was most of the blur's time. NULL when out of memory.
static uint8_t *window_means(int window) {
    size_t entries = (size_t)255 * (size_t)window + 1;
    uint8_t *mean = malloc(entries);
    if (mean == NULL) return NULL;
    uint8_t q = 0;
    size_t next = (size_t)window;
    for (size_t s = 0; s < entries; s++) {
        if (s == next) {
            q++;
            next += (size_t)window;
        }
        mean[s] = q;
    }
    return mean;
}

// One horizontal pass over a plane of bytes: each row's running sum over a window clamped at the
// row's ends (end bytes repeat), from `src` into `dst`.
static void blur_rows(const uint8_t *src, uint8_t *dst, int width, int height, int radius, const uint8_t *mean) {
    int window = 2 * radius + 1;
    for (int y = 0; y < height; y++) {
        const uint8_t *in = src + (size_t)y * (size_t)width;
        uint8_t *out = dst + (size_t)y * (size_t)width;
        long sum = 0;
        for (int k = -radius; k <= radius; k++) sum += in[k < 0 ? 0 : (k > width - 1 ? width - 1 : k)];
        for (int i = 0; i < width; i++) {
            out[i] = mean != NULL ? mean[sum] : (uint8_t)(sum / window);
            int leaving = i - radius < 0 ? 0 : i - radius;
            int entering = i + radius + 1 > width - 1 ? width - 1 : i + radius + 1;
            sum += (long)in[entering] - (long)in[leaving];
        }
    }
}

// One vertical pass over a plane of bytes, a row at a time: a running sum per column (`sums`,
// `width` of them) over a window clamped at the top and bottom, from `src` into `dst`. The same
// sums as walking each column, without striding down the plane.
static void blur_columns(const uint8_t *src, uint8_t *dst, int width, int height, int radius, const uint8_t *mean,
                         int32_t *sums) {
    int window = 2 * radius + 1;
    memset(sums, 0, sizeof(int32_t) * (size_t)width);
    for (int k = -radius; k <= radius; k++) {
        const uint8_t *row = src + (size_t)(k < 0 ? 0 : (k > height - 1 ? height - 1 : k)) * (size_t)width;
        for (int x = 0; x < width; x++) sums[x] += row[x];
    }
    for (int y = 0; y < height; y++) {
        uint8_t *out = dst + (size_t)y * (size_t)width;
        if (mean != NULL) {
            for (int x = 0; x < width; x++) out[x] = mean[sums[x]];
        } else {
            for (int x = 0; x < width; x++) out[x] = (uint8_t)(sums[x] / window);
        }
        const uint8_t *leaving = src + (size_t)(y - radius < 0 ? 0 : y - radius) * (size_t)width;
        const uint8_t *entering = src + (size_t)(y + radius + 1 > height - 1 ? height - 1 : y + radius + 1) * (size_t)width;
        for (int x = 0; x < width; x++) sums[x] += (int32_t)entering[x] - (int32_t)leaving[x];
    }
}

void lp_box_blur(uint8_t *p, int width, int height, size_t stride, int radius, int first_channel, int end_channel,
                 int passes, uint8_t *plane, uint8_t *other, int32_t *sums) {
    if (width <= 0 || height <= 0 || radius <= 0) return;
    uint8_t *mean = window_means(2 * radius + 1);
    for (int c = first_channel; c < end_channel; c++) {
        // Each channel on its own plane of bytes: rows and columns both read contiguous memory.
        for (int y = 0; y < height; y++) {
            const uint8_t *row = p + (size_t)y * stride + c;
            uint8_t *to = plane + (size_t)y * (size_t)width;
            for (int x = 0; x < width; x++) to[x] = row[(size_t)x * 4];
        }
        for (int pass = 0; pass < passes; pass++) {
            blur_rows(plane, other, width, height, radius, mean);
            blur_columns(other, plane, width, height, radius, mean, sums);
        }
        for (int y = 0; y < height; y++) {
            uint8_t *row = p + (size_t)y * stride + c;
            const uint8_t *from = plane + (size_t)y * (size_t)width;
            for (int x = 0; x < width; x++) row[(size_t)x * 4] = from[x];
        }
    }
    free(mean);
}

static inline double luminance_of(uint32_t v, const double *red, const double *green, const double *blue) {
    return 0.2126 * red[(v >> 16) & 0xff] + 0.7152 * green[(v >> 8) & 0xff] + 0.0722 * blue[v & 0xff];
}

// Every pixel's luminance, the obvious way: the reference for tables that are not monotone.
static double extreme_every_pixel(const uint8_t *data, size_t stride, int x0, int x1, int y0, int y1,
                                  const double *red, const double *green, const double *blue, int brightest) {
    double result = brightest ? -1 : 2;
    for (int y = y0; y < y1; y++) {
        const uint32_t *row = (const uint32_t *)(const void *)(data + (size_t)y * stride);
        for (int x = x0; x < x1; x++) {
            double l = luminance_of(row[x], red, green, blue);
            if (brightest ? l > result : l < result) result = l;
        }
    }
    return result;
}

static int never_decreases(const double *table) {
    for (int i = 1; i < 256; i++) {
        if (!(table[i - 1] <= table[i])) return 0;  // also false for NaN
    }
    return 1;
}

// The byte-wise maximum and minimum of `n` pixels, alpha included (0 and all ones when `n` is 0);
// SSE2, four pixels at a time, where it is built for x86-64.
static inline void pixel_bounds(const uint32_t *pixels, int n, uint32_t *high, uint32_t *low) {
    int i = 0;
    uint32_t h = 0, l = 0xffffffffu;
#if defined(__SSE2__)
    if (n >= 4) {
        __m128i hi = _mm_setzero_si128(), lo = _mm_set1_epi8((char)0xff);
        for (; i + 4 <= n; i += 4) {
            __m128i v = _mm_loadu_si128((const __m128i *)(const void *)(pixels + i));
            hi = _mm_max_epu8(hi, v);
            lo = _mm_min_epu8(lo, v);
        }
        hi = _mm_max_epu8(hi, _mm_shuffle_epi32(hi, _MM_SHUFFLE(1, 0, 3, 2)));
        lo = _mm_min_epu8(lo, _mm_shuffle_epi32(lo, _MM_SHUFFLE(1, 0, 3, 2)));
        hi = _mm_max_epu8(hi, _mm_shuffle_epi32(hi, _MM_SHUFFLE(2, 3, 0, 1)));
        lo = _mm_min_epu8(lo, _mm_shuffle_epi32(lo, _MM_SHUFFLE(2, 3, 0, 1)));
        h = (uint32_t)_mm_cvtsi128_si32(hi);
        l = (uint32_t)_mm_cvtsi128_si32(lo);
    }
#endif
    for (; i < n; i++) {
        uint32_t hh = 0, ll = 0;
        for (int c = 0; c < 32; c += 8) {
            uint32_t v = (pixels[i] >> c) & 0xff, a = (h >> c) & 0xff, b = (l >> c) & 0xff;
            hh |= (v > a ? v : a) << c;
            ll |= (v < b ? v : b) << c;
        }
        h = hh;
        l = ll;
    }
    *high = h;
    *low = l;
}

// The bounds of `n` pixels of a row: the highest and the lowest value of each byte over them,
// packed as a pixel (alpha left out).
static inline void span_bounds(const uint32_t *pixels, int n, uint32_t *high, uint32_t *low) {
    pixel_bounds(pixels, n, high, low);
    *high &= 0xffffff;
    *low &= 0xffffff;
}

// The brightest (or darkest) luminance among the pixels, the same value as every pixel's
// (`extreme_every_pixel`) without reading most of them closely. Luminance is a sum of per-channel
// terms that never decrease with the channel's value (checked; otherwise every pixel is read), and
// floating-point products and sums keep that order, so no pixel of a run of pixels is brighter than
// the luminance of its bytes' highest values, nor darker than that of their lowest. A first pass
// keeps every run of LONG pixels' bound and finds, cheaply, a value the extreme reaches at least:
// the best of the runs' sure values (their bytes' lowest for the brightest). The second skips
// every run whose bound falls short of it or of the best pixel found so far, first by LONG pixels,
// then by SHORT, and reads the rest pixel by pixel.
#define LONG 64
#define SHORT 16
static double extreme(const uint8_t *data, size_t stride, int x0, int x1, int y0, int y1,
                      const double *red, const double *green, const double *blue, int brightest) {
    size_t runs = (size_t)((x1 - x0 + LONG - 1) / LONG) * (size_t)(y1 - y0);
    double *bounds = malloc(sizeof(double) * runs);
    if (bounds == NULL || !never_decreases(red) || !never_decreases(green) || !never_decreases(blue)) {
        free(bounds);
        return extreme_every_pixel(data, stride, x0, x1, y0, y1, red, green, blue, brightest);
    }
    double sure = brightest ? -INFINITY : INFINITY;
    double *bound = bounds;
    for (int y = y0; y < y1; y++) {
        const uint32_t *row = (const uint32_t *)(const void *)(data + (size_t)y * stride);
        for (int x = x0; x < x1; x += LONG) {
            uint32_t high, low;
            span_bounds(row + x, x1 - x < LONG ? x1 - x : LONG, &high, &low);
            double l = luminance_of(brightest ? low : high, red, green, blue);
            if (brightest ? l > sure : l < sure) sure = l;
            *bound++ = luminance_of(brightest ? high : low, red, green, blue);
        }
    }
    double result = brightest ? -1 : 2;
#define SKIP(b) (brightest ? ((b) < sure || (b) <= result) : ((b) > sure || (b) >= result))
    bound = bounds;
    for (int y = y0; y < y1; y++) {
        const uint32_t *row = (const uint32_t *)(const void *)(data + (size_t)y * stride);
        for (int x = x0; x < x1; x += LONG, bound++) {
            if (SKIP(*bound)) continue;
            int end = x1 - x < LONG ? x1 : x + LONG;
            for (int s = x; s < end; s += SHORT) {
                int m = end - s < SHORT ? end - s : SHORT;
                uint32_t high, low;
                span_bounds(row + s, m, &high, &low);
                if (SKIP(luminance_of(brightest ? high : low, red, green, blue))) continue;
                for (int i = s; i < s + m; i++) {
                    double l = luminance_of(row[i], red, green, blue);
                    if (brightest ? l > result : l < result) result = l;
                }
            }
        }
    }
#undef SKIP
    free(bounds);
    return result;
}

double lp_luminance_quantile(const uint8_t *data, size_t stride, int x0, int x1, int y0, int y1,
                             const double *red, const double *green, const double *blue, double quantile) {
    static const int buckets = 1024;
    if ((quantile >= 1 || quantile <= 0) && x1 > x0 && y1 > y0) {
        double l = extreme(data, stride, x0, x1, y0, y1, red, green, blue, quantile >= 1);
        if (l >= 0 && l <= 1) {
            long bucket = (long)ceil(l * buckets);
            return (double)(bucket < buckets ? bucket : buckets) / buckets;
        }
    }
    long histogram[1025];
    memset(histogram, 0, sizeof histogram);
    long total = 0;
    for (int y = y0; y < y1; y++) {
        const uint32_t *row = (const uint32_t *)(const void *)(data + (size_t)y * stride);
        for (int x = x0; x < x1; x++) {
            double l = luminance_of(row[x], red, green, blue);
            double scaled = ceil(l * buckets);
            long bucket = (long)scaled;
            histogram[bucket < buckets ? bucket : buckets] += 1;
            total += 1;
        }
    }
    double q = quantile < 0 ? 0 : (quantile > 1 ? 1 : quantile);
    long target = (long)ceil((double)total * q);
    if (target < 1) target = 1;
    long seen = 0;
    for (int bucket = 0; bucket <= buckets; bucket++) {
        seen += histogram[bucket];
        if (seen >= target) return (double)bucket / buckets;
    }
    return 1;
}

void lp_halve_argb32(const uint8_t *src, size_t src_stride, int width, int height, uint8_t *dst, size_t dst_stride) {
    int w = width / 2, h = height / 2;
    for (int y = 0; y < h; y++) {
        const uint8_t *a = src + (size_t)(2 * y) * src_stride, *b = a + src_stride;
        uint8_t *out = dst + (size_t)y * dst_stride;
        for (int x = 0; x < w; x++) {
            for (int c = 0; c < 4; c++) {
                unsigned sum = (unsigned)a[8 * x + c] + a[8 * x + 4 + c] + b[8 * x + c] + b[8 * x + 4 + c];
                out[4 * x + c] = (uint8_t)((sum + 2) >> 2);
            }
        }
    }
}

// The source spans each output pixel covers along one axis: `first` and `count` source indices
// (clamped to the picture) and their weights, which sum to 1.
typedef struct {
    int *first, *count;
    float *weight;
    int taps;
} lp_spans;

static int spans_make(lp_spans *s, double start, double length, int out, int size) {
    double step = length / out;
    s->taps = (int)ceil(step) + 2;
    s->first = malloc(sizeof(int) * (size_t)out);
    s->count = malloc(sizeof(int) * (size_t)out);
    s->weight = malloc(sizeof(float) * (size_t)out * (size_t)s->taps);
    if (!s->first || !s->count || !s->weight) return -1;
    for (int i = 0; i < out; i++) {
        double a = start + step * i, b = start + step * (i + 1);
        int lo = (int)floor(a), n = 0;
        float *w = s->weight + (size_t)i * (size_t)s->taps;
        s->first[i] = lo;
        for (int k = lo; k < b && n < s->taps; k++, n++) {
            double cover = fmin(b, k + 1.0) - fmax(a, (double)k);
            w[n] = (float)(cover / step);
        }
        if (n == 0) {  // a span too thin to tell its ends apart: the source pixel it lies in
            w[0] = 1;
            n = 1;
        }
        s->count[i] = n;
    }
    (void)size;
    return 0;
}

static void spans_free(lp_spans *s) {
    free(s->first);
    free(s->count);
    free(s->weight);
}

static inline int clampi(int v, int lo, int hi) { return v < lo ? lo : v > hi ? hi : v; }

static int area_reduce(const uint8_t *src, size_t src_stride, int width, int height, double sx, double sy, double sw, double sh,
                       uint8_t *dst, size_t dst_stride, int dw, int dh, int vector) {
    (void)vector;  // read only where the SSE2 path is built
    if (width <= 0 || height <= 0 || dw <= 0 || dh <= 0 || dw > 32767 || dh > 32767 || !(sw > 0) || !(sh > 0)
        || sw / dw > 4096 || sh / dh > 4096
        || !isfinite(sx) || !isfinite(sy) || fabs(sx) > 1e7 || fabs(sy) > 1e7 || sw > 1e7 || sh > 1e7) return -1;
    lp_spans xs = {0}, ys = {0};
    float *row = malloc(sizeof(float) * 4 * (size_t)width);
    int status = (row && spans_make(&xs, sx, sw, dw, width) == 0 && spans_make(&ys, sy, sh, dh, height) == 0) ? 0 : -1;
    // The columns any output pixel reads.
    int c0 = width - 1, c1 = 0;
    for (int x = 0; status == 0 && x < dw; x++) {
        int lo = clampi(xs.first[x], 0, width - 1), hi = clampi(xs.first[x] + xs.count[x] - 1, 0, width - 1);
        if (lo < c0) c0 = lo;
        if (hi > c1) c1 = hi;
    }
    for (int y = 0; status == 0 && y < dh; y++) {
        // The source rows this output row covers, weighted, over those columns.
        for (int i = 4 * c0; i < 4 * (c1 + 1); i++) row[i] = 0;
        const float *wy = ys.weight + (size_t)y * (size_t)ys.taps;
        for (int k = 0; k < ys.count[y]; k++) {
            const uint8_t *line = src + (size_t)clampi(ys.first[y] + k, 0, height - 1) * src_stride;
            float w = wy[k];
            for (int i = 4 * c0; i < 4 * (c1 + 1); i++) row[i] += w * line[i];
        }
        uint8_t *out = dst + (size_t)y * dst_stride;
        for (int x = 0; x < dw; x++) {
            const float *wx = xs.weight + (size_t)x * (size_t)xs.taps;
#if defined(__SSE2__)
            if (vector) {
                // The four channels side by side: the same products and sums in the same order (no
                // contraction), rounded as lrintf rounds (to nearest, ties to even), clamped by the
                // saturating packs to 0…255 and the colour channels then to the alpha.
                __m128 sum = _mm_setzero_ps();
                for (int k = 0; k < xs.count[x]; k++) {
                    const float *p = row + 4 * clampi(xs.first[x] + k, 0, width - 1);
                    sum = _mm_add_ps(sum, _mm_mul_ps(_mm_set1_ps(wx[k]), _mm_loadu_ps(p)));
                }
                __m128i words = _mm_cvtps_epi32(sum);
                __m128i bytes = _mm_packus_epi16(_mm_packs_epi32(words, words), _mm_setzero_si128());
                uint32_t v = (uint32_t)_mm_cvtsi128_si32(bytes);
                __m128i alpha = _mm_set1_epi32((int)((v >> 24) * 0x01010101u));
                v = (uint32_t)_mm_cvtsi128_si32(_mm_min_epu8(bytes, alpha));
                memcpy(out + 4 * x, &v, 4);
                continue;
            }
#endif
            float acc[4] = {0, 0, 0, 0};
            for (int k = 0; k < xs.count[x]; k++) {
                const float *p = row + 4 * clampi(xs.first[x] + k, 0, width - 1);
                for (int c = 0; c < 4; c++) acc[c] += wx[k] * p[c];
            }
            // Premultiplied: no channel above its alpha.
            int a = clampi((int)lrintf(acc[3]), 0, 255);
            for (int c = 0; c < 3; c++) out[4 * x + c] = (uint8_t)clampi((int)lrintf(acc[c]), 0, a);
            out[4 * x + 3] = (uint8_t)a;
        }
    }
    free(row);
    spans_free(&xs);
    spans_free(&ys);
    return status;
}

int lp_area_reduce_argb32(const uint8_t *src, size_t src_stride, int width, int height, double sx, double sy, double sw, double sh,
                          uint8_t *dst, size_t dst_stride, int dw, int dh) {
    return area_reduce(src, src_stride, width, height, sx, sy, sw, sh, dst, dst_stride, dw, dh, 1);
}

int lp_area_reduce_argb32_scalar(const uint8_t *src, size_t src_stride, int width, int height, double sx, double sy, double sw,
                                 double sh, uint8_t *dst, size_t dst_stride, int dw, int dh) {
    return area_reduce(src, src_stride, width, height, sx, sy, sw, sh, dst, dst_stride, dw, dh, 0);
}

static inline unsigned straight(unsigned c, unsigned a) {
    unsigned v = (c * 255 + a / 2) / a;
    return v > 255 ? 255 : v;
}

void lp_row_extremes(const uint8_t *data, size_t stride, int x0, int x1, int y0, int y1, int brightest, uint8_t *out) {
    for (int y = y0; y < y1; y++) {
        const uint32_t *row = (const uint32_t *)(const void *)(data + (size_t)y * stride);
        unsigned r = brightest ? 0 : 255, g = r, b = r;
        // A row of opaque pixels (a backdrop's, always): its bytes' bounds are the answer, found
        // sixteen bytes at a time; any other row is read pixel by pixel below.
        uint32_t high = 0, low = 0;
        if (x1 > x0) pixel_bounds(row + x0, x1 - x0, &high, &low);
        if (low >> 24 == 255) {
            uint32_t v = brightest ? high : low;
            r = (v >> 16) & 0xff;
            g = (v >> 8) & 0xff;
            b = v & 0xff;
        } else if (brightest) {
            uint32_t most = 0;  // opaque pixels: the channels' maxima over the packed words
            unsigned mr = 0, mg = 0, mb = 0;
            for (int x = x0; x < x1; x++) {
                uint32_t v = row[x];
                if (v >> 24 != 255) {
                    unsigned a = v >> 24;
                    unsigned pr = a ? straight((v >> 16) & 0xff, a) : 0, pg = a ? straight((v >> 8) & 0xff, a) : 0,
                             pb = a ? straight(v & 0xff, a) : 0;
                    if (pr > mr) mr = pr;
                    if (pg > mg) mg = pg;
                    if (pb > mb) mb = pb;
                    continue;
                }
                uint32_t hi = most & 0xff0000, vh = v & 0xff0000, mid = most & 0xff00, vm = v & 0xff00, lo = most & 0xff, vl = v & 0xff;
                most = (vh > hi ? vh : hi) | (vm > mid ? vm : mid) | (vl > lo ? vl : lo);
            }
            r = ((most >> 16) & 0xff) > mr ? (most >> 16) & 0xff : mr;
            g = ((most >> 8) & 0xff) > mg ? (most >> 8) & 0xff : mg;
            b = (most & 0xff) > mb ? most & 0xff : mb;
        } else {
            for (int x = x0; x < x1; x++) {
                uint32_t v = row[x];
                unsigned pr, pg, pb;
                if (v >> 24 != 255) {
                    unsigned a = v >> 24;
                    pr = a ? straight((v >> 16) & 0xff, a) : 0;
                    pg = a ? straight((v >> 8) & 0xff, a) : 0;
                    pb = a ? straight(v & 0xff, a) : 0;
                } else {
                    pr = (v >> 16) & 0xff;
                    pg = (v >> 8) & 0xff;
                    pb = v & 0xff;
                }
                if (pr < r) r = pr;
                if (pg < g) g = pg;
                if (pb < b) b = pb;
            }
        }
        out[3 * (y - y0)] = (uint8_t)r;
        out[3 * (y - y0) + 1] = (uint8_t)g;
        out[3 * (y - y0) + 2] = (uint8_t)b;
    }
}

// ARGB32 to packed RGB(A), for the encoders and for Poster.pixels().

#if defined(__x86_64__)
// Opaque rows, 4 pixels at a time: one byte shuffle takes B, G, R (little-endian ARGB32) of each
// to R, G, B. 16 bytes are stored for 12; the 4 past them are the next step's to overwrite, so
// this stops 4 pixels before the row ends and leaves the rest to the caller. Returns the pixels done.
__attribute__((target("ssse3")))
static uint32_t lp_argb32_to_rgb_row_ssse3(const uint8_t *src, uint32_t width, uint8_t *dst) {
    const __m128i order = _mm_setr_epi8(2, 1, 0, 6, 5, 4, 10, 9, 8, 14, 13, 12, -1, -1, -1, -1);
    uint32_t x = 0;
    for (; x + 8 <= width; x += 4) {
        __m128i v = _mm_loadu_si128((const __m128i *)(const void *)(src + (size_t)x * 4));
        _mm_storeu_si128((__m128i *)(void *)(dst + (size_t)x * 3), _mm_shuffle_epi8(v, order));
    }
    return x;
}

// Whether the processor has SSSE3 (CPUID), asked once; threads may race to store the same answer.
static int lp_has_ssse3(void) {
    static int known = -1;
    int answer = __atomic_load_n(&known, __ATOMIC_RELAXED);
    if (answer < 0) {
        unsigned int a, b, c, d;
        answer = __get_cpuid(1, &a, &b, &c, &d) && (c & bit_SSSE3) ? 1 : 0;
        __atomic_store_n(&known, answer, __ATOMIC_RELAXED);
    }
    return answer;
}
#endif

void lp_argb32_to_rgb(const uint8_t *pixels, uint32_t width, uint32_t height, size_t stride, int opaque,
                      uint8_t *out) {
    size_t channels = opaque ? 3 : 4;
#if defined(__BYTE_ORDER__) && __BYTE_ORDER__ == __ORDER_LITTLE_ENDIAN__
    if (opaque && width > 0) {
#if defined(__x86_64__)
        int shuffle = lp_has_ssse3();
#endif
        // Each pixel written as 4 bytes whose last one the next pixel overwrites; the row's last
        // pixel byte by byte, so nothing is written past the row.
        for (uint32_t y = 0; y < height; y++) {
            const uint32_t *src = (const uint32_t *)(const void *)(pixels + (size_t)y * stride);
            uint8_t *dst = out + (size_t)y * width * 3;
            uint32_t x = 0;
#if defined(__x86_64__)
            if (shuffle) {
                x = lp_argb32_to_rgb_row_ssse3((const uint8_t *)src, width, dst);
                dst += (size_t)x * 3;
            }
#endif
            for (; x + 1 < width; x++) {
                uint32_t v = src[x];
                uint32_t rgb = ((v >> 16) & 0xff) | (v & 0xff00) | ((v & 0xff) << 16);
                memcpy(dst, &rgb, 4);
                dst += 3;
            }
            uint32_t v = src[width - 1];
            dst[0] = (uint8_t)(v >> 16);
            dst[1] = (uint8_t)(v >> 8);
            dst[2] = (uint8_t)v;
        }
        return;
    }
#endif
    for (uint32_t y = 0; y < height; y++) {
        const uint8_t *src = pixels + (size_t)y * stride;
        uint8_t *dst = out + (size_t)y * width * channels;
        for (uint32_t x = 0; x < width; x++) {
            uint32_t argb;
            memcpy(&argb, src + x * 4, 4);
            uint32_t a = argb >> 24, r = (argb >> 16) & 0xff, g = (argb >> 8) & 0xff, b = argb & 0xff;
            if (!opaque && a != 255) {
                if (a == 0) {
                    r = g = b = 0;
                } else {
                    r = (r * 255 + a / 2) / a;
                    g = (g * 255 + a / 2) / a;
                    b = (b * 255 + a / 2) / a;
                }
            }
            dst[0] = (uint8_t)r;
            dst[1] = (uint8_t)g;
            dst[2] = (uint8_t)b;
            if (!opaque) dst[3] = (uint8_t)a;
            dst += channels;
        }
    }
}
