// glibc's malloc settings, which Swift's Glibc module does not bring in (see
// MallocTuning.keepFreedBuffers for why they are changed).
#include <malloc.h>
#include "lp_malloc.h"

int lp_malloc_keep_freed(int mmap_threshold, int trim_threshold, int arenas) {
    int done = mallopt(M_MMAP_THRESHOLD, mmap_threshold);
    done &= mallopt(M_TRIM_THRESHOLD, trim_threshold);
    done &= mallopt(M_ARENA_MAX, arenas);
    return done;
}
