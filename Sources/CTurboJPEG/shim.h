// TurboJPEG's tj* API reports errors as return codes, so Swift can call it directly.
#include <stddef.h>
#include <turbojpeg.h>

// The libjpeg-turbo version of the headers this was built with (`lyricposter --version`).
#include <jconfig.h>
#define LP_JPEG_STRINGIFY_(x) #x
#define LP_JPEG_STRINGIFY(x) LP_JPEG_STRINGIFY_(x)
static inline const char *lp_jpeg_turbo_version(void) { return LP_JPEG_STRINGIFY(LIBJPEG_TURBO_VERSION); }
