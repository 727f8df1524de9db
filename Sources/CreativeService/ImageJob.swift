import CreativeCore
import CreativeImaging

/// One image job (validate, render, process) as its handler runs it: the limits it runs under
/// and when it started.
struct ImageJob {
    /// The per-job memory budget, the deadline (`--job-timeout`) and the request's cancellation.
    let limits: JobLimits
    let started: Double

    /// The limits with what is left of the job's deadline, for a second pass within the same job
    /// (the validation report of a failed render): one deadline covers the whole job.
    var rest: JobLimits {
        var rest = limits
        if let timeout = limits.timeout { rest.timeout = max(0, timeout - (monotonicSeconds() - started)) }
        return rest
    }
}

/// The jobs in progress, running or waiting for a slot, so that a stop can cancel them.
final class JobRegistry: @unchecked Sendable {
    private let lock = Lock()
    private var jobs: [ObjectIdentifier: Cancellation] = [:]
    /// Set by ``cancelAll(reason:)``: a job added afterwards is cancelled at once.
    private var closed: String?

    func add(_ job: Cancellation) {
        lock.locked {
            jobs[ObjectIdentifier(job)] = job
            if let closed { job.cancel(reason: closed) }
        }
    }

    func remove(_ job: Cancellation) { lock.locked { _ = jobs.removeValue(forKey: ObjectIdentifier(job)) } }

    /// Jobs in progress now.
    var count: Int { lock.locked { jobs.count } }

    /// Cancels every job in progress with `reason`, and every job added from now on; returns
    /// how many were cancelled by this call.
    func cancelAll(reason: String) -> Int {
        lock.locked {
            closed = reason
            return jobs.values.filter { $0.cancel(reason: reason) }.count
        }
    }
}

extension ServiceContext {
    /// Runs an image job for `request`: waits for a slot (``JobGate``; dropped when its client goes
    /// away while it waits), takes the job's decode memory from the process-wide budget (`memory`,
    /// evaluated in the slot, capped at the per-job budget: a job over it is refused by the
    /// imaging layer without decoding), then runs `body` under the job's limits. Memory and slot
    /// are given back however the job ends.
    /// - Throws: ``ServiceError/busy(retryAfter:)`` when no slot is free in time,
    ///   ``ServiceError/memoryBusy(retryAfter:)`` when the budget stays full for
    ///   ``ServiceConfig/jobBudgetWait``,
    ///   503 `shutting_down` for a job cancelled by a stop (`cancelled` when its client went away:
    ///   nobody reads that answer), or what `body` throws.
    func runJob<T>(_ request: Request, product: Product, memory: () -> Int,
                   _ body: (ImageJob) throws(ServiceError) -> T) throws(ServiceError) -> T {
        let cancellation = request.cancellation
        guard gate.enter(cancellation: cancellation) else {
            if let reason = cancellation.reason { throw stopped(reason) }
            throw .busy(retryAfter: 1)
        }
        defer { gate.leave() }
        let jobBudget = config.jobBudget(for: product)
        let bytes = min(max(0, memory()), jobBudget)
        // The memory is waited for in line, as the slot is: four uploads on 2 cores (a banner job
        // holds 60-70 MiB of the 160 MiB budget) take their turns instead of two answering 503.
        guard budget.reserve(bytes, waitingUntil: monotonicSeconds() + config.jobBudgetWait) else {
            throw .memoryBusy(retryAfter: 1)
        }
        defer { budget.release(bytes) }
        let job = ImageJob(limits: JobLimits(memoryBudget: jobBudget, timeout: config.jobDeadline(for: product),
                                             cancellation: cancellation),
                           started: monotonicSeconds())
        let result: T
        do {
            result = try body(job)
        } catch {
            if let reason = cancellation.reason { throw stopped(reason) }
            if error.code == "timeout" { metrics.jobStopped(reason: "timeout") }
            throw error
        }
        if let reason = cancellation.reason { throw stopped(reason) }
        return result
    }

    /// The answer of a cancelled job, counted in `creative_jobs_cancelled_total`.
    private func stopped(_ reason: String) -> ServiceError {
        metrics.jobStopped(reason: reason)
        if reason == JobRegistry.shutdown {
            return .unavailable(code: "shutting_down", message: "the service is shutting down; the job was stopped")
        }
        return .unavailable(code: "cancelled", message: "the job was cancelled (\(reason))")
    }
}

extension JobRegistry {
    /// Cancellation reasons: the client closed its connection; the drain limit of a stop passed.
    static let clientGone = "client_gone"
    static let shutdown = "shutdown"
}
