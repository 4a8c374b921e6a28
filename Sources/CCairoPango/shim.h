// Cairo, Pango (with its fontconfig/FreeType back end) and fontconfig, for PosterGraphics only.
#include <cairo.h>
#include <pango/pangocairo.h>
#include <pango/pangofc-fontmap.h>
#include <pango/pangofc-font.h>
#include <fontconfig/fontconfig.h>

// GObject cast macros do not import into Swift; these inline helpers stand in for them.
static inline PangoFcFontMap *lp_fc_font_map(PangoFontMap *map) { return PANGO_FC_FONT_MAP(map); }
static inline void lp_g_object_unref(void *object) { g_object_unref(object); }
static inline int lp_pango_scale(void) { return PANGO_SCALE; }
static inline unsigned int lp_glyph_unknown_flag(void) { return PANGO_GLYPH_UNKNOWN_FLAG; }
static inline PangoGlyphInfo *lp_glyph_at(PangoGlyphString *glyphs, int index) { return &glyphs->glyphs[index]; }
/// The fontconfig pattern a Pango font was made from (its file and face index), or NULL.
static inline FcPattern *lp_font_pattern(PangoFont *font) {
    return PANGO_IS_FC_FONT(font) ? pango_fc_font_get_pattern(PANGO_FC_FONT(font)) : NULL;
}

// The versions of the headers this was built with (`lyricposter --version`).
#include <hb.h>
#include <ft2build.h>
#include FT_FREETYPE_H
#define LP_STRINGIFY_(x) #x
#define LP_STRINGIFY(x) LP_STRINGIFY_(x)
static inline const char *lp_cairo_version(void) { return CAIRO_VERSION_STRING; }
static inline const char *lp_pango_version(void) { return PANGO_VERSION_STRING; }
static inline const char *lp_harfbuzz_version(void) { return HB_VERSION_STRING; }
static inline const char *lp_fontconfig_version(void) { return LP_STRINGIFY(FC_MAJOR) "." LP_STRINGIFY(FC_MINOR) "." LP_STRINGIFY(FC_REVISION); }
static inline const char *lp_freetype_version(void) { return LP_STRINGIFY(FREETYPE_MAJOR) "." LP_STRINGIFY(FREETYPE_MINOR) "." LP_STRINGIFY(FREETYPE_PATCH); }
static inline const char *lp_glib_version(void) { return LP_STRINGIFY(GLIB_MAJOR_VERSION) "." LP_STRINGIFY(GLIB_MINOR_VERSION) "." LP_STRINGIFY(GLIB_MICRO_VERSION); }
