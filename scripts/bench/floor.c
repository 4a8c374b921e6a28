// The whole-frame C floor: what `lyricposter lines` does (one PNG per lyric line: the cover filling
// the frame, darkened, with the previous, current and next lines), done the simplest way a C
// programmer would, so the benchmark can show how far LyricPoster is from it.
//
//   cc -O2 -pthread floor.c -o floor $(pkg-config --cflags --libs pangocairo fontconfig libturbojpeg) -ldeflate
//   floor COVER.jpg SONG.lrc OUTDIR WIDTH HEIGHT JOBS FONTFILE_DIR
//
// Once: decode the JPEG with TurboJPEG (DCT-scaled to the smallest size that still covers the
// frame, as lyricposter does), scale and centre-crop it to WIDTH×HEIGHT with Cairo's GOOD filter,
// darken it with a 45% black overlay. Per line, in JOBS threads (frame i on thread i % JOBS): copy
// the backdrop, draw three lines with Pango, convert ARGB32 → RGB, Up filter, libdeflate level 1
// (zlib), write signature + IHDR + IDAT + IEND to OUTDIR/NNNN.png (1-based) via a temporary file and
// rename (OUTDIR is created if missing). Prints nothing on success; one line on stderr and exit
// status 1 on failure.
#include <cairo.h>
#include <errno.h>
#include <fontconfig/fontconfig.h>
#include <libdeflate.h>
#include <pango/pangocairo.h>
#include <pthread.h>
#include <stdarg.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <turbojpeg.h>
#include <unistd.h>

static void fail(const char *format, ...) {
    va_list args;
    va_start(args, format);
    fputs("floor: ", stderr);
    vfprintf(stderr, format, args);
    fputc('\n', stderr);
    va_end(args);
    exit(1);
}

static unsigned char *read_file(const char *path, size_t *size) {
    FILE *f = fopen(path, "rb");
    if (!f) fail("cannot open %s: %s", path, strerror(errno));
    size_t capacity = 1 << 20, used = 0;
    unsigned char *data = malloc(capacity);
    for (;;) {
        if (!data) fail("out of memory reading %s", path);
        used += fread(data + used, 1, capacity - used, f);
        if (used < capacity) break;
        capacity *= 2;
        data = realloc(data, capacity);
    }
    if (ferror(f)) fail("cannot read %s", path);
    fclose(f);
    *size = used;
    return data;
}

// MARK: lyrics

typedef struct { long ms; char *text; } Line;

static int parse_stamp(const char *p, long *ms, const char **end, char close) {
    // mm:ss, mm:ss.x, mm:ss.xx or mm:ss.xxx, then `close`.
    char *q;
    long minutes = strtol(p, &q, 10);
    if (q == p || *q != ':' || minutes < 0) return 0;
    p = q + 1;
    if (p[0] < '0' || p[0] > '9') return 0;
    long seconds = strtol(p, &q, 10);
    long fraction = 0;
    if (*q == '.' || *q == ':') {
        int digits = 0;
        for (q++; *q >= '0' && *q <= '9'; q++, digits++)
            if (digits < 3) fraction = fraction * 10 + (*q - '0');
        for (int d = digits; d < 3; d++) fraction *= 10;
    }
    if (*q != close) return 0;
    *ms = minutes * 60000 + seconds * 1000 + fraction;
    *end = q + 1;
    return 1;
}

static int by_time(const void *a, const void *b) {
    const Line *x = a, *y = b;
    return x->ms < y->ms ? -1 : x->ms > y->ms ? 1 : 0;
}

// Lines with a leading [mm:ss.xx] and some text; word tags <mm:ss.xx> are dropped; tag lines
// ([ti:...]) and empty lines (the end marker) make no frame.
static Line *parse_lrc(char *text, int *count) {
    int capacity = 256, n = 0;
    Line *lines = malloc(sizeof *lines * capacity);
    for (char *line = strtok(text, "\n"); line; line = strtok(NULL, "\n")) {
        size_t length = strlen(line);
        while (length && (line[length - 1] == '\r' || line[length - 1] == ' ')) line[--length] = 0;
        const char *rest;
        long ms;
        if (line[0] != '[' || !parse_stamp(line + 1, &ms, &rest, ']')) continue;
        char *out = malloc(strlen(rest) + 1), *o = out;
        for (const char *p = rest; *p;) {
            const char *after;
            long word;
            if (*p == '<' && parse_stamp(p + 1, &word, &after, '>')) { p = after; continue; }
            *o++ = *p++;
        }
        *o = 0;
        char *start = out;
        while (*start == ' ') start++;
        while (o > start && o[-1] == ' ') *--o = 0;
        if (!*start) { free(out); continue; }
        memmove(out, start, strlen(start) + 1);
        if (n == capacity) lines = realloc(lines, sizeof *lines * (capacity *= 2));
        lines[n++] = (Line){ms, out};
    }
    qsort(lines, n, sizeof *lines, by_time);
    *count = n;
    return lines;
}

// MARK: frames

typedef struct {
    const Line *lines;
    int count, width, height, jobs, index;
    const unsigned char *backdrop;  // ARGB32, stride width * 4
    const char *outdir;
    const char *error;              // set on failure (static text)
} Job;

static void put32(uint8_t *p, uint32_t v) {
    p[0] = (uint8_t)(v >> 24); p[1] = (uint8_t)(v >> 16); p[2] = (uint8_t)(v >> 8); p[3] = (uint8_t)v;
}

static size_t chunk(uint8_t *p, const char type[4], const uint8_t *data, size_t length) {
    put32(p, (uint32_t)length);
    memcpy(p + 4, type, 4);
    if (length && p + 8 != data) memcpy(p + 8, data, length);
    put32(p + 8 + length, libdeflate_crc32(0, p + 4, length + 4));
    return length + 12;
}

static PangoLayout *make_layout(PangoContext *context, int size_px, int weight, int wrap_width) {
    PangoLayout *layout = pango_layout_new(context);
    PangoFontDescription *font = pango_font_description_from_string("Noto Sans");
    pango_font_description_set_absolute_size(font, size_px * PANGO_SCALE);
    pango_font_description_set_weight(font, weight);
    pango_layout_set_font_description(layout, font);
    pango_font_description_free(font);
    pango_layout_set_width(layout, wrap_width * PANGO_SCALE);
    pango_layout_set_wrap(layout, PANGO_WRAP_WORD_CHAR);
    pango_layout_set_alignment(layout, PANGO_ALIGN_CENTER);
    return layout;
}

static void *worker(void *argument) {
    Job *job = argument;
    const int w = job->width, h = job->height, stride = w * 4;
    const double scale = (w < h ? w : h) / 1080.0;
    cairo_surface_t *surface = cairo_image_surface_create(CAIRO_FORMAT_ARGB32, w, h);
    if (cairo_surface_status(surface) != CAIRO_STATUS_SUCCESS || cairo_image_surface_get_stride(surface) != stride) {
        job->error = "cannot create a frame surface";
        return NULL;
    }
    cairo_t *cr = cairo_create(surface);
    PangoFontMap *map = pango_cairo_font_map_new();  // one per thread: Pango objects are not thread-safe
    PangoContext *context = pango_font_map_create_context(map);
    pango_cairo_update_context(cr, context);
    const int wrap = (int)(w * 0.85);
    PangoLayout *current = make_layout(context, (int)(64 * scale + 0.5), PANGO_WEIGHT_BOLD, wrap);
    PangoLayout *before = make_layout(context, (int)(46 * scale + 0.5), PANGO_WEIGHT_NORMAL, wrap);
    PangoLayout *after = make_layout(context, (int)(46 * scale + 0.5), PANGO_WEIGHT_NORMAL, wrap);
    const size_t row = (size_t)w * 3 + 1, raw_size = row * h;
    uint8_t *raw = malloc(raw_size), *rgb = malloc((size_t)w * 3 * 2);
    struct libdeflate_compressor *compressor = libdeflate_alloc_compressor(1);
    size_t bound = compressor ? libdeflate_zlib_compress_bound(compressor, raw_size) : 0;
    uint8_t *png = malloc(bound + 8 + 25 + 12 + 12);
    if (!raw || !rgb || !compressor || !png) { job->error = "out of memory"; goto done; }
    unsigned char *pixels = cairo_image_surface_get_data(surface);
    const double gap = 28 * scale;

    for (int i = job->index; i < job->count; i += job->jobs) {
        cairo_surface_flush(surface);
        memcpy(pixels, job->backdrop, (size_t)stride * h);
        cairo_surface_mark_dirty(surface);
        pango_layout_set_text(current, job->lines[i].text, -1);
        pango_layout_set_text(before, i > 0 ? job->lines[i - 1].text : "", -1);
        pango_layout_set_text(after, i + 1 < job->count ? job->lines[i + 1].text : "", -1);
        int ch, bh, ah;
        pango_layout_get_pixel_size(current, NULL, &ch);
        pango_layout_get_pixel_size(before, NULL, &bh);
        pango_layout_get_pixel_size(after, NULL, &ah);
        const double x = (w - wrap) / 2.0, y = (h - ch) / 2.0;
        if (i > 0) {
            cairo_set_source_rgba(cr, 1, 1, 1, 0.55);
            cairo_move_to(cr, x, y - gap - bh);
            pango_cairo_show_layout(cr, before);
        }
        cairo_set_source_rgb(cr, 1, 1, 1);
        cairo_move_to(cr, x, y);
        pango_cairo_show_layout(cr, current);
        if (i + 1 < job->count) {
            cairo_set_source_rgba(cr, 1, 1, 1, 0.55);
            cairo_move_to(cr, x, y + ch + gap);
            pango_cairo_show_layout(cr, after);
        }
        cairo_surface_flush(surface);
        if (cairo_status(cr) != CAIRO_STATUS_SUCCESS) { job->error = "drawing failed"; goto done; }

        // ARGB32 (opaque, so no unpremultiply) → RGB, and the Up filter, one row at a time.
        uint8_t *previous = rgb, *this_row = rgb + (size_t)w * 3;
        for (int yy = 0; yy < h; yy++) {
            const uint32_t *src = (const uint32_t *)(pixels + (size_t)yy * stride);
            for (int xx = 0; xx < w; xx++) {
                uint32_t v = src[xx];
                this_row[xx * 3] = (uint8_t)(v >> 16);
                this_row[xx * 3 + 1] = (uint8_t)(v >> 8);
                this_row[xx * 3 + 2] = (uint8_t)v;
            }
            uint8_t *dst = raw + row * yy;
            if (yy == 0) {
                dst[0] = 0;
                memcpy(dst + 1, this_row, (size_t)w * 3);
            } else {
                dst[0] = 2;
                for (size_t k = 0; k < (size_t)w * 3; k++) dst[1 + k] = (uint8_t)(this_row[k] - previous[k]);
            }
            uint8_t *t = previous; previous = this_row; this_row = t;
        }

        static const uint8_t signature[8] = {0x89, 'P', 'N', 'G', 0x0D, 0x0A, 0x1A, 0x0A};
        memcpy(png, signature, 8);
        size_t size = 8;
        uint8_t ihdr[13];
        put32(ihdr, (uint32_t)w); put32(ihdr + 4, (uint32_t)h);
        ihdr[8] = 8; ihdr[9] = 2; ihdr[10] = ihdr[11] = ihdr[12] = 0;
        size += chunk(png + size, "IHDR", ihdr, 13);
        size_t idat = libdeflate_zlib_compress(compressor, raw, raw_size, png + size + 8, bound);
        if (idat == 0) { job->error = "compression failed"; goto done; }
        size += chunk(png + size, "IDAT", png + size + 8, idat);
        size += chunk(png + size, "IEND", NULL, 0);

        char path[4096], temporary[4200];
        snprintf(path, sizeof path, "%s/%04d.png", job->outdir, i + 1);
        snprintf(temporary, sizeof temporary, "%s.tmp", path);
        FILE *f = fopen(temporary, "wb");
        if (!f) { job->error = "cannot create an output file"; goto done; }
        int bad = fwrite(png, 1, size, f) != size;
        bad |= fclose(f) != 0;
        if (bad || rename(temporary, path) != 0) { unlink(temporary); job->error = "cannot write an output file"; goto done; }
    }
done:
    free(png);
    free(rgb);
    free(raw);
    if (compressor) libdeflate_free_compressor(compressor);
    g_object_unref(current);
    g_object_unref(before);
    g_object_unref(after);
    g_object_unref(context);
    g_object_unref(map);
    cairo_destroy(cr);
    cairo_surface_destroy(surface);
    return NULL;
}

// MARK: backdrop

static unsigned char *make_backdrop(const char *cover, int w, int h) {
    size_t size;
    unsigned char *jpeg = read_file(cover, &size);
    tjhandle tj = tjInitDecompress();
    int iw, ih, subsampling, colorspace;
    if (!tj || tjDecompressHeader3(tj, jpeg, size, &iw, &ih, &subsampling, &colorspace) != 0)
        fail("%s: %s", cover, tj ? tjGetErrorStr2(tj) : "cannot start TurboJPEG");
    // The smallest DCT scale (TurboJPEG's list) that still covers the frame.
    int count;
    tjscalingfactor *factors = tjGetScalingFactors(&count);
    int sw = iw, sh = ih;
    for (int k = 0; factors && k < count; k++) {
        if (factors[k].num > factors[k].denom) continue;  // never upscale here
        int fw = TJSCALED(iw, factors[k]), fh = TJSCALED(ih, factors[k]);
        if (fw >= w && fh >= h && (long)fw * fh < (long)sw * sh) { sw = fw; sh = fh; }
    }
    int sstride = cairo_format_stride_for_width(CAIRO_FORMAT_RGB24, sw);
    unsigned char *decoded = malloc((size_t)sstride * sh);
    if (!decoded) fail("out of memory");
    if (tjDecompress2(tj, jpeg, size, decoded, sw, sstride, sh, TJPF_BGRX, 0) != 0)
        fail("%s: %s", cover, tjGetErrorStr2(tj));
    tjDestroy(tj);
    free(jpeg);

    cairo_surface_t *source = cairo_image_surface_create_for_data(decoded, CAIRO_FORMAT_RGB24, sw, sh, sstride);
    cairo_surface_t *backdrop = cairo_image_surface_create(CAIRO_FORMAT_ARGB32, w, h);
    if (cairo_image_surface_get_stride(backdrop) != w * 4) fail("unexpected Cairo stride");
    cairo_t *cr = cairo_create(backdrop);
    double s = (double)w / sw > (double)h / sh ? (double)w / sw : (double)h / sh;
    cairo_translate(cr, (w - sw * s) / 2, (h - sh * s) / 2);
    cairo_scale(cr, s, s);
    cairo_set_source_surface(cr, source, 0, 0);
    cairo_pattern_set_filter(cairo_get_source(cr), CAIRO_FILTER_GOOD);
    cairo_pattern_set_extend(cairo_get_source(cr), CAIRO_EXTEND_PAD);
    cairo_paint(cr);
    cairo_identity_matrix(cr);
    cairo_set_source_rgba(cr, 0, 0, 0, 0.45);
    cairo_paint(cr);
    cairo_surface_flush(backdrop);
    if (cairo_status(cr) != CAIRO_STATUS_SUCCESS) fail("cannot draw the backdrop: %s", cairo_status_to_string(cairo_status(cr)));
    unsigned char *pixels = malloc((size_t)w * 4 * h);
    if (!pixels) fail("out of memory");
    memcpy(pixels, cairo_image_surface_get_data(backdrop), (size_t)w * 4 * h);
    cairo_destroy(cr);
    cairo_surface_destroy(backdrop);
    cairo_surface_destroy(source);
    free(decoded);
    return pixels;
}

int main(int argc, char **argv) {
    if (argc != 8) fail("usage: floor COVER.jpg SONG.lrc OUTDIR WIDTH HEIGHT JOBS FONTFILE_DIR");
    const int w = atoi(argv[4]), h = atoi(argv[5]), jobs = atoi(argv[6]);
    if (w < 16 || h < 16 || w > 16384 || h > 16384) fail("WIDTH and HEIGHT must be from 16 to 16384");
    if (jobs < 1 || jobs > 256) fail("JOBS must be from 1 to 256");

    size_t size;
    char *text = (char *)read_file(argv[2], &size);
    text = realloc(text, size + 1);
    text[size] = 0;
    int count;
    Line *lines = parse_lrc(text, &count);
    if (count == 0) fail("%s: no timed lyric lines", argv[2]);

    if (mkdir(argv[3], 0777) != 0 && errno != EEXIST) fail("cannot create %s: %s", argv[3], strerror(errno));

    if (!FcInit()) fail("cannot initialise fontconfig");
    if (!FcConfigAppFontAddDir(NULL, (const FcChar8 *)argv[7])) fail("cannot add fonts from %s", argv[7]);

    unsigned char *backdrop = make_backdrop(argv[1], w, h);

    pthread_t threads[256];
    Job job[256];
    for (int t = 0; t < jobs; t++) {
        job[t] = (Job){lines, count, w, h, jobs, t, backdrop, argv[3], NULL};
        if (pthread_create(&threads[t], NULL, worker, &job[t]) != 0) fail("cannot start a thread");
    }
    const char *error = NULL;
    for (int t = 0; t < jobs; t++) {
        pthread_join(threads[t], NULL);
        if (job[t].error && !error) error = job[t].error;
    }
    if (error) fail("%s (in %s)", error, argv[3]);
    return 0;
}
