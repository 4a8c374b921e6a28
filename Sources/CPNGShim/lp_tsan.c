// ThreadSanitizer sees pthread locks and atomics, but not the futex inside the standard library's
// Synchronization.Mutex on Linux, so it reports accesses guarded by a Mutex as races. These calls
// tell it about each lock and unlock; outside a TSan build the runtime's functions are absent
// (weak symbols) and the calls do nothing.
#include "lp_png.h"

void __tsan_acquire(void *addr) __attribute__((weak));
void __tsan_release(void *addr) __attribute__((weak));

void lp_tsan_acquire(const void *address) {
    if (__tsan_acquire) __tsan_acquire((void *)address);
}

void lp_tsan_release(const void *address) {
    if (__tsan_release) __tsan_release((void *)address);
}
