// Pieces of a PNG whose image data is assembled from independently compressed row segments (see
// PNG.RowsEncoder): the Up filter over a row range, ISA-L raw deflate that ends byte-aligned and
// refers to nothing before its start, and the checksums that tie the segments together.
#define _GNU_SOURCE  // MAP_FIXED_NOREPLACE
#include "lp_png.h"

#include <isa-l/igzip_lib.h>
#include <libdeflate.h>
#include <pthread.h>
#include <stdlib.h>
#include <string.h>
#include <sys/mman.h>
#include <unistd.h>
#include <zlib.h>
#if defined(__x86_64__)
#include <nmmintrin.h>
#endif
#ifndef MAP_FIXED_NOREPLACE
#define MAP_FIXED_NOREPLACE 0x100000
#endif

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
// `placed`: the stream to use (levels 1-3, see below), or NULL for one on the stack (level 0,
// whose body hashes only its input).
static size_t compress_stateless(struct isal_zstream *placed, const uint8_t *in, size_t length, uint32_t level, uint8_t *level_buf,
                                 uint32_t level_buf_size, struct isal_hufftables *tables, uint8_t *out, size_t capacity) {
    struct isal_zstream local;
    struct isal_zstream *stream = placed ? placed : &local;
    // Zeroed first: any state ISA-L does not reset must not come from an earlier use.
    memset(stream, 0, sizeof *stream);
    isal_deflate_stateless_init(stream);
    stream->level = level;
    stream->level_buf = level_buf;
    stream->level_buf_size = level_buf_size;
    if (tables) stream->hufftables = tables;
    stream->gzip_flag = IGZIP_DEFLATE;
    stream->flush = FULL_FLUSH;  // byte-aligned end, no back-references past it
    stream->end_of_stream = 0;   // the final block comes after the last segment
    stream->next_in = (uint8_t *)in;
    stream->avail_in = (uint32_t)length;
    stream->next_out = out;
    stream->avail_out = capacity > UINT32_MAX ? UINT32_MAX : (uint32_t)capacity;
    return isal_deflate_stateless(stream) == COMP_OK ? stream->total_out : 0;
}

// ISA-L's levels 1 to 3 (the "ICF" path) are not deterministic as ISA-L ships them: on the
// project's 2-core AMD EPYC, some processes compressed the same rows to other (valid) bytes, the
// same within that process, with address randomisation on and never with it off (level 1: 21 of
// 12 400 processes differed; level 2: 7 in 2000). It explained frames whose pixels were equal but
// whose files were not, and up to renderer version 12 the encoder used level 0 with each
// segment's own Huffman tables instead (below: deterministic, within 0.3 % of level 1's size, but
// the histogram is a second pass and it took about 1.7 times as long). The cause is in ISA-L
// (2.30, and its master branch in 2026-11): its level-1 body, which level 2 shares, at
// `.write_first_byte` in igzip_icf_body_h1_gr_bt.asm, hashes `rcx >> 16` for the third byte, but
// rcx still holds the stream's address there. That position goes into bucket
// crc32c((uint32_t)(address >> 16)) & hash_mask instead of its own, and later matches change with
// it. Streams whose addresses share that bucket give the same bytes (scripts/bench/isal-levels.c
// --stream-at shows it), so lp_deflate_segment places every level 1-3 stream at an address of
// bucket 0 (below), and the encoder uses level 1 again. Tables from a segment's first rows only
// were measured too: from 16 of its 32 rows, +1.0 % size for a fifth less time than own tables.

// Level 0 (ISA-L's greedy hash matcher) with Huffman tables made from the segment's own histogram.
static size_t deflate_own_tables(const uint8_t *in, size_t length, uint8_t *out, size_t capacity) {
    if (length > INT32_MAX) return 0;
    struct isal_huff_histogram histogram;
    memset(&histogram, 0, sizeof histogram);
    isal_update_histogram((uint8_t *)in, (int)length, &histogram);
    struct isal_hufftables *tables = calloc(1, sizeof *tables);
    if (tables == NULL) return 0;
    size_t size = isal_create_hufftables_subset(tables, &histogram) == 0
        ? compress_stateless(NULL, in, length, 0, NULL, 0, tables, out, capacity) : 0;
    free(tables);
    return size;
}

// ISA-L's levels 1 to 3 with every stream at an address of one hash bucket (see above).
//
// On x86-64, the level-1 body files the stream's third byte under the bucket
// crc32c((uint32_t)(address >> 16)) & hash_mask, where address is the isal_zstream's. A stream
// placed at the start of a 64 KiB slot whose crc32c((uint32_t)(slot >> 16)) has its low 16 bits
// zero gives bucket 0 for every hash mask up to 0xFFFF (level 1: 0x1FFF, level 2: 0x7FFF, less for
// short inputs), so every process compresses the same rows to the same bytes. The slots of that
// bucket are not evenly spread (the map from address bits to bucket is linear and not of full
// rank on the low bits: 3 in 10 windows of 1 GiB hold none of a given 13-bit bucket), so rather
// than reserve a window and search it, each stream is mapped straight at such a slot with
// MAP_FIXED_NOREPLACE (never over an existing mapping), trying the bucket's slots from
// 0x7f0000000000 down to 0x7a0000000000 (1 280 of them, the first at 0x7eff8a3e0000): below where
// the kernel usually puts libraries and stacks, and application memory under AddressSanitizer and
// ThreadSanitizer alike. A kernel that ignores the flag treats the address as a hint, and a
// mapping elsewhere is given back. Streams, each with its level buffer, are kept in a pool and
// reused, one per concurrent compression. Elsewhere than x86-64 (ISA-L's C or Arm bodies hash
// their input only), on one without SSE 4.2 (ISA-L then runs its C body) and should no slot map,
// the stream lives where it is allocated.
typedef struct {
    struct isal_zstream *stream;
    uint8_t *level_buf;
    size_t mapped;  // bytes mapped at `stream` (0: allocated with malloc, the level buffer inside)
} placed_stream;

// Level 3's buffer is the largest, so one buffer of its size serves every level.
enum { LEVEL_BUF_SIZE = ISAL_DEF_LVL3_DEFAULT, POOL_SIZE = 64, BUCKET_MASK = 0xFFFF };
_Static_assert(ISAL_DEF_LVL3_DEFAULT >= ISAL_DEF_LVL2_DEFAULT && ISAL_DEF_LVL3_DEFAULT >= ISAL_DEF_LVL1_DEFAULT,
               "one level buffer serves every level");

static pthread_mutex_t pool_lock = PTHREAD_MUTEX_INITIALIZER;
static placed_stream pool[POOL_SIZE];
static int pool_count;
#if defined(__x86_64__)
// The bucket of a slot, as ISA-L's `compute_hash` (one crc32 instruction from zero) makes it.
__attribute__((target("sse4.2"))) static uint32_t slot_hash(uint64_t slot) { return _mm_crc32_u32(0, (uint32_t)slot); }
static uint64_t next_slot = 0x7f0000000000ULL >> 16;  // the next slot to try, counting down
static const uint64_t lowest_slot = 0x7a0000000000ULL >> 16;  // ThreadSanitizer's application memory starts here
#endif

static size_t stream_bytes(void) {
    long page = sysconf(_SC_PAGESIZE);
    size_t p = page > 0 ? (size_t)page : 4096;
    return (sizeof(struct isal_zstream) + p - 1) / p * p;
}

// A new stream with its level buffer: at a slot of bucket 0 if one maps. Called with pool_lock held.
static placed_stream new_stream(void) {
    placed_stream made = {NULL, NULL, 0};
    size_t size = stream_bytes() + LEVEL_BUF_SIZE;
#if defined(__x86_64__)
    // Without SSE 4.2, ISA-L runs its C body, which hashes its input only.
    int placeable = __builtin_cpu_supports("sse4.2");
    for (int tries = 0; placeable && tries < 4096 && next_slot > lowest_slot; next_slot--) {
        if ((slot_hash(next_slot) & BUCKET_MASK) != 0) continue;
        tries++;
        void *address = (void *)(uintptr_t)(next_slot << 16);
        void *mapped = mmap(address, size, PROT_READ | PROT_WRITE, MAP_PRIVATE | MAP_ANONYMOUS | MAP_FIXED_NOREPLACE, -1, 0);
        if (mapped == address) {
            next_slot--;
            made.stream = mapped;
            made.level_buf = (uint8_t *)mapped + stream_bytes();
            made.mapped = size;
            return made;
        }
        if (mapped != MAP_FAILED) munmap(mapped, size);
    }
#endif
    uint8_t *block = malloc(size);
    if (block == NULL) return made;
    made.stream = (struct isal_zstream *)(void *)block;
    made.level_buf = block + stream_bytes();
    return made;
}

static placed_stream take_stream(void) {
    pthread_mutex_lock(&pool_lock);
    placed_stream taken = pool_count > 0 ? pool[--pool_count] : new_stream();
    pthread_mutex_unlock(&pool_lock);
    return taken;
}

static void give_back(placed_stream stream) {
    pthread_mutex_lock(&pool_lock);
    int kept = pool_count < POOL_SIZE;
    if (kept) pool[pool_count++] = stream;
    pthread_mutex_unlock(&pool_lock);
    if (kept) return;
    if (stream.mapped) munmap(stream.stream, stream.mapped);
    else free(stream.stream);
}

int lp_deflate_stream_buckets(uint32_t *buckets, int count) {
    if (count < 1 || count > POOL_SIZE) return -1;
#if defined(__x86_64__)
    if (!__builtin_cpu_supports("sse4.2")) return 0;
    placed_stream taken[POOL_SIZE];
    int made = 0;
    for (; made < count; made++) {
        taken[made] = take_stream();
        if (taken[made].stream == NULL) break;
        buckets[made] = slot_hash((uint64_t)(uintptr_t)taken[made].stream >> 16) & BUCKET_MASK;
    }
    for (int i = 0; i < made; i++) give_back(taken[i]);
    return made == count ? 1 : -1;
#else
    (void)buckets;
    return 0;
#endif
}

size_t lp_deflate_segment(const uint8_t *in, size_t length, int level, uint8_t *out, size_t capacity) {
    if (level == LP_DEFLATE_OWN_TABLES) return deflate_own_tables(in, length, out, capacity);
    if (length > UINT32_MAX || level < 0 || level > 3) return 0;
    if (level == 0) return compress_stateless(NULL, in, length, 0, NULL, 0, NULL, out, capacity);
    static const uint32_t level_sizes[4] = {0, ISAL_DEF_LVL1_DEFAULT, ISAL_DEF_LVL2_DEFAULT, ISAL_DEF_LVL3_DEFAULT};
    placed_stream stream = take_stream();
    if (stream.stream == NULL) return 0;
    // Zeroed, like the stream: nothing an earlier compression left may reach this one.
    memset(stream.level_buf, 0, level_sizes[level]);
    size_t size = compress_stateless(stream.stream, in, length, (uint32_t)level, stream.level_buf, level_sizes[level], NULL, out, capacity);
    give_back(stream);
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
