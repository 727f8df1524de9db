#if canImport(Glibc)
import Glibc
#endif

/// The worker's test hook (``WorkerConfig/testHook``, from `CREATIVE_WORKER_TEST_HOOK`), which
/// lets the tests make a job that kills its worker or a worker that is killed mid-job.
enum TestHook {
    /// `crash:TEXT`: the worker dies at once (SIGKILL, as an out-of-memory kill) when the source contains TEXT.
    static func crash(_ hook: String?, source: String) {
        guard let hook, hook.hasPrefix("crash:"), source.contains(hook.dropFirst(6)) else { return }
        kill(getpid(), SIGKILL)
    }

    /// `hold:TEXT:SECONDS`: waits SECONDS before the manifest of a source containing TEXT.
    static func hold(_ hook: String?, source: String) {
        guard let hook, hook.hasPrefix("hold:") else { return }
        let parts = hook.dropFirst(5).split(separator: ":")
        guard parts.count == 2, source.contains(parts[0]), let seconds = Double(parts[1]) else { return }
        usleep(UInt32(min(seconds, 3600) * 1e6))
    }
}
