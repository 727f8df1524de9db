import CreativeCore
import CreativeImaging

/// What every callback and handler shares: configuration, router, gate, metrics, log and state.
/// Immutable apart from its thread-safe parts; the daemon keeps it alive until MHD has stopped.
final class ServiceContext: @unchecked Sendable {
    let config: ServiceConfig
    let auth: Auth
    let router: Router
    let gate: JobGate
    let metrics: Metrics
    let log: RequestLog
    /// Why libvips could not start, if it could not (then `/readyz` answers 503).
    let imagingFailure: String?
    private let lock = Lock()
    private var draining = false

    init(config: ServiceConfig, router: Router = .service) {
        self.config = config
        auth = Auth(token: config.token)
        self.router = router
        gate = JobGate(slots: config.workers, queue: config.queue, maxWait: config.queueWait)
        metrics = Metrics()
        log = RequestLog(enabled: config.logRequests)
        do {
            try VipsRuntime.start()
            imagingFailure = nil
        } catch {
            imagingFailure = error.description
        }
    }

    /// True once a stop has begun: `/readyz` fails and responses close their connection.
    var isDraining: Bool {
        get { lock.locked { draining } }
        set { lock.locked { draining = newValue } }
    }
}
