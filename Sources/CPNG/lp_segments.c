// Pieces of a PNG whose image data is assembled from independently compressed row segments (see
// PNG.RowsEncoder): the Up filter over a row range, ISA-L level-0 raw deflate that ends byte-aligned and
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

// One stateless ISA-L level-0 compression of `in` into `out`: raw deflate blocks that end
// byte-aligned (a full flush), not final, referring to nothing before `in`. `tables`: Huffman
// tables to use, or NULL for ISA-L's defaults.
//
// Only level 0: ISA-L's levels 1 to 3 (the "ICF" path) hash the address of their stream into the
// output on x86-64 (docs/decisions/0004-png-segments-level-0.md), so the same rows could compress
// to other bytes in another process. Level 0 hashes its input alone, and the stream lives on the
// stack, zeroed: the bytes depend on `in` and nothing else.
static size_t compress_stateless(const uint8_t *in, size_t length, struct isal_hufftables *tables, uint8_t *out, size_t capacity) {
    struct isal_zstream stream;
    memset(&stream, 0, sizeof stream);
    isal_deflate_stateless_init(&stream);
    stream.level = 0;
    if (tables) stream.hufftables = tables;
    stream.gzip_flag = IGZIP_DEFLATE;
    stream.flush = FULL_FLUSH;  // byte-aligned end, no back-references past it
    stream.end_of_stream = 0;   // the final block comes after the last segment
    stream.next_in = (uint8_t *)in;
    stream.avail_in = (uint32_t)length;
    stream.next_out = out;
    stream.avail_out = capacity > UINT32_MAX ? UINT32_MAX : (uint32_t)capacity;
    return isal_deflate_stateless(&stream) == COMP_OK ? stream.total_out : 0;
}

size_t lp_deflate_segment(const uint8_t *in, size_t length, size_t row_length, int table_rows, uint8_t *out, size_t capacity) {
    if (length > INT32_MAX || table_rows < 0) return 0;
    if (table_rows == 0 || row_length == 0) return compress_stateless(in, length, NULL, out, capacity);
    // The histogram of the whole segment, or of pairs of rows (so that matches with the row
    // above, the Up filter's usual distance, are counted) 2 × `table_rows` rows apart.
    struct isal_huff_histogram histogram;
    memset(&histogram, 0, sizeof histogram);
    size_t run = table_rows == 1 ? length : 2 * row_length;
    for (size_t start = 0; start < length; start += run * (size_t)table_rows) {
        size_t n = length - start < run ? length - start : run;
        isal_update_histogram((uint8_t *)in + start, (int)n, &histogram);
    }
    struct isal_hufftables *tables = calloc(1, sizeof *tables);
    if (tables == NULL) return 0;
    // From all of the segment, codes for the symbols it holds alone (`_subset`); from a sample,
    // a code for every symbol, since the rows not sampled may hold others.
    int made = table_rows == 1 ? isal_create_hufftables_subset(tables, &histogram) : isal_create_hufftables(tables, &histogram);
    size_t size = made == 0 ? compress_stateless(in, length, tables, out, capacity) : 0;
    free(tables);
    return size;
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
