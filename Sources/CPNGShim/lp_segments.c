// Pieces of a PNG whose IDAT is assembled from independently compressed row segments (see
// PNG.RowsEncoder): the Up filter over a row range, ISA-L raw deflate that ends byte-aligned and
// refers to nothing before its start, and the checksums that tie the segments together.
#include "lp_png.h"

#include <isa-l/igzip_lib.h>
#include <libdeflate.h>
#include <stdlib.h>
#include <string.h>
#include <zlib.h>

void lp_png_filter_up_rows(const uint8_t *rows, size_t row_bytes, uint32_t y0, uint32_t y1, uint8_t *out) {
    for (uint32_t y = y0; y < y1; y++) {
        uint8_t *dst = out + (size_t)(y - y0) * (row_bytes + 1);
        const uint8_t *row = rows + (size_t)y * row_bytes;
        if (y == 0) {
            dst[0] = 0;
            memcpy(dst + 1, row, row_bytes);
        } else {
            const uint8_t *above = row - row_bytes;
            dst[0] = 2;
            for (size_t i = 0; i < row_bytes; i++) dst[1 + i] = (uint8_t)(row[i] - above[i]);
        }
    }
}

size_t lp_deflate_segment_bound(size_t length) {
    // Stored blocks cost 5 bytes per 64 KiB; generous room for headers and Huffman tables.
    return length + length / 8 + 4096;
}

size_t lp_deflate_segment(const uint8_t *in, size_t length, int level, uint8_t *out, size_t capacity) {
    if (length > UINT32_MAX || level < 0 || level > 3) return 0;
    static const uint32_t level_sizes[4] = {0, ISAL_DEF_LVL1_DEFAULT, ISAL_DEF_LVL2_DEFAULT, ISAL_DEF_LVL3_DEFAULT};
    // Zeroed, like the stream: hash entries left in a recycled allocation by an earlier
    // compression can change which matches are found, and so the bytes (seen: a warm run of
    // `frame` differing by 2 bytes from a cold one with identical pixels).
    uint8_t *level_buf = level_sizes[level] ? calloc(1, level_sizes[level]) : NULL;
    if (level_sizes[level] && level_buf == NULL) return 0;
    // Zeroed first, like the level buffer: any state ISA-L does not reset must not come from
    // whatever was on the stack.
    struct isal_zstream stream;
    memset(&stream, 0, sizeof stream);
    isal_deflate_stateless_init(&stream);
    stream.level = (uint32_t)level;
    stream.level_buf = level_buf;
    stream.level_buf_size = level_sizes[level];
    stream.gzip_flag = IGZIP_DEFLATE;
    stream.flush = FULL_FLUSH;  // byte-aligned end, no back-references past it
    stream.end_of_stream = 0;   // the final block comes after the last segment
    stream.next_in = (uint8_t *)in;
    stream.avail_in = (uint32_t)length;
    stream.next_out = out;
    stream.avail_out = capacity > UINT32_MAX ? UINT32_MAX : (uint32_t)capacity;
    int status = isal_deflate_stateless(&stream);
    free(level_buf);
    return status == COMP_OK ? stream.total_out : 0;
}

uint32_t lp_adler32(uint32_t adler, const uint8_t *data, size_t length) {
    return isal_adler32(adler, data, length);
}

uint32_t lp_adler32_combine(uint32_t first, uint32_t second, size_t second_length) {
    return (uint32_t)adler32_combine((uLong)first, (uLong)second, (z_off_t)second_length);
}

uint32_t lp_crc32(uint32_t crc, const uint8_t *data, size_t length) {
    return libdeflate_crc32(crc, data, length);
}
