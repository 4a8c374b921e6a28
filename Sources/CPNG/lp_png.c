// See lp_png.h: this file exists because libpng's errors longjmp.
#include "lp_png.h"
#include "lp_png_pixel.h"

#include <png.h>
#include <setjmp.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <zlib.h>

typedef struct {
    const uint8_t *data;
    size_t size;
    size_t offset;
    // The largest allocation libpng may make while reading these bytes (see bounded_malloc).
    size_t allocation_limit;
} reader_state;

// libpng allocates a chunk's buffer from the length the chunk declares, before it reads it: a
// file of 60 bytes can ask for 2 GiB. No buffer a real file needs is larger than the file itself,
// or than the 8 MiB that decompressed ancillary chunks are held to, or a row: larger asks fail
// here, as when memory runs out (such a file is refused all the same: libpng reads on from the
// chunk's first bytes, where it finds no chunk).
static png_voidp bounded_malloc(png_structp png, png_alloc_size_t size) {
    const reader_state *state = (const reader_state *)png_get_mem_ptr(png);
    if (state != NULL && size > state->allocation_limit) return NULL;
    return malloc(size);
}

static void plain_free(png_structp png, png_voidp pointer) {
    (void)png;
    free(pointer);
}

typedef struct {
    jmp_buf jump;
    char *message;
} error_state;

static void on_error(png_structp png, png_const_charp text) {
    error_state *state = (error_state *)png_get_error_ptr(png);
    snprintf(state->message, LP_PNG_MESSAGE_SIZE, "%s", text);
    longjmp(state->jump, 1);
}

static void on_warning(png_structp png, png_const_charp text) {
    (void)png;
    (void)text;
}

static void on_read(png_structp png, png_bytep out, png_size_t length) {
    reader_state *state = (reader_state *)png_get_io_ptr(png);
    if (state->size - state->offset < length) {
        png_error(png, "file is truncated");
    }
    memcpy(out, state->data + state->offset, length);
    state->offset += length;
}

static int exif_orientation(png_structp png, png_infop info) {
#ifdef PNG_eXIf_SUPPORTED
    png_uint_32 size = 0;
    png_bytep exif = NULL;
    if (png_get_eXIf_1(png, info, &size, &exif) == 0 || exif == NULL || size < 14) return 0;
    int little = exif[0] == 'I';
#define U16(p) (little ? (uint32_t)(p)[0] | ((uint32_t)(p)[1] << 8) : ((uint32_t)(p)[0] << 8) | (uint32_t)(p)[1])
#define U32(p) (little ? U16(p) | (U16((p) + 2) << 16) : (U16(p) << 16) | U16((p) + 2))
    // 64-bit arithmetic: offsets come from the file and must not wrap around.
    uint64_t ifd = U32(exif + 4);
    if (ifd + 2 > size) return 0;
    uint64_t count = U16(exif + ifd);
    for (uint64_t i = 0; i < count; i++) {
        uint64_t entry = ifd + 2 + i * 12;
        if (entry + 12 > size) return 0;
        if (U16(exif + entry) == 0x0112) {
            uint32_t value = U16(exif + entry + 8);
            return value >= 1 && value <= 8 ? (int)value : 0;
        }
    }
#undef U32
#undef U16
#endif
    return 0;
}

// Sets up a read struct and reads up to the image header. Returns 0 or -1.
static int begin_read(const uint8_t *data, size_t size, lp_png_info *info, png_structp *png_out,
                      png_infop *info_out, reader_state *reader, error_state *errors) {
    if (size < 8 || png_sig_cmp(data, 0, 8) != 0) {
        snprintf(info->message, LP_PNG_MESSAGE_SIZE, "not a PNG file");
        return -1;
    }
    reader->data = data;
    reader->size = size;
    reader->offset = 0;
    reader->allocation_limit = (size > 8u * 1024 * 1024 ? size : 8u * 1024 * 1024) + 1024 * 1024;
    errors->message = info->message;
    png_structp png = png_create_read_struct_2(PNG_LIBPNG_VER_STRING, errors, on_error, on_warning, reader, bounded_malloc, plain_free);
    if (png == NULL) {
        snprintf(info->message, LP_PNG_MESSAGE_SIZE, "out of memory");
        return -1;
    }
    png_infop pinfo = png_create_info_struct(png);
    if (pinfo == NULL) {
        png_destroy_read_struct(&png, NULL, NULL);
        snprintf(info->message, LP_PNG_MESSAGE_SIZE, "out of memory");
        return -1;
    }
    *png_out = png;
    *info_out = pinfo;
    png_set_read_fn(png, reader, on_read);
    // Dimensions are checked by the caller before any pixel memory is allocated; these limits only
    // stop libpng itself from accepting nonsense, and bound ancillary chunk memory.
    png_set_user_limits(png, 0x7fffffff, 0x7fffffff);
    png_set_chunk_malloc_max(png, 8 * 1024 * 1024);
    return 0;
}

int lp_png_read_header(const uint8_t *data, size_t size, lp_png_info *info) {
    memset(info, 0, sizeof *info);
    png_structp png = NULL;
    png_infop pinfo = NULL;
    reader_state reader;
    error_state errors;
    if (begin_read(data, size, info, &png, &pinfo, &reader, &errors) != 0) return -1;
    if (setjmp(errors.jump)) {
        png_destroy_read_struct(&png, &pinfo, NULL);
        return -1;
    }
    png_read_info(png, pinfo);
    info->width = png_get_image_width(png, pinfo);
    info->height = png_get_image_height(png, pinfo);
    info->bit_depth = png_get_bit_depth(png, pinfo);
    info->color_type = png_get_color_type(png, pinfo);
    info->interlaced = png_get_interlace_type(png, pinfo) != PNG_INTERLACE_NONE;
    png_destroy_read_struct(&png, &pinfo, NULL);
    return 0;
}

int lp_png_decode_argb32(const uint8_t *data, size_t size, uint8_t *out, size_t stride,
                         lp_png_info *info) {
    memset(info, 0, sizeof *info);
    png_structp png = NULL;
    png_infop pinfo = NULL;
    reader_state reader;
    error_state errors;
    png_bytep *volatile rows = NULL;
    if (begin_read(data, size, info, &png, &pinfo, &reader, &errors) != 0) return -1;
    if (setjmp(errors.jump)) {
        free(rows);
        png_destroy_read_struct(&png, &pinfo, NULL);
        return -1;
    }
    png_read_info(png, pinfo);
    png_uint_32 width = png_get_image_width(png, pinfo);
    png_uint_32 height = png_get_image_height(png, pinfo);
    info->width = width;
    info->height = height;
    info->bit_depth = png_get_bit_depth(png, pinfo);
    info->color_type = png_get_color_type(png, pinfo);
    info->interlaced = png_get_interlace_type(png, pinfo) != PNG_INTERLACE_NONE;
    // Without an alpha channel or a transparent colour every pixel comes out opaque.
    int opaque = !(info->color_type & PNG_COLOR_MASK_ALPHA) && !png_get_valid(png, pinfo, PNG_INFO_tRNS);

    // Normalise every colour type and depth to 8-bit BGRA.
    png_set_expand(png);  // palette → RGB, grey < 8 bit → 8 bit, tRNS → alpha
    png_set_scale_16(png);
    png_set_gray_to_rgb(png);
    png_set_bgr(png);
    png_set_filler(png, 0xff, PNG_FILLER_AFTER);
    png_set_interlace_handling(png);
    png_read_update_info(png, pinfo);

    rows = malloc(sizeof(png_bytep) * height);
    if (rows == NULL) png_error(png, "out of memory");
    for (png_uint_32 y = 0; y < height; y++) rows[y] = out + (size_t)y * stride;
    png_read_image(png, rows);
    png_read_end(png, pinfo);
    info->exif_orientation = exif_orientation(png, pinfo);
    free(rows);
    rows = NULL;
    png_destroy_read_struct(&png, &pinfo, NULL);

    // Now B,G,R,A bytes in memory; premultiply into cairo's native-endian ARGB32. Opaque pixels
    // are already that (B,G,R,255 is 0xFFRRGGBB little-endian), so an opaque picture is done.
#if __BYTE_ORDER__ == __ORDER_LITTLE_ENDIAN__
    if (opaque) return 0;
#else
    (void)opaque;
#endif
    for (png_uint_32 y = 0; y < height; y++) {
        uint8_t *row = out + (size_t)y * stride;
        for (png_uint_32 x = 0; x < width; x++) {
            uint8_t *p = row + x * 4;
            lp_store_premultiplied(p[2], p[1], p[0], p[3], p);
        }
    }
    return 0;
}

static void on_write(png_structp png, png_bytep bytes, png_size_t length) {
    lp_png_buffer *buffer = (lp_png_buffer *)png_get_io_ptr(png);
    if (buffer->capacity - buffer->size < length) {
        size_t capacity = buffer->capacity ? buffer->capacity : 65536;
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

static void on_flush(png_structp png) { (void)png; }

int lp_png_encode(const uint8_t *rows, uint32_t width, uint32_t height, int channels,
                  int level, int strategy, int filters,
                  lp_png_buffer *out, char message[LP_PNG_MESSAGE_SIZE]) {
    memset(out, 0, sizeof *out);
    message[0] = 0;
    error_state errors;
    errors.message = message;
    png_structp png = png_create_write_struct(PNG_LIBPNG_VER_STRING, &errors, on_error, on_warning);
    if (png == NULL) {
        snprintf(message, LP_PNG_MESSAGE_SIZE, "out of memory");
        return -1;
    }
    png_infop info = png_create_info_struct(png);
    if (info == NULL) {
        png_destroy_write_struct(&png, NULL);
        snprintf(message, LP_PNG_MESSAGE_SIZE, "out of memory");
        return -1;
    }
    if (setjmp(errors.jump)) {
        png_destroy_write_struct(&png, &info);
        lp_png_buffer_free(out);
        return -1;
    }
    png_set_write_fn(png, out, on_write, on_flush);
    png_set_IHDR(png, info, width, height, 8, channels == 3 ? PNG_COLOR_TYPE_RGB : PNG_COLOR_TYPE_RGBA,
                 PNG_INTERLACE_NONE, PNG_COMPRESSION_TYPE_DEFAULT, PNG_FILTER_TYPE_DEFAULT);
    png_set_compression_level(png, level);
    png_set_compression_strategy(png, strategy);
    if (filters != 0) png_set_filter(png, PNG_FILTER_TYPE_BASE, filters);
    png_write_info(png, info);
    size_t row_bytes = (size_t)width * (size_t)channels;
    for (uint32_t y = 0; y < height; y++) png_write_row(png, rows + (size_t)y * row_bytes);
    png_write_end(png, info);
    png_destroy_write_struct(&png, &info);
    return 0;
}

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
static int write_indexed(png_structp png, png_infop info, error_state *errors, const uint8_t *indices,
                     uint32_t width, uint32_t height, const png_color *palette, int colours, int bit_depth,
                     uint8_t *row, size_t row_bytes, lp_png_buffer *buffer) {
    if (setjmp(errors->jump)) return -1;
    png_set_write_fn(png, buffer, on_write, on_flush);
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
                         lp_png_buffer *out, char message[LP_PNG_MESSAGE_SIZE]) {
    if (out == NULL || message == NULL) return -1;
    memset(out, 0, sizeof *out);
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
    error_state errors;
    errors.message = message;
    png_structp png = png_create_write_struct(PNG_LIBPNG_VER_STRING, &errors, on_error, on_warning);
    png_infop info = png == NULL ? NULL : png_create_info_struct(png);
    if (info == NULL) {
        png_destroy_write_struct(&png, NULL);
        free(row);
        snprintf(message, LP_PNG_MESSAGE_SIZE, "out of memory");
        return -1;
    }
    int status = write_indexed(png, info, &errors, indices, width, height, palette, colours, bit_depth, row, row_bytes, out);
    png_destroy_write_struct(&png, &info);
    free(row);
    if (status != 0) {
        lp_png_buffer_free(out);
        if (message[0] == 0) snprintf(message, LP_PNG_MESSAGE_SIZE, "libpng failed");
        return -1;
    }
    return 0;
}


void lp_png_buffer_free(lp_png_buffer *buffer) {
    free(buffer->data);
    buffer->data = NULL;
    buffer->size = 0;
    buffer->capacity = 0;
}

int lp_png_strategy_default(void) { return Z_DEFAULT_STRATEGY; }
int lp_png_strategy_rle(void) { return Z_RLE; }
int lp_png_strategy_filtered(void) { return Z_FILTERED; }
int lp_png_strategy_huffman(void) { return Z_HUFFMAN_ONLY; }
int lp_png_filter_none(void) { return PNG_FILTER_NONE; }
int lp_png_filter_sub(void) { return PNG_FILTER_SUB; }
int lp_png_filter_up(void) { return PNG_FILTER_UP; }
int lp_png_filter_all(void) { return PNG_ALL_FILTERS; }
