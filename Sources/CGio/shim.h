// GIO's D-Bus client and server (GDBus), for the NowPlaying target only.
#include <gio/gio.h>

// GLib's type-cast macros do not import into Swift; these inline helpers stand in for them.
static inline const GVariantType *lp_variant_type(const char *type) { return (const GVariantType *)type; }
static inline void lp_g_object_unref(void *object) { g_object_unref(object); }
