// The versions of the compression and PNG libraries' headers this was built with.
#include "lp_png.h"

#include <isa-l.h>
#include <libdeflate.h>
#include <png.h>
#include <zlib.h>

#define LP_STR_(x) #x
#define LP_STR(x) LP_STR_(x)

const char *lp_codec_version(int index) {
    static const char *const versions[] = {
        "libpng " PNG_LIBPNG_VER_STRING,
        "zlib " ZLIB_VERSION,
        "libdeflate " LIBDEFLATE_VERSION_STRING,
        "ISA-L " LP_STR(ISAL_MAJOR_VERSION) "." LP_STR(ISAL_MINOR_VERSION) "." LP_STR(ISAL_PATCH_VERSION),
    };
    return index >= 0 && index < (int)(sizeof versions / sizeof versions[0]) ? versions[index] : NULL;
}
