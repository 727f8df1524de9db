import CMicroHTTPD
import CreativeCore
import CreativeDaemon
import CreativeImaging
#if canImport(Glibc)
import Glibc
#endif

/// The HTTP service: starts on construction, stops with ``stop(grace:)``.
public final class Server: @unchecked Sendable {
    private let daemon: Daemon
    private let admin: Daemon
    private let context: ServiceContext

    /// Starts listening: the data plane on `host:port` (one thread per connection), the admin
    /// listener (`/healthz`, `/readyz`, `/metrics`) on `adminHost:adminPort` (one epoll thread).
    /// - Throws: ``ServiceError/internalError(_:)`` when it cannot listen, when the token is
    ///   shorter than ``ServiceConfig/minimumTokenBytes``, or when a non-loopback address has no
    ///   token and ``ServiceConfig/allowUnauthenticated`` is not set.
    public init(config: ServiceConfig) throws(ServiceError) {
        if let insecurity = config.insecurity { throw .internalError(insecurity) }
        Server.tuneProcess()
        context = ServiceContext(config: config)
        daemon = try Daemon(listener: Listener(context: context, router: .service, watch: context.watch,
                                                  hosts: config.dataHosts),
                            host: config.host, port: config.port,
                            perClient: config.maxConnectionsPerClient,
                            connectionLimit: config.maxConnections, idleTimeout: config.connectionTimeout,
                            memoryPerConnection: 256 * 1024)
        do {
            admin = try Daemon(listener: Listener(context: context, router: .admin, watch: context.adminWatch,
                                                    hosts: config.adminHosts),
                               host: config.adminHost, port: config.adminPort, perClient: 0,
                               connectionLimit: 128, idleTimeout: 5, memoryPerConnection: 32 * 1024)
        } catch {
            daemon.stop()
            throw ServiceError.internalError("admin listener: \(error.message)")
        }
        context.log.event("listening", [("version", .string(BuildInfo.version)),
                                        ("libvips", .string(VipsRuntime.version)),
                                        ("libvips_file", VipsRuntime.libraryPath.map { .string($0) } ?? .null),
                                        ("host", .string(config.host)), ("port", .int(daemon.port)),
                                        ("admin_host", .string(config.adminHost)), ("admin_port", .int(admin.port)),
                                        ("workers", .int(config.workers)), ("queue", .int(config.queue)),
                                        ("max_body_bytes", .int(config.maxBodyBytes)),
                                        ("memory_budget", .int(config.memoryBudget)),
                                        ("job_memory_budget", .int(config.jobBudget(for: .defaultProduct))),
                                        ("job_timeout", .double(config.jobDeadline(for: .defaultProduct))),
                                        ("drain_seconds", .double(config.drainSeconds)),
                                        ("auth", .bool(config.token != nil)),
                                        ("allowed_hosts", config.token == nil
                                            ? .array(config.dataHosts.map { $0.names.sorted().map(JSONValue.string) } ?? [])
                                            : .string("any"))])
        if config.token == nil && !ServiceConfig.isLoopback(config.host) {
            context.log.event("warning", [("message", .string("serving \(config.host) without a token (--allow-unauthenticated)"))])
        }
    }

    /// Process settings for a long-running service, applied before libvips starts:
    /// - buffers under 1 MiB (libvips regions and tiles, zlib and libpng state, small bodies) come
    ///   from malloc's heaps, and up to 4 MiB of freed memory stays at each heap's top for the
    ///   next request. glibc's default (mmap from 128 KiB up, moved up after frees) made many
    ///   of them fresh mappings: page faults on first touch and, on munmap, TLB shoot-downs
    ///   across cores cost about a fifth of a render's CPU time under load. Larger buffers
    ///   (request bodies near the limit) still get their own mapping and go back when freed,
    ///   so hostile uploads do not leave the heaps fragmented: the load test checks resident
    ///   memory with oversized and chunked bodies beside the renders;
    /// - at most 4 malloc arenas instead of glibc's 8 per core, so freed memory is shared, not
    ///   parked per thread;
    /// - one libvips worker thread per job (`VIPS_CONCURRENCY`, unless set): jobs already run in
    ///   parallel, one per slot, and small banner renders lose more to thread hand-offs than they gain.
    static func tuneProcess() {
        mallopt(M_MMAP_THRESHOLD, 1 << 20)
        mallopt(M_TRIM_THRESHOLD, 4 << 20)
        mallopt(M_ARENA_MAX, 4)
        setenv("VIPS_CONCURRENCY", "1", 0)
    }

    /// The bound port.
    public var port: Int { daemon.port }
    /// The admin listener's bound port.
    public var adminPort: Int { admin.port }
    /// The process-wide memory budget (request bodies and decode memory).
    public var budget: MemoryBudget { context.budget }
    /// The job gate (tests hold it to provoke 503).
    public var gate: JobGate { context.gate }
    /// The service's metrics.
    public var metrics: Metrics { context.metrics }
    /// Request bodies that hold budget and send slower than the minimum rate now: what a short
    /// budget would cut first.
    var stalledBodies: Int { context.watch.stalledBodies }

    /// Seconds a stop gives cancelled jobs to end and answer after the drain limit. libvips stops
    /// a cancelled job at the next region it computes (milliseconds).
    public static let cancelSeconds = 2.0

    /// Graceful stop: stop accepting, let in-flight requests finish (at most `grace` seconds,
    /// default ``ServiceConfig/drainSeconds``), then cancel the jobs still running or waiting
    /// (they answer 503 `shutting_down`), give them ``cancelSeconds`` to end, and close
    /// everything. A job that did not end by then is not waited for (``serve(config:)`` then ends
    /// the process with ``exitLeavingRunningThreads()``): the stop never takes longer than
    /// `grace` + ``cancelSeconds``.
    public func stop(grace: Double? = nil) {
        context.isDraining = true
        daemon.quiesce()
        context.log.event("draining", [("in_flight", .int(context.metrics.requestsInFlight)),
                                       ("jobs", .int(context.jobs.count))])
        let metrics = context.metrics
        let deadline = monotonicSeconds() + (grace ?? context.config.drainSeconds)
        while metrics.requestsInFlight > 0 && monotonicSeconds() < deadline { usleep(10_000) }
        let cancelled = context.jobs.cancelAll(reason: JobRegistry.shutdown)
        if cancelled > 0 {
            let end = monotonicSeconds() + Server.cancelSeconds
            while (context.jobs.count > 0 || metrics.requestsInFlight > 0) && monotonicSeconds() < end { usleep(10_000) }
        }
        let left = metrics.requestsInFlight
        let stuck = context.jobs.count
        // MHD_stop_daemon joins every connection thread: not while one is still in a job.
        if stuck == 0 { daemon.stop() }
        admin.stop()
        context.log.event("stopped", [("unfinished", .int(left)), ("cancelled_jobs", .int(cancelled)),
                                      ("jobs_left", .int(stuck))])
    }

    /// Runs until SIGTERM or SIGINT, then stops gracefully. Returns the exit code (0 after a clean stop).
    ///
    /// The signals are blocked in this thread before any other thread starts (so MHD's and
    /// libvips' threads inherit the mask) and taken with `sigwait`: no handler runs on an
    /// arbitrary thread (``StopSignals``). The ignored ones (whose default would kill the process
    /// at once, without the drain) are logged. Log lines go through a queue, so a stalled log pipe
    /// cannot keep the main thread from draining.
    public static func serve(config: ServiceConfig) -> Int32 {
        var signals = StopSignals.block()
        let log = RequestLog(enabled: config.logRequests)
        let server: Server
        do {
            server = try Server(config: config)
        } catch {
            RequestLog().event("failed", [("error", .string(error.message))])
            LogSink.standardError.flush(seconds: 1)
            return 1
        }
        let received = StopSignals.wait(&signals) { ignored in
            log.event("signal", [("signal", .int(Int(ignored))), ("action", .string("ignored"))])
        }
        log.event("signal", [("signal", .int(Int(received))), ("action", .string("drain"))])
        server.stop()
        LogSink.standardError.flush(seconds: 1)
        // A job that did not end after its cancellation keeps its connection thread: the server
        // is not released (its deinit would join that thread). The log is flushed above.
        if server.context.jobs.count > 0 { exitLeavingRunningThreads() }
        return 0
    }
}
