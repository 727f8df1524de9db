#if canImport(Glibc)
import Glibc
#endif

/// Starts a detached thread that runs `main` with `object` retained for it: `main` takes it back
/// with `Unmanaged.fromOpaque(_:).takeRetainedValue()`. Returns false (and releases) when no
/// thread could be made.
package func startDetachedThread(retaining object: AnyObject,
                                 _ main: @convention(c) (UnsafeMutableRawPointer?) -> UnsafeMutableRawPointer?) -> Bool {
    var thread = pthread_t()
    let context = Unmanaged.passRetained(object).toOpaque()
    guard pthread_create(&thread, nil, main, context) == 0 else {
        Unmanaged<AnyObject>.fromOpaque(context).release()
        return false
    }
    pthread_detach(thread)
    return true
}

/// Ends the process at once, exit code 0, while a detached thread may still be in its work (a job
/// a stop released or could not cancel): stdio is flushed, and the C libraries' exit handlers are
/// not run, since they would free what that thread still uses (OpenSSL's exit handler frees the
/// locks a signed upload takes, and the thread crashed mid-stop).
package func exitLeavingRunningThreads() -> Never {
    fflush(nil)
    _exit(0)
}
