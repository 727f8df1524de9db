#if canImport(Glibc)
import Glibc
#endif

/// A pthread mutex with one condition variable, allocated once so its address never moves
/// (the service's gates, counters and watches use it too).
package final class Lock: @unchecked Sendable {
    private let mutex: UnsafeMutablePointer<pthread_mutex_t>
    private let condition: UnsafeMutablePointer<pthread_cond_t>

    package init() {
        mutex = .allocate(capacity: 1)
        mutex.initialize(to: pthread_mutex_t())
        pthread_mutex_init(mutex, nil)
        condition = .allocate(capacity: 1)
        condition.initialize(to: pthread_cond_t())
        var attributes = pthread_condattr_t()
        pthread_condattr_init(&attributes)
        pthread_condattr_setclock(&attributes, CLOCK_MONOTONIC)
        pthread_cond_init(condition, &attributes)
        pthread_condattr_destroy(&attributes)
    }

    deinit {
        pthread_cond_destroy(condition)
        pthread_mutex_destroy(mutex)
        condition.deallocate()
        mutex.deallocate()
    }

    /// Runs `body` holding the lock.
    package func locked<T>(_ body: () throws -> T) rethrows -> T {
        pthread_mutex_lock(mutex)
        defer { pthread_mutex_unlock(mutex) }
        return try body()
    }

    /// Waits (the lock must be held) until signalled or until `deadline` (monotonic seconds) passes.
    /// - Returns: false when the deadline passed.
    package func wait(until deadline: Double) -> Bool {
        var spec = timespec()
        spec.tv_sec = Int(deadline)
        spec.tv_nsec = Int((deadline - Double(Int(deadline))) * 1e9)
        return pthread_cond_timedwait(condition, mutex, &spec) != ETIMEDOUT
    }

    /// Wakes every waiter (call with the lock held or not).
    package func broadcast() { pthread_cond_broadcast(condition) }
}

/// Seconds on the monotonic clock.
package func monotonicSeconds() -> Double {
    var spec = timespec()
    clock_gettime(CLOCK_MONOTONIC, &spec)
    return Double(spec.tv_sec) + Double(spec.tv_nsec) / 1e9
}
