// See lp_png_indexed.h: palette PNGs for e-ink panels, through libpng, whose errors longjmp.
#include "lp_png_indexed.h"

#include <png.h>
#include <setjmp.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

typedef struct {
    jmp_buf jump;
    char *message;
} indexed_errors;

static void on_indexed_error(png_structp png, png_const_charp text) {
    indexed_errors *errors = (indexed_errors *)png_get_error_ptr(png);
    snprintf(errors->message, LP_PNG_MESSAGE_SIZE, "%s", text);
    longjmp(errors->jump, 1);
}

static void on_indexed_warning(png_structp png, png_const_charp text) {
    (void)png;
    (void)text;
}

// Appends to a buffer that doubles as it fills (the compressed size is not known in advance).
static void on_indexed_write(png_structp png, png_bytep bytes, png_size_t length) {
    lp_png_buffer *buffer = (lp_png_buffer *)png_get_io_ptr(png);
    if (buffer->capacity - buffer->size < length) {
        size_t capacity = buffer->capacity ? buffer->capacity : 16384;
        while (capacity - buffer->size < length) {
            if (capacity > SIZE_MAX / 2) png_error(png, "PNG is too large");
            capacity *= 2;
        }
        uint8_t *grown = realloc(buffer->data, capacity);
        if (grown == NULL) png_error(png, "out of memory");
        buffer->data = grown;
        buffer->capacity = capacity;
    }
    memcpy(buffer->data + buffer->size, bytes, length);
    buffer->size += length;
}

static void on_indexed_flush(png_structp png) { (void)png; }

// Packs one row of indices into `row`, `bit_depth` bits each, the first pixel in the highest
// bits of the first byte (PNG's order); the unused low bits of the last byte are zero.
static void pack_row(const uint8_t *indices, uint32_t width, int bit_depth, uint8_t *row, size_t row_bytes) {
    if (bit_depth == 8) {
        memcpy(row, indices, width);
        return;
    }
    memset(row, 0, row_bytes);
    const uint32_t per_byte = 8u / (uint32_t)bit_depth;
    for (uint32_t x = 0; x < width; x++) {
        unsigned shift = 8u - (unsigned)bit_depth * (x % per_byte + 1u);
        row[x / per_byte] |= (uint8_t)(indices[x] << shift);
    }
}

// Everything that may longjmp, in a function of its own: none of its locals changes between the
// setjmp and a longjmp that is read afterwards, and the caller, which owns the buffers, frees
// them either way.
static int write_png(png_structp png, png_infop info, indexed_errors *errors, const uint8_t *indices,
                     uint32_t width, uint32_t height, const png_color *palette, int colours, int bit_depth,
                     uint8_t *row, size_t row_bytes, lp_png_buffer *buffer) {
    if (setjmp(errors->jump)) return -1;
    png_set_write_fn(png, buffer, on_indexed_write, on_indexed_flush);
    png_set_IHDR(png, info, width, height, bit_depth, PNG_COLOR_TYPE_PALETTE, PNG_INTERLACE_NONE,
                 PNG_COMPRESSION_TYPE_DEFAULT, PNG_FILTER_TYPE_DEFAULT);
    png_set_PLTE(png, info, palette, colours);
    // No filter: the PNG specification's advice for palette images, whose indices are not
    // magnitudes that differences between neighbours would make smaller. Level 6: on a dithered
    // 800×480 poster level 9 took 6 times as long (93 ms against 15) for a file 1 % smaller.
    png_set_filter(png, PNG_FILTER_TYPE_BASE, PNG_FILTER_NONE);
    png_set_compression_level(png, 6);
    png_write_info(png, info);
    for (uint32_t y = 0; y < height; y++) {
        pack_row(indices + (size_t)y * width, width, bit_depth, row, row_bytes);
        png_write_row(png, row);
    }
    png_write_end(png, info);
    return 0;
}

int lp_png_write_indexed(const uint8_t *indices, uint32_t width, uint32_t height,
                         const uint8_t *palette_rgb, int colours, int bit_depth,
                         uint8_t **out, size_t *out_size, char message[LP_PNG_MESSAGE_SIZE]) {
    if (out == NULL || out_size == NULL || message == NULL) return -1;
    *out = NULL;
    *out_size = 0;
    message[0] = 0;
    if (indices == NULL || palette_rgb == NULL) {
        snprintf(message, LP_PNG_MESSAGE_SIZE, "no pixels or no palette");
        return -1;
    }
    if (bit_depth != 1 && bit_depth != 2 && bit_depth != 4 && bit_depth != 8) {
        snprintf(message, LP_PNG_MESSAGE_SIZE, "bit depth %d is not 1, 2, 4 or 8", bit_depth);
        return -1;
    }
    if (colours < 1) {
        snprintf(message, LP_PNG_MESSAGE_SIZE, "the palette is empty");
        return -1;
    }
    if (colours > (1 << bit_depth)) {
        snprintf(message, LP_PNG_MESSAGE_SIZE, "%d colours do not fit %d-bit pixels (at most %d)", colours, bit_depth, 1 << bit_depth);
        return -1;
    }
    // PNG's own limit on a side; libpng refuses zero sides itself, but nothing is scanned first.
    if (width == 0 || height == 0 || width > 0x7fffffffu || height > 0x7fffffffu) {
        snprintf(message, LP_PNG_MESSAGE_SIZE, "image of %u×%u pixels cannot be a PNG", width, height);
        return -1;
    }
    if ((size_t)width > SIZE_MAX / (size_t)height) {
        snprintf(message, LP_PNG_MESSAGE_SIZE, "image of %u×%u pixels is too large", width, height);
        return -1;
    }
    // An index past the palette would make a PNG that decoders refuse or show as black: say
    // which pixel before writing anything.
    size_t count = (size_t)width * height;
    for (size_t i = 0; i < count; i++) {
        if (indices[i] >= colours) {
            snprintf(message, LP_PNG_MESSAGE_SIZE, "pixel (%zu, %zu) has index %u, but the palette has %d colours",
                     i % width, i / width, (unsigned)indices[i], colours);
            return -1;
        }
    }

    png_color palette[256];
    for (int i = 0; i < colours; i++) {
        palette[i].red = palette_rgb[3 * i];
        palette[i].green = palette_rgb[3 * i + 1];
        palette[i].blue = palette_rgb[3 * i + 2];
    }
    size_t row_bytes = ((size_t)width * (size_t)bit_depth + 7) / 8;
    uint8_t *row = malloc(row_bytes);
    if (row == NULL) {
        snprintf(message, LP_PNG_MESSAGE_SIZE, "out of memory");
        return -1;
    }
    indexed_errors errors;
    errors.message = message;
    png_structp png = png_create_write_struct(PNG_LIBPNG_VER_STRING, &errors, on_indexed_error, on_indexed_warning);
    png_infop info = png == NULL ? NULL : png_create_info_struct(png);
    if (info == NULL) {
        png_destroy_write_struct(&png, NULL);
        free(row);
        snprintf(message, LP_PNG_MESSAGE_SIZE, "out of memory");
        return -1;
    }
    lp_png_buffer buffer = {NULL, 0, 0};
    int status = write_png(png, info, &errors, indices, width, height, palette, colours, bit_depth, row, row_bytes, &buffer);
    png_destroy_write_struct(&png, &info);
    free(row);
    if (status != 0) {
        free(buffer.data);
        if (message[0] == 0) snprintf(message, LP_PNG_MESSAGE_SIZE, "libpng failed");
        return -1;
    }
    *out = buffer.data;
    *out_size = buffer.size;
    return 0;
}

void lp_png_free_buffer(uint8_t *buffer) { free(buffer); }
