// Pieces of a PNG whose image data is assembled from independently compressed row segments (see
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

// One stateless ISA-L compression of `in` into `out`: raw deflate blocks that end byte-aligned
// (a full flush), not final, referring to nothing before `in`.
static size_t compress_stateless(const uint8_t *in, size_t length, uint32_t level, uint8_t *level_buf, uint32_t level_buf_size,
                                 struct isal_hufftables *tables, uint8_t *out, size_t capacity) {
    // Zeroed first: any state ISA-L does not reset must not come from whatever was on the stack.
    struct isal_zstream stream;
    memset(&stream, 0, sizeof stream);
    isal_deflate_stateless_init(&stream);
    stream.level = level;
    stream.level_buf = level_buf;
    stream.level_buf_size = level_buf_size;
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

// Level 0 (ISA-L's greedy hash matcher) with Huffman tables made from the segment's own
// histogram. ISA-L's levels 1 to 3 (the "ICF" path) are not deterministic on every machine: on
// the project's 2-core AMD EPYC, some processes compress the same rows to other (valid) bytes,
// the same within that process, with address randomisation on and never with it off. A 40-line
// C program shows it: at level 1, 10 processes in 600 differed (0 in 600 with randomisation
// off); at level 2, 7 in 2000. It explained frames whose pixels were equal but whose files were
// not. Level 0 was byte-identical in every process (1000 with the segment's own tables, 3000 with
// ISA-L's default ones); with its own tables it is within 0.3 % of level 1's size on a
// photographic frame, and takes about 1.7 times as long (the histogram is a second pass).
// scripts/bench/isal-levels.c measures these ways and counts digests over processes (level 1,
// 2026-11: 21 of 12 400 processes differed; level 0 with own tables, 0 in 2000). The cause is in
// ISA-L (2.30, and its master branch in 2026-11): its level-1 body, at `.write_first_byte` in
// igzip_icf_body_h1_gr_bt.asm, hashes `rcx >> 16` for the third byte, but rcx still holds the
// stream's address there. That position goes into bucket crc32c((uint32_t)(address >> 16)) &
// hash_mask instead of its own, and later matches change with it. Streams whose addresses share
// that bucket give the same bytes (isal-levels --stream-at shows it), so level 1 would be
// deterministic with every stream at an address of one chosen bucket. Tables from a segment's
// first rows only cost size instead: from 16 of its 32 rows, +1.0 % for a fifth less time.
static size_t deflate_own_tables(const uint8_t *in, size_t length, uint8_t *out, size_t capacity) {
    if (length > INT32_MAX) return 0;
    struct isal_huff_histogram histogram;
    memset(&histogram, 0, sizeof histogram);
    isal_update_histogram((uint8_t *)in, (int)length, &histogram);
    struct isal_hufftables *tables = calloc(1, sizeof *tables);
    if (tables == NULL) return 0;
    size_t size = isal_create_hufftables_subset(tables, &histogram) == 0
        ? compress_stateless(in, length, 0, NULL, 0, tables, out, capacity) : 0;
    free(tables);
    return size;
}

size_t lp_deflate_segment(const uint8_t *in, size_t length, int level, uint8_t *out, size_t capacity) {
    if (level == LP_DEFLATE_OWN_TABLES) return deflate_own_tables(in, length, out, capacity);
    if (length > UINT32_MAX || level < 0 || level > 3) return 0;
    static const uint32_t level_sizes[4] = {0, ISAL_DEF_LVL1_DEFAULT, ISAL_DEF_LVL2_DEFAULT, ISAL_DEF_LVL3_DEFAULT};
    // Zeroed, like the stream: hash entries left in a recycled allocation by an earlier
    // compression can change which matches are found, and so the bytes.
    uint8_t *level_buf = level_sizes[level] ? calloc(1, level_sizes[level]) : NULL;
    if (level_sizes[level] && level_buf == NULL) return 0;
    size_t size = compress_stateless(in, length, (uint32_t)level, level_buf, level_sizes[level], NULL, out, capacity);
    free(level_buf);
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
