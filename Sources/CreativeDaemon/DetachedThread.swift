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
