#ifndef LP_MALLOC_H
#define LP_MALLOC_H
// glibc's malloc settings, which Swift's Glibc module does not bring in. Process-global: only the
// command-line tool calls this, for itself (see MallocTuning.keepFreedBuffers); the library never.

// Large blocks up to `mmap_threshold` bytes from the heap, up to `trim_threshold` bytes left free at
// a heap's top, at most `arenas` arenas (glibc's mallopt; lp_memory.c). 1 when all three were taken.
int lp_malloc_keep_freed(int mmap_threshold, int trim_threshold, int arenas);

#endif
