// A plain C view of what TagLib reads from an audio file: the common tags, the audio length,
// every embedded lyric text, the first synchronised (SYLT) lyric frame and every embedded picture.
//
// Why a C shim: TagLib is a C++ library whose classes Swift's C++ interop cannot import here, so
// this small target calls it and hands Swift plain structs of malloc'd buffers (the same pattern
// as CPNG does for libpng's setjmp). Everything returned is freed by lp_tags_free.
#ifndef LP_TAGS_H
#define LP_TAGS_H

#include <stddef.h>

#ifdef __cplusplus
extern "C" {
#endif

typedef struct {
    char *source;   // where it was found: "uslt", "txxx:LYRICS", "vorbis:LYRICS", "mp4:©lyr", …
    char *text;     // UTF-8
} lp_tag_text;

typedef struct {
    long long time; // milliseconds (or MPEG frames when lp_tags.sylt_in_frames is set)
    char *text;     // UTF-8, as written (may start with a line break)
} lp_sylt_entry;

typedef struct {
    char *source;   // "apic", "flac:picture", "vorbis:METADATA_BLOCK_PICTURE", "mp4:covr"
    int type;       // ID3/FLAC picture type (3 = front cover), -1 when the format has none
    char *mime;     // may be empty
    unsigned char *data;
    size_t size;
} lp_tag_picture;

typedef struct {
    char *title, *artist, *album;     // NULL when absent
    long long length_ms;              // 0 when unknown
    lp_tag_text *lyrics;
    size_t lyrics_count;
    lp_sylt_entry *sylt;
    size_t sylt_count;
    int sylt_in_frames;               // the SYLT frame counts MPEG frames, not milliseconds
    lp_tag_picture *pictures;
    size_t picture_count;
    size_t pictures_skipped;          // pictures over max_picture_bytes, not copied
    char message[256];                // why reading failed
} lp_tags;

// Reads `path`. Pictures larger than max_picture_bytes are counted in pictures_skipped, not
// copied; at most max_items lyric texts, SYLT entries and pictures are kept each.
// Returns 0 on success, 1 when the file cannot be opened or is not an audio file TagLib knows.
int lp_tags_read(const char *path, size_t max_picture_bytes, size_t max_items, lp_tags *out);

void lp_tags_free(lp_tags *tags);

// The TagLib version of the headers this was built with, "1.13.0" (`lyricposter --version`).
const char *lp_taglib_version(void);

#ifdef __cplusplus
}
#endif

#endif
