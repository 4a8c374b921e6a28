// The common PNG cover read without libpng: 8-bit RGB or RGBA, not interlaced, with nothing that
// changes its pixels beyond the samples themselves (no tRNS, no eXIf orientation, no palette).
// Its image data is inflated in one call of libdeflate (about twice zlib's speed) and unfiltered
// here. Anything else, and anything this reader is not sure libpng would accept, is left to
// libpng (lp_png_decode_argb32), so that every file decodes to the same pixels, or fails with the
// same message, either way; a differential fuzz target and PNGFastReadTests hold the two together.
#include "lp_png.h"
#include "lp_png_pixel.h"

#include <libdeflate.h>
#include <stdlib.h>
#include <string.h>

static uint32_t be32(const uint8_t *p) {
    return ((uint32_t)p[0] << 24) | ((uint32_t)p[1] << 16) | ((uint32_t)p[2] << 8) | (uint32_t)p[3];
}

static int is_letter(uint8_t c) { return (c >= 'A' && c <= 'Z') || (c >= 'a' && c <= 'z'); }

// A chunk's CRC (over its type and data) as stored.
static int crc_matches(const uint8_t *chunk, uint32_t length) {
    return (uint32_t)libdeflate_crc32(0, chunk + 4, (size_t)length + 4) == be32(chunk + 8 + length);
}

static uint8_t paeth(uint8_t a, uint8_t b, uint8_t c) {
    int p = (int)a + (int)b - (int)c;
    int pa = abs(p - (int)a), pb = abs(p - (int)b), pc = abs(p - (int)c);
    if (pa <= pb && pa <= pc) return a;
    return pb <= pc ? b : c;
}

// Undoes `filter` on `row` (`length` bytes, `bpp` bytes a pixel) into `out`, given the row above
// already unfiltered (`above`: zeros for the first row). Returns -1 for a filter type PNG lacks.
static int unfilter(uint8_t filter, const uint8_t *row, const uint8_t *above, size_t length, size_t bpp, uint8_t *out) {
    size_t i = 0;
    switch (filter) {
    case 0:
        memcpy(out, row, length);
        return 0;
    case 1:
        for (; i < bpp && i < length; i++) out[i] = row[i];
        for (; i < length; i++) out[i] = (uint8_t)(row[i] + out[i - bpp]);
        return 0;
    case 2:
        for (; i < length; i++) out[i] = (uint8_t)(row[i] + above[i]);
        return 0;
    case 3:
        for (; i < bpp && i < length; i++) out[i] = (uint8_t)(row[i] + (above[i] >> 1));
        for (; i < length; i++) out[i] = (uint8_t)(row[i] + (((unsigned)out[i - bpp] + above[i]) >> 1));
        return 0;
    case 4:
        for (; i < bpp && i < length; i++) out[i] = (uint8_t)(row[i] + above[i]);  // paeth(0, b, 0) = b
        for (; i < length; i++) out[i] = (uint8_t)(row[i] + paeth(out[i - bpp], above[i], above[i - bpp]));
        return 0;
    default:
        return -1;
    }
}

int lp_png_decode_fast(const uint8_t *data, size_t size, uint8_t *out, size_t stride, lp_png_info *info) {
    static const uint8_t signature[8] = {137, 'P', 'N', 'G', '\r', '\n', 26, '\n'};
    if (size < 8 + 25 || memcmp(data, signature, 8) != 0) return 0;
    // The header: first, 13 bytes, its CRC right.
    const uint8_t *ihdr = data + 8;
    if (be32(ihdr) != 13 || memcmp(ihdr + 4, "IHDR", 4) != 0 || !crc_matches(ihdr, 13)) return 0;
    uint32_t width = be32(ihdr + 8), height = be32(ihdr + 12);
    uint8_t depth = ihdr[16], color = ihdr[17];
    if (width == 0 || height == 0 || width > 0x7fffffffu || height > 0x7fffffffu) return 0;
    if (depth != 8 || (color != 2 && color != 6) || ihdr[18] != 0 || ihdr[19] != 0 || ihdr[20] != 0) return 0;
    size_t bpp = color == 6 ? 4 : 3;
    if ((size_t)width > (SIZE_MAX / 4 - 1) / bpp || stride < (size_t)width * 4) return 0;
    size_t row_bytes = (size_t)width * bpp;
    if ((size_t)height > SIZE_MAX / (row_bytes + 1) || (size_t)height > SIZE_MAX / stride) return 0;
    size_t filtered = (size_t)height * (row_bytes + 1);

    // The chunks up to IEND: the image data one run of IDATs, each CRC right; no critical chunk
    // but those, and no chunk that would change the pixels.
    size_t at = 8 + 25, idat_bytes = 0, idat_count = 0, first_idat = 0;
    int idat_run = 0, idat_done = 0, ended = 0;
    while (!ended) {
        if (size - at < 12) return 0;
        uint32_t length = be32(data + at);
        const uint8_t *type = data + at + 4;
        if (length > 0x7fffffffu || size - at - 12 < length) return 0;
        // Past libpng's chunk memory limit (8 MiB, see begin_read) a chunk is left to libpng,
        // but for an IDAT no larger than the filtered rows.
        int is_idat = memcmp(type, "IDAT", 4) == 0;
        if (length > 8u * 1024 * 1024 && !(is_idat && length <= filtered)) return 0;
        if (!is_letter(type[0]) || !is_letter(type[1]) || !is_letter(type[2]) || !is_letter(type[3])) return 0;
        if (is_idat) {
            if (idat_done || !crc_matches(data + at, length)) return 0;
            if (!idat_run) first_idat = at;
            idat_run = 1;
            idat_bytes += length;
            idat_count++;
        } else {
            if (idat_run) idat_done = 1;
            if (memcmp(type, "IEND", 4) == 0) {
                if (length != 0 || !crc_matches(data + at, 0)) return 0;
                ended = 1;
            } else if (!(type[0] & 0x20)) {
                return 0;  // PLTE, a second IHDR, or a critical chunk libpng does not know
            } else if (memcmp(type, "tRNS", 4) == 0 || memcmp(type, "eXIf", 4) == 0) {
                return 0;
            }
        }
        at += 12 + (size_t)length;
    }
    if (!idat_done || idat_bytes < 2) return 0;

    // The image data whole: the one IDAT in place, or the run's pieces copied together.
    const uint8_t *stream = data + first_idat + 8;
    uint8_t *joined = NULL;
    if (idat_count > 1) {
        joined = malloc(idat_bytes);
        if (joined == NULL) return 0;
        size_t offset = 0;
        for (size_t c = first_idat; offset < idat_bytes;) {
            uint32_t length = be32(data + c);
            memcpy(joined + offset, data + c + 8, length);
            offset += length;
            c += 12 + (size_t)length;
        }
        stream = joined;
    }
    // zlib with a 32 KiB window and no preset dictionary, as zlib reads it for libpng (a smaller
    // declared window makes zlib refuse distances libdeflate would take).
    // Inflated into the end of the output when a pixel grows from 3 bytes to 4 and the rows are
    // tight (row y's pixels never reach past the filtered row y + 1 they are made before), else
    // into a buffer of their own.
    int status = -1;
    int in_place = bpp == 3 && stride == (size_t)width * 4;
    size_t total = (size_t)height * stride;
    uint8_t *rows = NULL, *lines = NULL;
    if (stream[0] != 0x78 || (stream[1] & 0x20)) goto done;
    rows = in_place ? out + (total - filtered) : malloc(filtered);
    lines = calloc(2, row_bytes);
    if (rows == NULL || lines == NULL) goto done;
    struct libdeflate_decompressor *inflater = libdeflate_alloc_decompressor();
    if (inflater == NULL) goto done;
    enum libdeflate_result inflated = libdeflate_zlib_decompress(inflater, stream, idat_bytes, rows, filtered, NULL);
    libdeflate_free_decompressor(inflater);
    if (inflated != LIBDEFLATE_SUCCESS) goto done;

    uint8_t *above = lines, *current = lines + row_bytes;
    for (uint32_t y = 0; y < height; y++) {
        const uint8_t *row = rows + (size_t)y * (row_bytes + 1);
        if (unfilter(row[0], row + 1, above, row_bytes, bpp, current) != 0) goto done;
        uint8_t *dst = out + (size_t)y * stride;
        if (bpp == 3) {
            for (uint32_t x = 0; x < width; x++) {
                const uint8_t *p = current + (size_t)x * 3;
                uint32_t argb = 0xff000000u | ((uint32_t)p[0] << 16) | ((uint32_t)p[1] << 8) | p[2];
                memcpy(dst + (size_t)x * 4, &argb, 4);
            }
        } else {
            for (uint32_t x = 0; x < width; x++) {
                const uint8_t *p = current + (size_t)x * 4;
                lp_store_premultiplied(p[0], p[1], p[2], p[3], dst + (size_t)x * 4);
            }
        }
        uint8_t *swap = above;
        above = current;
        current = swap;
    }
    memset(info, 0, sizeof *info);
    info->width = width;
    info->height = height;
    info->bit_depth = 8;
    info->color_type = color;
    status = 1;
done:
    free(joined);
    free(lines);
    if (!in_place) free(rows);
    return status == 1 ? 1 : 0;
}
