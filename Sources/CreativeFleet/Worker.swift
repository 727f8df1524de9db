import CreativeCore
import CreativeDaemon
import CreativeImaging
#if canImport(Glibc)
import Glibc
#endif

/// Whether the worker is stopping, and which jobs it holds (for the heartbeat and the release).
final class WorkerState: @unchecked Sendable {
    private let lock = Lock()
    private var stopping = false
    private var drainEnd = Double.infinity
    private var held: Set<String> = []
    private var loopsRunning = 0
    private var beating = false

    /// True once a stop began: no new job is taken.
    var isStopping: Bool { lock.locked { stopping } }
    /// True once the drain timeout passed: retries give up.
    var isPastDrain: Bool { lock.locked { monotonicSeconds() > drainEnd } }

    func stop(drainSeconds: Double) {
        lock.locked {
            stopping = true
            drainEnd = monotonicSeconds() + drainSeconds
        }
    }

    private var inputLocks: [String: String] = [:]

    func hold(_ id: String) { lock.locked { _ = held.insert(id) } }
    func release(_ id: String) {
        lock.locked {
            held.remove(id)
            inputLocks[id] = nil
        }
    }
    /// The job `id` holds the input lock `key` (nil: no longer).
    func setInputLock(_ key: String?, for id: String) { lock.locked { inputLocks[id] = key } }
    /// The input locks of the jobs still held.
    var heldInputLocks: [String] { lock.locked { held.compactMap { inputLocks[$0] } } }
    var heldJobs: [String] { lock.locked { held.sorted() } }
    func loopStarted() { lock.locked { loopsRunning += 1 } }
    func loopEnded() { lock.locked { loopsRunning -= 1 } }
    var loops: Int { lock.locked { loopsRunning } }
    /// Whether the heartbeat thread is running.
    var heartbeatRunning: Bool {
        get { lock.locked { beating } }
        set { lock.locked { beating = newValue } }
    }
}

/// `creative-tool worker`: ``WorkerConfig/concurrency`` job loops in one consumer group, a
/// heartbeat, and the admin listener.
///
/// Each loop first claims a job whose worker has been silent past the visibility timeout
/// (`XAUTOCLAIM`), else waits for a new one (`XREADGROUP`), and runs it with a ``JobHandler``.
/// The heartbeat resets the idle time of the jobs in flight (so a long job is not taken for a
/// dead one) and reads the group's lag and pending count for the metrics.
public final class Worker: @unchecked Sendable {
    public let config: WorkerConfig
    public let metrics = WorkerMetrics()
    let runner: ProcessJobRunner
    /// Starts the admin listener (`/healthz`, `/readyz`, `/metrics`).
    let startAdmin: AdminListenerStart
    let state = WorkerState()

    /// Seconds the queue has to answer the first PING before the worker gives up starting.
    public static let startTimeout = 3.0

    /// - Parameter startAdmin: starts the admin listener on ``WorkerConfig/adminHost`` and
    ///   ``WorkerConfig/adminPort`` (the service's `AdminServer.start`).
    public init(config: WorkerConfig, runner: ProcessJobRunner, startAdmin: @escaping AdminListenerStart) {
        self.config = config
        self.runner = runner
        self.startAdmin = startAdmin
    }

    /// Runs until SIGTERM or SIGINT, then drains: stops taking jobs, lets those in flight finish
    /// within ``WorkerConfig/drainSeconds``, releases the rest (still pending, idle past the
    /// visibility timeout, so another worker claims them at once; never acknowledged). Returns
    /// the exit code: 0 after a stop, 1 when it could not start. When a job thread is still
    /// running after the release, the process ends inside this call
    /// (``exitLeavingRunningThreads()``), so that no C library's exit handler runs under it.
    public func run() -> Int32 {
        var signals = StopSignals.block()
        // The queue must answer at the start: a wrong address or a queue that is down fails
        // now, in one line, instead of a worker that says "started" and retries for ever.
        // Once running, a lost connection is retried (jobLoop).
        do throws(FleetError) {
            _ = try RedisConnection(address: config.redis, timeout: Self.startTimeout).run(["PING"])
        } catch {
            log("failed", "cannot start: the queue does not answer (\(error.description))")
            return 1
        }
        let admin: any AdminListener
        do throws(DaemonError) {
            admin = try startAdmin(config.adminHost, config.adminPort,
                                   AdminAnswers(ready: { [state] in state.isStopping ? "the worker is stopping" : nil },
                                                metrics: { [metrics] in metrics.render() }))
        } catch {
            log("failed", "admin listener: \(error.description)")
            return 1
        }
        for index in 0..<max(1, config.concurrency) {
            guard startDetachedThread(retaining: LoopStart(worker: self, index: index), workerLoopMain) else {
                log("failed", "cannot start a job thread")
                return 1
            }
        }
        state.heartbeatRunning = startDetachedThread(retaining: LoopStart(worker: self, index: -1), workerLoopMain)
        log("started", "consumer \(config.consumer) of group \(config.group) on \(config.stream), "
            + "\(config.concurrency) at once, admin port \(admin.port)")
        _ = StopSignals.wait(&signals)
        state.stop(drainSeconds: config.drainSeconds)
        log("draining", "\(state.heldJobs.count) jobs in flight")
        while (state.loops > 0 || !state.heldJobs.isEmpty) && !state.isPastDrain { usleep(20_000) }
        // The heartbeat ends past the drain; only then are the jobs left released, so no late
        // beat marks them busy again.
        while state.heartbeatRunning { usleep(20_000) }
        let left = state.heldJobs
        if !left.isEmpty {
            let redis = RedisConnection(address: config.redis)
            try? redis.setIdle(left, stream: config.stream, group: config.group, consumer: config.consumer,
                               idleSeconds: config.visibilityTimeout)
            let locks = state.heldInputLocks
            if !locks.isEmpty { _ = try? redis.run(["DEL"] + locks) }
        }
        admin.stop()
        log("stopped", "released \(left.count) unfinished jobs")
        // A job thread still in its released job (past the drain, nobody waits for it).
        if state.loops > 0 { exitLeavingRunningThreads() }
        return 0
    }

    /// One job loop: claim or read, handle, until the stop.
    func jobLoop() {
        state.loopStarted()
        defer { state.loopEnded() }
        var handler: JobHandler?
        var cursor = "0-0"
        var groupReady = false
        var pause = 0.1
        while !state.isStopping {
            do throws(FleetError) {
                if handler == nil { handler = try JobHandler(config: config, runner: runner, metrics: metrics, state: state) }
                guard let handler else { continue }
                let redis = handler.redis
                if !groupReady {
                    try redis.createGroup(config.group, on: config.stream)
                    groupReady = true
                }
                let claimed = try redis.claimIdle(config.stream, group: config.group, consumer: config.consumer,
                                                  minIdleSeconds: config.visibilityTimeout, cursor: cursor, count: 1)
                cursor = claimed.cursor
                let fromDead = !claimed.entries.isEmpty
                let entries = fromDead ? claimed.entries
                    : try redis.readNew(config.stream, group: config.group, consumer: config.consumer, count: 1,
                                        blockSeconds: config.blockSeconds)
                for entry in entries {
                    state.hold(entry.id)
                    handler.handle(entry, claimed: fromDead)
                    state.release(entry.id)
                }
                pause = 0.1
            } catch {
                // NOGROUP: the stream or group went away (a Redis without its data): made again.
                if error.description.contains("NOGROUP") { groupReady = false }
                metrics.queueError()
                log("queue_error", error.description)
                usleep(UInt32(pause * 1e6))
                pause = min(pause * 2, 5)
            }
        }
    }

    /// The heartbeat: every third of the visibility timeout (at most 5 s), the jobs in flight are
    /// marked busy and the group's lag and pending count read.
    func heartbeatLoop() {
        defer { state.heartbeatRunning = false }
        let redis = RedisConnection(address: config.redis)
        while !state.isPastDrain && !(state.isStopping && state.loops == 0) {
            let held = state.heldJobs
            do throws(FleetError) {
                try redis.setIdle(held, stream: config.stream, group: config.group, consumer: config.consumer, idleSeconds: 0)
                metrics.observed(lag: try redis.lag(config.stream, group: config.group),
                                 pending: try redis.pendingCount(config.stream, group: config.group))
            } catch {
                metrics.observed(lag: nil, pending: nil)
            }
            let next = monotonicSeconds() + min(5, max(0.1, config.visibilityTimeout / 3))
            while monotonicSeconds() < next && !state.isPastDrain && !(state.isStopping && state.loops == 0) {
                usleep(50_000)
            }
        }
    }

    /// One JSON log line on standard error.
    func log(_ event: String, _ message: String) {
        WorkerLog.write(event, consumer: config.consumer, [("message", .string(message))])
    }
}

/// What a worker thread is started with: `index` -1 is the heartbeat.
private final class LoopStart {
    let worker: Worker
    let index: Int
    init(worker: Worker, index: Int) {
        self.worker = worker
        self.index = index
    }
}

/// The threads' entry point (a plain C function, as pthread wants).
private func workerLoopMain(_ context: UnsafeMutableRawPointer?) -> UnsafeMutableRawPointer? {
    guard let context else { return nil }
    let start = Unmanaged<LoopStart>.fromOpaque(context).takeRetainedValue()
    if start.index < 0 { start.worker.heartbeatLoop() } else { start.worker.jobLoop() }
    return nil
}
