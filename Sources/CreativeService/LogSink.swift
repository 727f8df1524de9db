import CreativeDaemon
import CreativeImaging
#if canImport(Glibc)
import Glibc
#endif

/// Where log lines go: a bounded queue in memory, written to standard error by one thread of its
/// own. A request thread only appends to the queue; when standard error is slow or never read
/// (a pipe nobody drains), the writer thread blocks, the queue fills, and further lines are
/// dropped and counted (`creative_log_lines_dropped_total`), so logging never blocks service.
public final class LogSink: @unchecked Sendable {
    /// The one sink for this process's standard error.
    public static let standardError = LogSink(fd: 2, capacityBytes: 1 << 20)

    private let fd: Int32
    private let capacityBytes: Int
    private let lock = Lock()
    private var lines: [[UInt8]] = []
    private var queuedBytes = 0
    private var dropped = 0
    private var writing = false
    private var started = false

    init(fd: Int32, capacityBytes: Int) {
        self.fd = fd
        self.capacityBytes = capacityBytes
    }

    /// Lines dropped because the queue was full.
    public var droppedLines: Int { lock.locked { dropped } }

    /// Queues one line (a newline is added); drops it when the queue is full.
    func append(_ line: String) {
        let bytes = Array((line + "\n").utf8)
        lock.locked {
            guard queuedBytes + bytes.count <= capacityBytes else {
                dropped += 1
                return
            }
            lines.append(bytes)
            queuedBytes += bytes.count
            if !started {
                started = true
                startWriter()
            }
            lock.broadcast()
        }
    }

    /// Waits until the queue is written out or `seconds` pass (at exit, so the last lines are not lost).
    public func flush(seconds: Double) {
        let deadline = monotonicSeconds() + seconds
        lock.locked {
            while (!lines.isEmpty || writing) && monotonicSeconds() < deadline {
                _ = lock.wait(until: min(deadline, monotonicSeconds() + 0.05))
            }
        }
    }

    private func startWriter() {
        if !startDetachedThread(retaining: self, logWriterMain) { started = false }
    }

    /// The writer thread's loop: takes every queued line, writes them with blocking writes.
    fileprivate func runWriter() -> Never {
        while true {
            let batch: [[UInt8]] = lock.locked {
                while lines.isEmpty { _ = lock.wait(until: monotonicSeconds() + 3600) }
                defer {
                    lines = []
                    writing = true
                }
                return lines
            }
            for line in batch { writeAll(line) }
            lock.locked {
                writing = false
                queuedBytes -= batch.reduce(0) { $0 + $1.count }
                lock.broadcast()
            }
        }
    }

    private func writeAll(_ bytes: [UInt8]) {
        var offset = 0
        while offset < bytes.count {
            let written = bytes[offset...].withUnsafeBytes { write(fd, $0.baseAddress, $0.count) }
            if written < 0 && errno == EINTR { continue }
            if written <= 0 { return }
            offset += written
        }
    }
}

/// The writer thread's entry point (a plain function, as C callbacks must be).
private func logWriterMain(_ context: UnsafeMutableRawPointer?) -> UnsafeMutableRawPointer? {
    guard let context else { return nil }
    Unmanaged<LogSink>.fromOpaque(context).takeRetainedValue().runWriter()
}
