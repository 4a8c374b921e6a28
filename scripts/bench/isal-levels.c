// The ISA-L choices behind PNG.RowsEncoder, measured on real frames: each frame is Up-filtered
// and cut into 32-row segments as the encoder does (its own lp_png_filter_up_rows), then
// compressed in several ways, through the encoder's own lp_deflate_segment where it has them.
//
//   cc -O2 -ISources/CPNGShim/include scripts/bench/isal-levels.c Sources/CPNGShim/lp_segments.c
//      -o .build/bench/isal-levels -lisal -ldeflate -lz -lpng -lpthread   (one command line)
//   .build/bench/isal-levels frame.png...            size and time of each way
//   .build/bench/isal-levels --digest 1 frame.png... one digest of every segment at level 1
//   .build/bench/isal-levels --stack --digest 1 frame.png...
//                                                    the same with the stream on this stack
//   .build/bench/isal-levels --stream-at 7ffd987812a0 --digest 1 frame.png...
//                                                    the same with the stream at that address
//
// Levels 1-3 go through the encoder's lp_deflate_segment (its streams placed at addresses of hash
// bucket 0) unless --stack or --stream-at is given. The digest is for counting, over many
// processes, how many different outputs one input gets:
//   for i in $(seq 2000); do .build/bench/isal-levels --digest 1 a.png b.png; done | sort | uniq -c
// The encoder's level 1 (what LyricPoster uses) and level 0 with each segment's own tables give
// one digest; levels 1 and 2 with --stack give a second one in a few hundred to a few thousand
// processes (see lp_segments.c). Prefix the command with `setarch -R` to run without address
// randomisation.
//
// Why level 1 differs: ISA-L's level-1 body (igzip_icf_body_h1_gr_bt.asm, `.write_first_byte`,
// still so in its master branch in 2026-11) hashes `rcx >> 16` for the third input byte, but on
// that path rcx still holds the address of the `isal_zstream` (the function's argument), not the
// input. The position is filed under the bucket crc32c((uint32_t)(address >> 16)) & hash_mask
// instead of its own, which changes which matches are found later. `--stream-at` shows it:
// streams at addresses with the same bucket give the same bytes, the others may not.
#include "lp_png.h"

#include <isa-l/igzip_lib.h>
#include <png.h>
#include <sys/mman.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>

enum { SEGMENT_ROWS = 32, OWN_TABLES = -1 };

// Where the stream of levels 1-3 lives: the encoder's (lp_deflate_segment: at an address of hash
// bucket 0) unless --stack (this program's stack) or --stream-at (that address) says otherwise.
static struct isal_zstream *placed_stream;
static int on_stack;

static double now(void) {
    struct timespec t;
    clock_gettime(CLOCK_MONOTONIC, &t);
    return (double)t.tv_sec + (double)t.tv_nsec * 1e-9;
}

// `sampled_rows` > 0: the tables are made from the histogram of the segment's first rows only
// (every symbol is then given a count of at least one, so rows outside the sample still encode).
// Level 0 with the segment's whole histogram, and levels 1-3 unless the stream is to be on this
// stack or at a given address, are the encoder's own calls.
static size_t compress(uint8_t *in, size_t length, size_t row_bytes, int level, size_t sampled_rows, uint8_t *out, size_t capacity) {
    if (sampled_rows == 0 && (level == OWN_TABLES || (level > 0 && placed_stream == NULL && !on_stack)))
        return lp_deflate_segment(in, length, level, out, capacity);
    static const uint32_t level_sizes[4] = {0, ISAL_DEF_LVL1_DEFAULT, ISAL_DEF_LVL2_DEFAULT, ISAL_DEF_LVL3_DEFAULT};
    struct isal_hufftables *tables = NULL;
    uint8_t *level_buf = NULL;
    if (level == OWN_TABLES) {
        struct isal_huff_histogram histogram;
        memset(&histogram, 0, sizeof histogram);
        size_t rows = length / row_bytes;
        size_t counted = sampled_rows < rows ? sampled_rows * row_bytes : length;
        isal_update_histogram(in, (int)counted, &histogram);
        if (counted < length) {
            for (int i = 0; i < ISAL_DEF_LIT_LEN_SYMBOLS; i++) histogram.lit_len_histogram[i] += histogram.lit_len_histogram[i] == 0;
            for (int i = 0; i < ISAL_DEF_DIST_SYMBOLS; i++) histogram.dist_histogram[i] += histogram.dist_histogram[i] == 0;
        }
        tables = calloc(1, sizeof *tables);
        if (tables == NULL || isal_create_hufftables_subset(tables, &histogram) != 0) return free(tables), 0;
    } else if (level > 0) {
        level_buf = calloc(1, level_sizes[level]);
        if (level_buf == NULL) return 0;
    }
    struct isal_zstream local;
    struct isal_zstream *stream = placed_stream ? placed_stream : &local;
    memset(stream, 0, sizeof *stream);
    isal_deflate_stateless_init(stream);
    stream->level = level == OWN_TABLES ? 0 : (uint32_t)level;
    stream->level_buf = level_buf;
    stream->level_buf_size = level > 0 ? level_sizes[level] : 0;
    if (tables) stream->hufftables = tables;
    stream->gzip_flag = IGZIP_DEFLATE;
    stream->flush = FULL_FLUSH;
    stream->next_in = in;
    stream->avail_in = (uint32_t)length;
    stream->next_out = out;
    stream->avail_out = (uint32_t)capacity;
    int status = isal_deflate_stateless(stream);
    free(tables);
    free(level_buf);
    return status == COMP_OK ? stream->total_out : 0;
}

// Packed RGB rows of `path`, Up-filtered as PNG.RowsEncoder does (row 0: none).
static uint8_t *filtered_frame(const char *path, size_t *row_bytes, size_t *height) {
    png_image image;
    memset(&image, 0, sizeof image);
    image.version = PNG_IMAGE_VERSION;
    if (!png_image_begin_read_from_file(&image, path)) return NULL;
    image.format = PNG_FORMAT_RGB;
    size_t rgb_bytes = (size_t)image.width * 3;
    uint8_t *rgb = malloc(rgb_bytes * image.height);
    if (rgb == NULL || !png_image_finish_read(&image, NULL, rgb, 0, NULL)) return free(rgb), NULL;
    *row_bytes = rgb_bytes + 1;
    *height = image.height;
    uint8_t *filtered = malloc(*row_bytes * image.height);
    if (filtered == NULL) return free(rgb), NULL;
    lp_png_filter_up_rows(rgb, rgb_bytes, 0, image.height, filtered);
    free(rgb);
    return filtered;
}

int main(int argc, char **argv) {
    int digest_level = -2, first = 1;
    if (argc > 1 && strcmp(argv[1], "--stack") == 0) on_stack = 1, first = 2;
    else if (argc > 2 && strcmp(argv[1], "--stream-at") == 0) {
        uintptr_t address = (uintptr_t)strtoull(argv[2], NULL, 16);
        uintptr_t page = address & ~(uintptr_t)4095;
        size_t size = (address - page + sizeof(struct isal_zstream) + 4095) & ~(size_t)4095;
        void *mapped = mmap((void *)page, size, PROT_READ | PROT_WRITE, MAP_PRIVATE | MAP_ANONYMOUS | MAP_FIXED_NOREPLACE, -1, 0);
        if (mapped != (void *)page) {
            fprintf(stderr, "--stream-at %s: that address is not free\n", argv[2]);
            return 2;
        }
        placed_stream = (struct isal_zstream *)address;
        first = 3;
    }
    if (argc > first + 1 && strcmp(argv[first], "--digest") == 0) {
        char *end;
        long level = strtol(argv[first + 1], &end, 10);
        if (*end != '\0' || level < -1 || level > 3) {
            fprintf(stderr, "--digest %s: the level is -1 (level 0 with own tables) or 0 to 3\n", argv[first + 1]);
            return 2;
        }
        digest_level = (int)level, first += 2;
    }
    if (first >= argc) {
        fprintf(stderr, "usage: %s [--stack | --stream-at HEX] [--digest LEVEL] frame.png...\n", argv[0]);
        return 2;
    }
    struct { const char *name; int level; size_t sampled; } ways[] = {
        {"level 0, own tables (up to renderer 12)", OWN_TABLES, 0},
        {"level 0, tables from the first 16 rows", OWN_TABLES, 16},
        {"level 0, tables from the first 8 rows", OWN_TABLES, 8},
        {"level 0, ISA-L's default tables", 0, 0},
        {"level 1 (LyricPoster)", 1, 0},
        {"level 2", 2, 0},
    };
    size_t way_count = digest_level == -2 ? sizeof ways / sizeof ways[0] : 1;
    if (digest_level != -2) ways[0].level = digest_level, ways[0].sampled = 0;
    for (size_t w = 0; w < way_count; w++) {
        size_t total = 0;
        double seconds = 0;
        uint64_t digest = 1469598103934665603ULL;  // FNV-1a
        for (int a = first; a < argc; a++) {
            size_t row_bytes, height;
            uint8_t *filtered = filtered_frame(argv[a], &row_bytes, &height);
            if (filtered == NULL) {
                fprintf(stderr, "%s: not a readable PNG\n", argv[a]);
                return 1;
            }
            size_t capacity = row_bytes * SEGMENT_ROWS * 2 + 4096;
            uint8_t *out = malloc(capacity);
            if (out == NULL) {
                fprintf(stderr, "%s: out of memory\n", argv[a]);
                return 1;
            }
            for (size_t y = 0; y < height; y += SEGMENT_ROWS) {
                size_t rows = height - y < SEGMENT_ROWS ? height - y : SEGMENT_ROWS;
                double start = now();
                size_t size = compress(filtered + y * row_bytes, rows * row_bytes, row_bytes, ways[w].level, ways[w].sampled, out, capacity);
                seconds += now() - start;
                if (size == 0) {
                    fprintf(stderr, "%s: compression failed\n", argv[a]);
                    return 1;
                }
                total += size;
                for (size_t i = 0; i < size; i++) digest = (digest ^ out[i]) * 1099511628211ULL;
            }
            free(out);
            free(filtered);
        }
        if (digest_level != -2) printf("%016llx\n", (unsigned long long)digest);
        else printf("%-40s %10zu bytes %8.1f ms\n", ways[w].name, total, seconds * 1000);
    }
    return 0;
}
