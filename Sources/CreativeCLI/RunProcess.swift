#if canImport(Glibc)
import Glibc
#endif

/// What `/proc` says of the process a leftover folder is named after (``DirectoryWriter``).
enum RunProcess {
    /// Whether `pid` may still be the run that last wrote a folder at `lastWrote` (seconds since
    /// the epoch): false when there is no such process, when it is a zombie (it ended; its parent
    /// has not reaped it), or when it started after `lastWrote` (the PID was given to another
    /// process since). A process of another user, or one `/proc` does not describe, counts as live.
    static func isLive(_ pid: Int32, lastWrote: Double?) -> Bool {
        if kill(pid, 0) != 0 && errno == ESRCH { return false }
        guard let fields = statFields(pid) else { return true }
        // Fields after the command name: state is the first, start time (ticks after boot) the 20th.
        if let state = fields.first, state == "Z" || state == "X" { return false }
        guard let lastWrote, fields.count > 19, let ticks = Double(fields[19]), let boot = bootTime() else { return true }
        let hertz = Double(sysconf(Int32(_SC_CLK_TCK)))
        guard hertz > 0 else { return true }
        // The boot time has a resolution of one second: a second of slack, towards "live".
        return boot + ticks / hertz <= lastWrote + 1
    }

    /// `/proc/PID/stat`'s fields after the command name (which may hold spaces and parentheses,
    /// so the split starts after its last `)`).
    private static func statFields(_ pid: Int32) -> [Substring]? {
        guard let text = readSmall("/proc/\(pid)/stat"), let close = text.lastIndex(of: ")") else { return nil }
        return text[text.index(after: close)...].split(separator: " ")
    }

    /// The boot time in seconds since the epoch (`/proc/stat`'s `btime`).
    private static func bootTime() -> Double? {
        guard let text = readSmall("/proc/stat") else { return nil }
        for line in text.split(separator: "\n") where line.hasPrefix("btime ") {
            return Double(line.dropFirst(6).trimmingPrefixSpaces)
        }
        return nil
    }

    /// A small `/proc` file's text (at most 64 KiB), or nil.
    private static func readSmall(_ path: String) -> String? {
        let descriptor = open(path, O_RDONLY | O_CLOEXEC)
        guard descriptor >= 0 else { return nil }
        defer { close(descriptor) }
        var bytes = [UInt8](repeating: 0, count: 65536)
        var count = 0
        while count < bytes.count {
            let read = bytes[count...].withUnsafeMutableBytes { Glibc.read(descriptor, $0.baseAddress, $0.count) }
            if read < 0 && errno == EINTR { continue }
            if read <= 0 { break }
            count += read
        }
        return String(decoding: bytes[0..<count], as: UTF8.self)
    }
}

private extension Substring {
    var trimmingPrefixSpaces: Substring { drop { $0 == " " } }
}
