// A minimal PNG writer around libdeflate: signature, IHDR, one IDAT, IEND. libdeflate compresses a
// whole buffer in one call, faster than zlib at the same ratio, which is what makes it the fast
// path for poster frames (see PNG.Compression). Filtering is the PNG Up filter, or none.
#include "lp_png.h"

#include <libdeflate.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

static int reserve(lp_png_buffer *b, size_t more) {
    if (b->capacity - b->size >= more) return 0;
    size_t capacity = b->capacity ? b->capacity : 65536;
    while (capacity - b->size < more) capacity *= 2;
    uint8_t *grown = realloc(b->data, capacity);
    if (grown == NULL) return -1;
    b->data = grown;
    b->capacity = capacity;
    return 0;
}

static void put32(uint8_t *p, uint32_t v) {
    p[0] = (uint8_t)(v >> 24);
    p[1] = (uint8_t)(v >> 16);
    p[2] = (uint8_t)(v >> 8);
    p[3] = (uint8_t)v;
}

// Appends a chunk: length, type, data, CRC over type and data.
static int chunk(lp_png_buffer *b, const char type[4], const uint8_t *data, size_t length) {
    if (length > 0x7fffffff || reserve(b, length + 12) != 0) return -1;
    uint8_t *p = b->data + b->size;
    put32(p, (uint32_t)length);
    memcpy(p + 4, type, 4);
    if (length) memcpy(p + 8, data, length);
    uint32_t crc = libdeflate_crc32(0, p + 4, length + 4);
    put32(p + 8 + length, crc);
    b->size += length + 12;
    return 0;
}

int lp_png_encode_libdeflate(const uint8_t *rows, uint32_t width, uint32_t height, int channels,
                             int level, int up, lp_png_buffer *out, char message[LP_PNG_MESSAGE_SIZE]) {
    memset(out, 0, sizeof *out);
    message[0] = 0;
    size_t row_bytes = (size_t)width * (size_t)channels;
    size_t raw_size = (row_bytes + 1) * height;
    uint8_t *raw = malloc(raw_size);
    if (raw == NULL) {
        snprintf(message, LP_PNG_MESSAGE_SIZE, "out of memory");
        return -1;
    }
    // Each row: a filter-type byte, then the row (Up: minus the row above, bytewise mod 256).
    for (uint32_t y = 0; y < height; y++) {
        uint8_t *dst = raw + (size_t)y * (row_bytes + 1);
        const uint8_t *row = rows + (size_t)y * row_bytes;
        if (up && y > 0) {
            const uint8_t *above = row - row_bytes;
            dst[0] = 2;
            for (size_t i = 0; i < row_bytes; i++) dst[1 + i] = (uint8_t)(row[i] - above[i]);
        } else {
            dst[0] = 0;
            memcpy(dst + 1, row, row_bytes);
        }
    }
    struct libdeflate_compressor *compressor = libdeflate_alloc_compressor(level);
    if (compressor == NULL) {
        free(raw);
        snprintf(message, LP_PNG_MESSAGE_SIZE, "cannot start libdeflate at level %d", level);
        return -1;
    }
    size_t bound = libdeflate_zlib_compress_bound(compressor, raw_size);
    uint8_t *idat = malloc(bound);
    size_t idat_size = idat ? libdeflate_zlib_compress(compressor, raw, raw_size, idat, bound) : 0;
    libdeflate_free_compressor(compressor);
    free(raw);
    if (idat_size == 0) {
        free(idat);
        snprintf(message, LP_PNG_MESSAGE_SIZE, "compression failed");
        return -1;
    }
    static const uint8_t signature[8] = {0x89, 'P', 'N', 'G', 0x0D, 0x0A, 0x1A, 0x0A};
    uint8_t ihdr[13];
    put32(ihdr, width);
    put32(ihdr + 4, height);
    ihdr[8] = 8;                         // bit depth
    ihdr[9] = channels == 3 ? 2 : 6;     // colour type: RGB or RGBA
    ihdr[10] = ihdr[11] = ihdr[12] = 0;  // deflate, adaptive filtering, no interlace
    int failed = reserve(out, 8) != 0;
    if (!failed) {
        memcpy(out->data, signature, 8);
        out->size = 8;
        failed = chunk(out, "IHDR", ihdr, 13) || chunk(out, "IDAT", idat, idat_size) || chunk(out, "IEND", NULL, 0);
    }
    free(idat);
    if (failed) {
        lp_png_buffer_free(out);
        snprintf(message, LP_PNG_MESSAGE_SIZE, "out of memory");
        return -1;
    }
    return 0;
}
