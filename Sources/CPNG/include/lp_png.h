#ifndef LP_PNG_H
#define LP_PNG_H
// The PNG codec: a minimal C shim around libpng, the PNG writers around libdeflate and ISA-L, and
// the checksums they need. (Pixel loops are CPixels'; this target only reads and writes PNG.)
//
// libpng reports fatal errors with longjmp, which Swift cannot unwind through, so every call that
// may longjmp lives here behind setjmp and comes back to Swift as a status code plus a message.
#include <stddef.h>
#include <stdint.h>

#define LP_PNG_MESSAGE_SIZE 200

typedef struct {
    uint32_t width;
    uint32_t height;
    int bit_depth;
    int color_type;
    int interlaced;
    // EXIF orientation (1-8) from an eXIf chunk, 0 when absent.
    int exif_orientation;
    char message[LP_PNG_MESSAGE_SIZE];
} lp_png_info;

/// Reads the signature and header only. Returns 0 on success, -1 with info->message set otherwise.
int lp_png_read_header(const uint8_t *data, size_t size, lp_png_info *info);

/// Decodes the whole image into `out` as premultiplied native-endian ARGB32 (cairo's
/// CAIRO_FORMAT_ARGB32), `stride` bytes per row. `out` must hold height * stride bytes for the
/// header's width and height. Returns 0 on success, -1 with info->message set otherwise.
int lp_png_decode_argb32(const uint8_t *data, size_t size, uint8_t *out, size_t stride,
                         lp_png_info *info);

/// The same decode without libpng for the common case (lp_png_fast.c): 8-bit RGB or RGBA, not
/// interlaced, no tRNS, eXIf or PLTE, every critical chunk whole and its CRC right, the image data
/// one zlib stream that libdeflate inflates to exactly the filtered rows. Returns 1 with `out`
/// and `info` filled as lp_png_decode_argb32 fills them; 0 for anything else (`out` may have been
/// written): the caller then decodes with lp_png_decode_argb32, which writes every pixel again.
int lp_png_decode_fast(const uint8_t *data, size_t size, uint8_t *out, size_t stride, lp_png_info *info);

typedef struct {
    uint8_t *data;
    size_t size;
    size_t capacity;
} lp_png_buffer;

/// Encodes packed 8-bit RGB (`channels` 3) or RGBA (4) rows through libpng. `level` is the zlib
/// level (0-9), `strategy` a zlib strategy, `filters` a PNG_FILTER_* mask (0 = libpng's default).
/// On success `out` holds malloc'd bytes the caller frees with lp_png_buffer_free.
int lp_png_encode(const uint8_t *rows, uint32_t width, uint32_t height, int channels,
                  int level, int strategy, int filters,
                  lp_png_buffer *out, char message[LP_PNG_MESSAGE_SIZE]);

/// Encodes the same input with a minimal PNG writer around libdeflate: one IDAT of a zlib stream
/// made by libdeflate at `level` (1-12) from rows filtered with the Up filter (`up` non-zero) or
/// none. Same output contract as lp_png_encode.
int lp_png_encode_libdeflate(const uint8_t *rows, uint32_t width, uint32_t height, int channels,
                             int level, int up, lp_png_buffer *out, char message[LP_PNG_MESSAGE_SIZE]);

/// Encodes `indices` (width * height bytes, row-major, one palette index a pixel) as a palette PNG
/// of `bit_depth` bits a pixel (1, 2, 4 or 8; pixels packed most significant bits first), its
/// PLTE the `colours` (1 to 1 << bit_depth) RGB triples of `palette_rgb`. Only IHDR, PLTE, IDAT
/// and IEND are written (no time, text or colour-space chunks), so the bytes depend on the input
/// alone.
///
/// Every index is checked before anything is written: one of `colours` or more is refused. Same
/// output contract as lp_png_encode (on failure `out` is empty and `message` set).
int lp_png_write_indexed(const uint8_t *indices, uint32_t width, uint32_t height,
                         const uint8_t *palette_rgb, int colours, int bit_depth,
                         lp_png_buffer *out, char message[LP_PNG_MESSAGE_SIZE]);

void lp_png_buffer_free(lp_png_buffer *buffer);

// Segments of one zlib stream, an IDAT each (lp_segments.c).

/// Writes rows [y0, y1) of packed rows (`row_bytes` each) PNG-filtered into `out`, each a filter
/// byte and the row: Up (minus the row above, which may lie before y0) or, for row 0, none.
/// `out` holds (row_bytes + 1) * (y1 - y0) bytes.
void lp_png_filter_up_rows(const uint8_t *rows, size_t row_bytes, uint32_t y0, uint32_t y1, uint8_t *out);

/// Room `lp_deflate_segment` may need for `length` input bytes.
size_t lp_deflate_segment_bound(size_t length);

/// Compresses `in` with ISA-L level 0 as raw deflate blocks that end byte-aligned, are not final,
/// and refer to nothing before `in`: segments made this way concatenate into one deflate stream.
/// `table_rows`: 0 for ISA-L's default Huffman tables; 1 for tables made from the histogram of
/// all of `in` (a code only for the symbols it holds); k > 1 for tables from two rows (of
/// `row_length` bytes) out of every 2k, a pass over 1/k of it, with a code for every symbol.
/// Returns the compressed size, 0 on failure. Thread-safe; the bytes depend on the input alone.
size_t lp_deflate_segment(const uint8_t *in, size_t length, size_t row_length, int table_rows, uint8_t *out, size_t capacity);

/// Adler-32 (ISA-L), and of two pieces combined (zlib): the second's checksum and length.
uint32_t lp_adler32(uint32_t adler, const uint8_t *data, size_t length);
uint32_t lp_adler32_combine(uint32_t first, uint32_t second, size_t second_length);

/// CRC-32 as PNG chunks use it (libdeflate), continued from `crc` (0 to start).
uint32_t lp_crc32(uint32_t crc, const uint8_t *data, size_t length);

/// zlib strategy and PNG filter constants, re-exported so Swift needs no zlib or png headers.
int lp_png_strategy_default(void);
int lp_png_strategy_rle(void);
int lp_png_strategy_filtered(void);
int lp_png_strategy_huffman(void);
int lp_png_filter_none(void);
int lp_png_filter_sub(void);
int lp_png_filter_up(void);
int lp_png_filter_all(void);


// The versions of libpng, zlib, libdeflate and ISA-L headers this was built with
// (`lyricposter --version`), as "name version" strings; index 0..3, NULL past the end.
const char *lp_codec_version(int index);

#endif
