import CreativeDaemon
#if canImport(Glibc)
import Glibc
#endif

/// The admin listener on its own, for a process that is not the HTTP service (`worker`):
/// `GET /healthz` (liveness), `/readyz` (the caller's readiness) and `/metrics` (the caller's
/// Prometheus text), on the service's own libmicrohttpd daemon (a thread per connection), with its Host checks
/// and connection deadlines.
public final class AdminServer: AdminListener, @unchecked Sendable {
    /// Starts one for a process that takes its admin listener as an ``AdminListenerStart``.
    public static let start: AdminListenerStart = { host, port, answers throws(DaemonError) in
        do throws(ServiceError) {
            return try AdminServer(host: host, port: port, ready: answers.ready, metrics: answers.metrics)
        } catch {
            throw .cannotListen(error.message)
        }
    }

    private let daemon: Daemon

    /// Starts listening on `host:port` (0: a free port). `ready` gives nil when ready, else the
    /// reason (answered 503 `not_ready`); `metrics` gives the exposition text.
    /// - Throws: ``ServiceError/internalError(_:)`` when it cannot listen.
    public init(host: String, port: Int, ready: @escaping @Sendable () -> String?,
                metrics: @escaping @Sendable () -> String) throws(ServiceError) {
        var config = ServiceConfig()
        config.adminHost = host
        config.adminPort = port
        config.logRequests = false
        let probes = Router.probes(readyz: { _, _ throws(ServiceError) in
            if let reason = ready() { throw .unavailable(code: "not_ready", message: reason) }
            return .json(.object([("status", .string("ready"))]))
        }, metrics: { _, _ throws(ServiceError) in
            Response(contentType: HealthHandlers.metricsContentType, body: Array(metrics().utf8))
        })
        let router = Router(groups: [RouteGroup(name: "probes and metrics", listeners: .admin, auth: .open, body: .none,
                                                routes: probes)], listener: .admin)
        let context = ServiceContext(config: config, router: router)
        daemon = try Daemon(listener: Listener(context: context, router: router, watch: context.adminWatch,
                                               hosts: config.adminHosts),
                            host: host, port: port, perClient: 0, connectionLimit: 128, idleTimeout: 5,
                            memoryPerConnection: 32 * 1024)
    }

    /// The bound port.
    public var port: Int { daemon.port }

    /// Closes the listener. Idempotent.
    public func stop() { daemon.stop() }
}
