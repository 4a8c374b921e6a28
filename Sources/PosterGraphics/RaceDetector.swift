import CPNGShim

/// Tells ThreadSanitizer that a `Synchronization.Mutex` owned by `object` was just locked or is
/// about to be unlocked: on Linux the Mutex waits on a futex that TSan cannot see, so without
/// these it reports the guarded accesses as races. No-ops outside TSan builds.
package enum RaceDetector {
    package static func locked(_ object: AnyObject) {
        lp_tsan_acquire(UnsafeRawPointer(Unmanaged.passUnretained(object).toOpaque()))
    }

    package static func unlocking(_ object: AnyObject) {
        lp_tsan_release(UnsafeRawPointer(Unmanaged.passUnretained(object).toOpaque()))
    }
}
