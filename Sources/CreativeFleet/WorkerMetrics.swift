import CreativeImaging

/// The worker's counters, written as Prometheus text on the admin port's `/metrics`.
public final class WorkerMetrics: @unchecked Sendable {
    /// Upper bounds (seconds) of the job-time histogram buckets.
    static let buckets: [Double] = [0.05, 0.1, 0.25, 0.5, 1, 2.5, 5, 10, 30, 60, 120]

    private let lock = Lock()
    private var results: [String: Int] = ["valid": 0, "rejected": 0, "failed": 0]
    private var cached = 0
    private var retried = 0
    private var deadLettered = 0
    private var claimed = 0
    private var queueErrors = 0
    private var bucketCounts = [Int](repeating: 0, count: WorkerMetrics.buckets.count)
    private var secondsSum = 0.0
    private var secondsCount = 0
    private var lag: Int?
    private var pending: Int?
    private var running = 0

    public init() {}

    /// A result was published: `status` valid, rejected or failed; `cached` when an earlier
    /// manifest answered it.
    func published(status: String, cached isCached: Bool, seconds: Double) {
        lock.locked {
            results[status, default: 0] += 1
            if isCached { cached += 1 }
            for (index, bound) in WorkerMetrics.buckets.enumerated() where seconds <= bound { bucketCounts[index] += 1 }
            secondsSum += seconds
            secondsCount += 1
        }
    }

    func retriedStoreError() { lock.locked { retried += 1 } }
    func deadLetteredJob() { lock.locked { deadLettered += 1 } }
    func claimedFromDeadWorker() { lock.locked { claimed += 1 } }
    func queueError() { lock.locked { queueErrors += 1 } }
    func jobStarted() { lock.locked { running += 1 } }
    func jobEnded() { lock.locked { running -= 1 } }
    func observed(lag: Int?, pending: Int?) { lock.locked { (self.lag, self.pending) = (lag, pending) } }

    /// Results published so far, by status.
    public var published: [String: Int] { lock.locked { results } }

    /// The Prometheus text exposition (version 0.0.4).
    public func render() -> String {
        lock.locked {
            var out = ""
            func metric(_ name: String, _ type: String, _ help: String, _ samples: [(String, String)]) {
                out += "# HELP \(name) \(help)\n# TYPE \(name) \(type)\n"
                for (labels, value) in samples { out += "\(name)\(labels) \(value)\n" }
            }
            metric("creative_worker_jobs_total", "counter", "Results published, by status (valid, rejected, failed).",
                   results.sorted { $0.key < $1.key }.map { ("{status=\"\($0.key)\"}", String($0.value)) })
            metric("creative_worker_jobs_cached_total", "counter",
                   "Results answered by a manifest already in the store (no work done).", [("", String(cached))])
            metric("creative_worker_store_retries_total", "counter", "Store requests retried after an error.",
                   [("", String(retried))])
            metric("creative_worker_dead_lettered_total", "counter",
                   "Jobs moved to the dead-letter stream (too many deliveries, or a malformed entry).",
                   [("", String(deadLettered))])
            metric("creative_worker_claimed_total", "counter",
                   "Jobs claimed after their worker stayed silent past the visibility timeout.", [("", String(claimed))])
            metric("creative_worker_queue_errors_total", "counter", "Redis commands that failed (then reconnected).",
                   [("", String(queueErrors))])
            var cumulative: [(String, String)] = []
            for (index, bound) in WorkerMetrics.buckets.enumerated() {
                cumulative.append(("_bucket{le=\"\(bound)\"}", String(bucketCounts[index])))
            }
            out += "# HELP creative_worker_job_seconds Seconds from taking a job to publishing its result.\n"
                + "# TYPE creative_worker_job_seconds histogram\n"
            for (suffix, value) in cumulative { out += "creative_worker_job_seconds\(suffix) \(value)\n" }
            out += "creative_worker_job_seconds_bucket{le=\"+Inf\"} \(secondsCount)\n"
                + "creative_worker_job_seconds_sum \(secondsSum)\ncreative_worker_job_seconds_count \(secondsCount)\n"
            metric("creative_worker_jobs_running", "gauge", "Jobs this worker is running now.", [("", String(running))])
            metric("creative_worker_group_lag", "gauge", "Entries of the stream not yet delivered to the group.",
                   lag.map { [("", String($0))] } ?? [])
            metric("creative_worker_group_pending", "gauge", "Entries delivered to the group and not acknowledged.",
                   pending.map { [("", String($0))] } ?? [])
            return out
        }
    }
}
