/// The admin listener of a process that is not the HTTP service (`worker`): `GET /healthz`
/// (liveness), `/readyz` (the process's readiness) and `/metrics` (its Prometheus text). The
/// process that owns it only starts and stops it; the HTTP service provides the listener
/// (its `AdminServer`), and the program that runs the worker passes its start in.
public protocol AdminListener: Sendable {
    /// The bound port (the real one when 0 was asked).
    var port: Int { get }
    /// Closes the listener. Idempotent.
    func stop()
}

/// What an admin listener answers, from the process it serves.
public struct AdminAnswers: Sendable {
    /// Nil when ready, else the reason (answered 503 `not_ready`).
    public let ready: @Sendable () -> String?
    /// The Prometheus text exposition of `/metrics`.
    public let metrics: @Sendable () -> String

    public init(ready: @escaping @Sendable () -> String?, metrics: @escaping @Sendable () -> String) {
        self.ready = ready
        self.metrics = metrics
    }
}

/// Starts an admin listener on `host:port` (0: a free port) answering `answers`.
/// - Throws: ``DaemonError/cannotListen(_:)`` when it cannot listen.
public typealias AdminListenerStart = @Sendable (_ host: String, _ port: Int, _ answers: AdminAnswers)
    throws(DaemonError) -> any AdminListener
