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
    /// The process-wide memory budget: buffered request bodies and the decode memory of running jobs.
    let budget: MemoryBudget
    /// Requests being handled (their jobs running or waiting), for a stop to cancel.
    let jobs = JobRegistry()
    /// Deadlines of the data plane's and the admin listener's connections.
    let watch: ConnectionWatch
    let adminWatch: ConnectionWatch
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
        let watch = ConnectionWatch(limits: .init(headerSeconds: config.headerTimeout, minBodyRate: config.minBodyRate,
                                                  bodyGraceSeconds: config.bodyRateGrace, lingerSeconds: config.lingerSeconds))
        self.watch = watch
        // A short budget first cuts the stalled bodies that hold it, then waits.
        budget = MemoryBudget(capacity: config.memoryBudget) { bytes in watch.relieve(needing: bytes) }
        adminWatch = ConnectionWatch(limits: .init(headerSeconds: 2, minBodyRate: 1024, bodyGraceSeconds: 2,
                                                   lingerSeconds: 1))
        do {
            try VipsRuntime.start()
            imagingFailure = nil
        } catch {
            imagingFailure = error.description
        }
    }

    /// The budget, deadline and log figures for `/metrics`.
    var gauges: ServiceGauges {
        var cuts = watch.cutCounts
        for (reason, count) in adminWatch.cutCounts { cuts["admin_" + reason, default: 0] += count }
        return ServiceGauges(cuts: cuts, budgetCapacity: budget.capacity, budgetInUse: budget.inUse,
                             budgetRefusals: budget.refused, logLinesDropped: log.sink.droppedLines)
    }

    /// True once a stop has begun: `/readyz` fails and responses close their connection.
    var isDraining: Bool {
        get { lock.locked { draining } }
        set { lock.locked { draining = newValue } }
    }
}
