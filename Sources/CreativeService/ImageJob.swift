import CreativeCore
import CreativeImaging

/// One image job (validate, render, process) as its handler runs it: the limits it runs under
/// and when it started.
struct ImageJob {
    /// The per-job memory budget, the deadline (`--job-timeout`) and the request's cancellation.
    let limits: JobLimits
    let started: Double
    /// What the job holds of the process-wide budget; an answer that outlives the job takes its
    /// part of it over (``JobReservation/answerHold(_:)``).
    let reservation: JobReservation

    /// The limits with what is left of the job's deadline, for a second pass within the same job
    /// (the validation report of a failed render): one deadline covers the whole job.
    var rest: JobLimits {
        var rest = limits
        if let timeout = limits.timeout { rest.timeout = max(0, timeout - (monotonicSeconds() - started)) }
        return rest
    }
}

/// The bytes of the process-wide budget a running job holds. The job gives back what is left
/// when it ends; an answer that stays in memory after it (a zip answer, read by a slow client)
/// takes its bytes over first, so they stay charged until libmicrohttpd frees the answer.
final class JobReservation: @unchecked Sendable {
    let budget: MemoryBudget
    private let lock = Lock()
    private var held: Int

    /// `bytes` already reserved from `budget`.
    init(budget: MemoryBudget, bytes: Int) {
        self.budget = budget
        held = max(0, bytes)
    }

    /// What the job still holds.
    var bytes: Int { lock.locked { held } }

    /// Takes `bytes` more from the budget at once (memory the job now holds beyond what it
    /// reserved: a campaign's files kept for its zip answer), held as the rest is.
    func take(_ bytes: Int) {
        let taken = max(0, bytes)
        budget.take(taken)
        lock.locked { held += taken }
    }

    /// A hold of `bytes` for an answer: taken from the job's reservation as far as it goes, the
    /// rest from the budget at once (``MemoryBudget/take(_:)``: the answer is made, its memory in
    /// use). Given back when the hold is freed.
    func answerHold(_ bytes: Int) -> BudgetHold {
        let wanted = max(0, bytes)
        let moved = lock.locked {
            let moved = min(held, wanted)
            held -= moved
            return moved
        }
        budget.take(wanted - moved)
        return BudgetHold(budget: budget, bytes: wanted)
    }

    /// Gives back what the job still holds (once: it holds nothing afterwards).
    func releaseRest() {
        let rest = lock.locked {
            let rest = held
            held = 0
            return rest
        }
        budget.release(rest)
    }
}

/// Bytes of the process-wide budget held by what owns this (an answer's body), given back when
/// it is freed.
final class BudgetHold: Sendable {
    let budget: MemoryBudget
    let bytes: Int

    init(budget: MemoryBudget, bytes: Int) {
        self.budget = budget
        self.bytes = bytes
    }

    deinit { budget.release(bytes) }
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
    /// are given back however the job ends, but for what an answer took over
    /// (``ImageJob/reservation``), given back when the answer is freed.
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
        let reservation = JobReservation(budget: budget, bytes: bytes)
        defer { reservation.releaseRest() }
        let job = ImageJob(limits: JobLimits(memoryBudget: jobBudget, timeout: config.jobDeadline(for: product),
                                             cancellation: cancellation),
                           started: monotonicSeconds(), reservation: reservation)
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
