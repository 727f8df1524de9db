import CMicroHTTPD
import CreativeCore
#if canImport(Glibc)
import Glibc
#endif

/// The HTTP service: starts on construction, stops with ``stop(grace:)``.
public final class Server: @unchecked Sendable {
    private let daemon: Daemon
    private var context: ServiceContext { daemon.context }

    /// Starts listening.
    /// - Throws: ``ServiceError/internalError(_:)`` when it cannot listen.
    public init(config: ServiceConfig) throws(ServiceError) {
        Server.tuneProcess()
        daemon = try Daemon(context: ServiceContext(config: config))
        context.log.event("listening", [("host", .string(config.host)), ("port", .int(daemon.port)),
                                        ("workers", .int(config.workers)), ("queue", .int(config.queue)),
                                        ("max_body_bytes", .int(config.maxBodyBytes)),
                                        ("auth", .bool(config.token != nil))])
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
    /// The job gate (tests hold it to provoke 503).
    public var gate: JobGate { context.gate }
    /// The service's metrics.
    public var metrics: Metrics { context.metrics }

    /// Graceful stop: stop accepting, let in-flight requests finish (at most `grace` seconds),
    /// then close everything.
    public func stop(grace: Double? = nil) {
        context.isDraining = true
        daemon.quiesce()
        context.log.event("draining", [("in_flight", .int(context.metrics.requestsInFlight))])
        let deadline = monotonicSeconds() + (grace ?? context.config.drainSeconds)
        while context.metrics.requestsInFlight > 0 && monotonicSeconds() < deadline {
            usleep(10_000)
        }
        let left = context.metrics.requestsInFlight
        daemon.stop()
        context.log.event("stopped", [("unfinished", .int(left))])
    }

    /// Runs until SIGTERM or SIGINT, then stops gracefully. Returns the exit code (0 after a clean stop).
    ///
    /// The signals are blocked in this thread before any other thread starts (so MHD's and
    /// libvips' threads inherit the mask) and taken with `sigwait`: no handler runs on an
    /// arbitrary thread.
    public static func serve(config: ServiceConfig) -> Int32 {
        var signals = sigset_t()
        sigemptyset(&signals)
        sigaddset(&signals, SIGTERM)
        sigaddset(&signals, SIGINT)
        pthread_sigmask(SIG_BLOCK, &signals, nil)
        signal(SIGPIPE, SIG_IGN)
        let server: Server
        do {
            server = try Server(config: config)
        } catch {
            RequestLog().event("failed", [("error", .string(error.message))])
            return 1
        }
        var received: Int32 = 0
        while sigwait(&signals, &received) != 0 {}
        RequestLog(enabled: config.logRequests).event("signal", [("signal", .int(Int(received)))])
        server.stop()
        return 0
    }
}
