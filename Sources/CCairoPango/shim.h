// Cairo, Pango (with its fontconfig/FreeType back end) and fontconfig, for PosterGraphics only.
#include <cairo.h>
#include <pango/pangocairo.h>
#include <pango/pangofc-fontmap.h>
#include <fontconfig/fontconfig.h>

// GObject cast macros do not import into Swift; these inline helpers stand in for them.
static inline PangoFcFontMap *lp_fc_font_map(PangoFontMap *map) { return PANGO_FC_FONT_MAP(map); }
static inline void lp_g_object_unref(void *object) { g_object_unref(object); }
static inline int lp_pango_scale(void) { return PANGO_SCALE; }
static inline unsigned int lp_glyph_unknown_flag(void) { return PANGO_GLYPH_UNKNOWN_FLAG; }
static inline PangoGlyphInfo *lp_glyph_at(PangoGlyphString *glyphs, int index) { return &glyphs->glyphs[index]; }
