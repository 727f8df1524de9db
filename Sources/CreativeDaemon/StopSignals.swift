#if canImport(Glibc)
import Glibc
#endif

/// How a long-running process (`serve`, `worker`) takes its signals: SIGTERM and SIGINT drain
/// it, the signals whose default would end it at once are ignored, and all of them are taken
/// with `sigwait` on the main thread, so no handler runs on an arbitrary thread.
public enum StopSignals {
    /// Signals that stop the process gracefully.
    public static let drain: [Int32] = [SIGTERM, SIGINT]
    /// Signals that are logged and otherwise ignored: their default action ends the process at
    /// once, and none of them means "stop" to a service (a stray `kill -USR2`, an `alarm()`
    /// timer or a terminal's hang-up must not drop the work in flight). SIGQUIT keeps its
    /// default, a core dump for debugging; SIGKILL and SIGSTOP cannot be caught.
    public static let ignored: [Int32] = [SIGHUP, SIGUSR1, SIGUSR2, SIGALRM, SIGVTALRM]

    /// Blocks ``drain`` and ``ignored`` in this thread and ignores SIGPIPE. Call it before any
    /// other thread starts, so they inherit the mask; returns the set ``wait(_:onIgnored:)``
    /// waits on.
    public static func block() -> sigset_t {
        var signals = sigset_t()
        sigemptyset(&signals)
        for number in drain + ignored { sigaddset(&signals, number) }
        pthread_sigmask(SIG_BLOCK, &signals, nil)
        signal(SIGPIPE, SIG_IGN)
        return signals
    }

    /// Waits (`sigwait`) until one of ``drain`` arrives and returns it; each of ``ignored``
    /// before it goes to `onIgnored`.
    public static func wait(_ signals: inout sigset_t, onIgnored: (Int32) -> Void = { _ in }) -> Int32 {
        while true {
            var received: Int32 = 0
            guard sigwait(&signals, &received) == 0 else { continue }
            if drain.contains(received) { return received }
            onIgnored(received)
        }
    }
}
