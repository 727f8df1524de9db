import CVips
#if canImport(Glibc)
import Glibc
#endif

/// One thread for the process that stops libvips work at its deadline from outside the work:
/// each watched image gets its kill flag set (`vips_image_set_kill`) once its job's deadline
/// passes or its job is cancelled, and libvips fails the next region it prepares on that image.
///
/// libvips' own "eval" signal (``DeadlineWatch``) fires only as the sink finishes tiles of the
/// image it writes: a render of a few output rows whose every row pulls thousands of source rows
/// would not see it for seconds. The watchdog kills the source as well, so the decode stops
/// within a strip of input rows (`docs/cost-model.md`).
final class DeadlineWatchdog: @unchecked Sendable {
    static let shared = DeadlineWatchdog()

    /// How often the thread looks at the deadlines while anything is watched.
    static let pollSeconds = 0.005

    private struct Entry {
        let image: VImage
        let deadline: Deadline
    }

    private let lock = Lock()
    private var entries: [Int: Entry] = [:]
    private var nextKey = 0
    private var started = false

    /// Watches `image` until ``unwatch(_:)``; returns the key to unwatch it with. The image is
    /// retained while watched.
    func watch(_ image: VImage, deadline: Deadline) -> Int {
        lock.locked {
            nextKey += 1
            entries[nextKey] = Entry(image: image, deadline: deadline)
            if !started { started = startThread() }
            lock.broadcast()
            return nextKey
        }
    }

    /// Stops watching; clears the kill flag the watchdog may have set, so the image can be used again.
    func unwatch(_ key: Int) {
        let entry = lock.locked { entries.removeValue(forKey: key) }
        if let entry { vips_image_set_kill(entry.image.pointer, 0) }
    }

    /// The thread's loop: sleeps while nothing is watched, else polls every ``pollSeconds``.
    fileprivate func run() {
        lock.locked {
            while true {
                if entries.isEmpty {
                    _ = lock.wait(until: monotonicSeconds() + 3600)
                    continue
                }
                for entry in entries.values where entry.deadline.hasPassed {
                    vips_image_set_kill(entry.image.pointer, 1)
                }
                _ = lock.wait(until: monotonicSeconds() + Self.pollSeconds)
            }
        }
    }

    private func startThread() -> Bool {
        var thread = pthread_t()
        let context = Unmanaged.passUnretained(self).toOpaque()
        guard pthread_create(&thread, nil, watchdogThreadMain, context) == 0 else { return false }
        pthread_detach(thread)
        return true
    }
}

/// The watchdog thread's entry point (the shared watchdog lives as long as the process).
private func watchdogThreadMain(_ context: UnsafeMutableRawPointer?) -> UnsafeMutableRawPointer? {
    guard let context else { return nil }
    Unmanaged<DeadlineWatchdog>.fromOpaque(context).takeUnretainedValue().run()
    return nil
}
