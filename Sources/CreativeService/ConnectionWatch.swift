import CreativeDaemon
import CreativeImaging
#if canImport(Glibc)
import Glibc
#endif

/// Deadlines that libmicrohttpd does not keep, enforced by one thread per listener.
///
/// libmicrohttpd's `--timeout` counts idle time only, so a client that sends one byte every few
/// seconds is never cut off. This watch knows each connection's socket (from MHD's connection
/// notifications) and what it is doing, and shuts the socket down (MHD then closes the connection
/// as if the client had gone) when:
/// - the request line and headers are not complete within `headerSeconds` of the connection's
///   start or of the end of its previous request (slowloris; an idle keep-alive connection,
///   counted apart as `keepalive_idle`);
/// - a body brings fewer than `minBodyRate` bytes a second over any window of `bodyGraceSeconds`
///   (each window is judged apart, so a fast start buys no stall later: one gap of two windows
///   without a byte is always cut), `slow_body`, answered 408 with the JSON error just before;
/// - the memory budget is short and bodies that hold reservations send slower than the minimum
///   rate (``relieve(needing:)``): the one that reserved the most, then the slowest, is cut
///   first (`budget_pressure`);
/// - a refused request's body is drained (lingering close) for longer than `lingerSeconds`.
/// While a request is handled, the watch also looks at its socket (a peek, nothing is read):
/// when the client has closed it (end of stream or reset), the request's job is cancelled
/// (`client_gone`) and libvips stops it, or it leaves the line of jobs waiting for a slot.
/// The entry of a connection is removed in MHD's close notification, which comes before MHD closes
/// the socket, under the same lock as the shutdown: a socket number is never shut down after reuse.
final class ConnectionWatch: @unchecked Sendable {
    /// What a connection is doing now.
    enum Phase {
        /// Waiting for (or reading) a request line and headers.
        case headers
        /// Reading a request body.
        case body
        /// The request is complete; it is being handled or answered (no deadline here).
        case handling
        /// A refusal was sent early; the rest of the body is read and dropped.
        case lingering
    }

    struct Limits: Sendable {
        var headerSeconds: Double
        var minBodyRate: Int
        var bodyGraceSeconds: Double
        var lingerSeconds: Double
    }

    private struct Entry {
        let fd: Int32
        var phase: Phase = .headers
        var since: Double
        var bytes = 0
        /// The body's current window: its start and the bytes come in it.
        var windowStart: Double
        var windowBytes = 0
        /// The body's rate over its last whole second (nil in its first), from a one-second
        /// window of its own: what it sends now, whatever it sent before.
        var secondStart: Double
        var secondBytes = 0
        var lastSecondRate: Double?
        /// Budget held for the body, and the bytes it still has to come (nil: unknown, chunked).
        var reserved = 0
        var remaining: Int?
        var cut = false
        /// The request in progress, until its completed callback.
        var request: ConnectionState?
        /// Requests completed on this connection, and whether the next one's line has come.
        var completed = 0
        var lineSeen = false
        /// The job of the request being handled, cancelled when the client goes away.
        var job: Cancellation?
    }

    let limits: Limits
    private let lock = Lock()
    private var entries: [UInt: Entry] = [:]
    private var cuts: [String: Int] = [:]
    private var running = true

    init(limits: Limits) {
        self.limits = limits
        _ = startDetachedThread(retaining: self, connectionWatchMain)
    }

    private static func key(_ connection: OpaquePointer) -> UInt { UInt(bitPattern: Int(bitPattern: UnsafeRawPointer(connection))) }

    /// A connection was accepted (MHD_CONNECTION_NOTIFY_STARTED).
    func opened(_ connection: OpaquePointer, fd: Int32) {
        guard fd >= 0 else { return }
        let now = monotonicSeconds()
        lock.locked { entries[Self.key(connection)] = Entry(fd: fd, since: now, windowStart: now, secondStart: now) }
    }

    /// A connection is closing (MHD_CONNECTION_NOTIFY_CLOSED, before its socket is closed).
    /// - Returns: the request still attached to it, whose completed callback MHD never called
    ///   (libmicrohttpd 0.9.75 skips it when its parser runs out of connection memory twice).
    func closed(_ connection: OpaquePointer) -> ConnectionState? {
        lock.locked { entries.removeValue(forKey: Self.key(connection))?.request }
    }

    /// A request started on the connection (its line is in).
    func attach(_ request: ConnectionState, _ connection: OpaquePointer) {
        lock.locked {
            entries[Self.key(connection)]?.request = request
            entries[Self.key(connection)]?.lineSeen = true
        }
    }

    /// The request in progress on the connection (its line is in, its completed callback has not
    /// come), or nil.
    func request(on connection: OpaquePointer) -> ConnectionState? {
        lock.locked { entries[Self.key(connection)]?.request }
    }

    /// The request's completed callback came; the connection waits for its next request.
    func detach(_ connection: OpaquePointer) {
        lock.locked {
            guard var entry = entries[Self.key(connection)] else { return }
            entry.request = nil
            entry.completed += 1
            entry.lineSeen = false
            entry.phase = .headers
            entry.since = monotonicSeconds()
            entry.reserved = 0
            entry.remaining = nil
            entries[Self.key(connection)] = entry
        }
    }

    /// The connection moves to `phase`; its clock restarts.
    func enter(_ phase: Phase, _ connection: OpaquePointer) {
        lock.locked {
            guard var entry = entries[Self.key(connection)] else { return }
            entry.phase = phase
            entry.since = monotonicSeconds()
            entry.bytes = 0
            entry.windowStart = entry.since
            entry.windowBytes = 0
            entry.secondStart = entry.since
            entry.secondBytes = 0
            entry.lastSecondRate = nil
            if phase != .body { entry.reserved = 0 }
            entries[Self.key(connection)] = entry
        }
    }

    /// The request being handled on the connection runs `job` (nil: it is done).
    func watchJob(_ job: Cancellation?, _ connection: OpaquePointer) {
        lock.locked { entries[Self.key(connection)]?.job = job }
    }

    /// Body bytes arrived.
    func received(_ bytes: Int, _ connection: OpaquePointer) {
        lock.locked {
            guard var entry = entries[Self.key(connection)] else { return }
            entry.bytes += bytes
            entry.windowBytes += bytes
            entry.secondBytes += bytes
            entry.remaining = entry.remaining.map { max(0, $0 - bytes) }
            entries[Self.key(connection)] = entry
        }
    }

    /// The body being read holds `reserved` bytes of the memory budget in all, and has
    /// `remaining` bytes still to come (nil when unknown).
    func holding(_ reserved: Int, remaining: Int?, _ connection: OpaquePointer) {
        lock.locked {
            entries[Self.key(connection)]?.reserved = reserved
            if let remaining { entries[Self.key(connection)]?.remaining = remaining }
        }
    }

    /// Bodies ``relieve(needing:)`` would cut now, in the order it would cut them.
    private func stalledEntries() -> [(key: UInt, fd: Int32, reserved: Int, rate: Double)] {
        let slow = Double(max(1, limits.minBodyRate))
        return entries.compactMap { key, entry -> (key: UInt, fd: Int32, reserved: Int, rate: Double)? in
            guard entry.phase == .body, !entry.cut, entry.reserved > 0, let rate = entry.lastSecondRate, rate < slow else {
                return nil
            }
            return (key, entry.fd, entry.reserved, rate)
        }.sorted { $0.reserved != $1.reserved ? $0.reserved > $1.reserved : $0.rate < $1.rate }
    }

    /// How many bodies hold budget and send slower than the minimum rate now.
    var stalledBodies: Int { lock.locked { stalledEntries().count } }

    /// The memory budget cannot give `bytes` now: cuts bodies that hold reservations and send
    /// slower than the minimum rate (over their last whole second; at least a byte a second when
    /// the rate check is off), the largest reservation first and, among equal ones, the slowest,
    /// until `bytes` would be freed. A body that flows is never cut here. The requests cut end as
    /// if their clients had gone, and their reservations come back when MHD closes them.
    /// - Returns: the bytes the cuts will free.
    @discardableResult
    func relieve(needing bytes: Int) -> Int {
        lock.locked {
            let stalled = stalledEntries()
            // Bodies cut earlier whose reservations MHD has not given back yet count as freed.
            var freed = entries.values.filter { $0.cut && $0.phase == .body }.reduce(0) { $0 + $1.reserved }
            for victim in stalled where freed < bytes {
                shutdown(victim.fd, Int32(SHUT_RDWR))
                entries[victim.key]?.cut = true
                cuts["budget_pressure", default: 0] += 1
                freed += victim.reserved
            }
            return freed
        }
    }

    /// Connections cut so far, by reason (`header_timeout`, `keepalive_idle`, `slow_body`, `budget_pressure`,
    /// `linger_timeout`).
    var cutCounts: [String: Int] { lock.locked { cuts } }

    /// Ends the watch thread (after the daemon stopped).
    func stop() { lock.locked { running = false } }

    /// One pass: shuts down every socket past its deadline. Returns false once stopped.
    fileprivate func check() -> Bool {
        lock.locked {
            guard running else { return false }
            let now = monotonicSeconds()
            for (key, entry) in entries where !entry.cut {
                let elapsed = now - entry.since
                let reason: String?
                switch entry.phase {
                case .headers:
                    // A kept-alive connection that never started its next request is only idle.
                    let idle = entry.completed > 0 && !entry.lineSeen
                    reason = elapsed > limits.headerSeconds ? (idle ? "keepalive_idle" : "header_timeout") : nil
                case .body:
                    if now - entry.secondStart >= 1 {
                        entries[key]?.lastSecondRate = Double(entry.secondBytes) / (now - entry.secondStart)
                        entries[key]?.secondStart = now
                        entries[key]?.secondBytes = 0
                    }
                    // Each window of `bodyGraceSeconds` must bring its share, judged when it ends.
                    let window = now - entry.windowStart
                    if limits.minBodyRate > 0, window >= limits.bodyGraceSeconds {
                        reason = Double(entry.windowBytes) < Double(limits.minBodyRate) * window ? "slow_body" : nil
                        entries[key]?.windowStart = now
                        entries[key]?.windowBytes = 0
                    } else {
                        reason = nil
                    }
                case .handling:
                    if let job = entry.job, !job.isCancelled, Self.peerClosed(entry.fd) {
                        job.cancel(reason: JobRegistry.clientGone)
                    }
                    reason = nil
                case .lingering:
                    reason = elapsed > limits.lingerSeconds ? "linger_timeout" : nil
                }
                guard let reason else { continue }
                if reason == "slow_body" {
                    // One answer before the cut, never blocking the watch: a stalled body (or a
                    // chunk announced and never sent) learns why its connection closes.
                    let answer = RequestIntake.closingAnswer(
                        ServiceError.slowBody(rate: limits.minBodyRate, seconds: limits.bodyGraceSeconds).response)
                    _ = answer.withUnsafeBytes { send(entry.fd, $0.baseAddress, $0.count, Int32(MSG_NOSIGNAL | MSG_DONTWAIT)) }
                }
                shutdown(entry.fd, Int32(SHUT_RDWR))
                entries[key]?.cut = true
                cuts[reason, default: 0] += 1
            }
            return true
        }
    }
}

extension ConnectionWatch {
    /// Whether the client has closed the socket: a peek that sees the end of the stream or an
    /// error. Bytes waiting (a pipelined request) or none yet mean it is still there. The
    /// connection's own thread does not read while its request is handled.
    static func peerClosed(_ fd: Int32) -> Bool {
        var byte: UInt8 = 0
        let count = recv(fd, &byte, 1, Int32(MSG_PEEK | MSG_DONTWAIT))
        if count == 0 { return true }
        return count < 0 && errno != EAGAIN && errno != EWOULDBLOCK && errno != EINTR
    }
}

/// The watch thread: a check every 100 ms until the watch stops.
private func connectionWatchMain(_ context: UnsafeMutableRawPointer?) -> UnsafeMutableRawPointer? {
    guard let context else { return nil }
    let watch = Unmanaged<ConnectionWatch>.fromOpaque(context).takeRetainedValue()
    while watch.check() { usleep(100_000) }
    return nil
}
