import CreativeCore
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

    /// The Prometheus text exposition (version 0.0.4), through ``PrometheusText``.
    public func render() -> String {
        let families: [MetricFamily] = lock.locked {
            [
                .by("status", "creative_worker_jobs_total", .counter, "Results published, by status (valid, rejected, failed).", results),
                .single("creative_worker_jobs_cached_total", .counter,
                        "Results answered by a manifest already in the store (no work done).", Double(cached)),
                .single("creative_worker_store_retries_total", .counter, "Store requests retried after an error.", Double(retried)),
                .single("creative_worker_dead_lettered_total", .counter,
                        "Jobs moved to the dead-letter stream (too many deliveries, or a malformed entry).", Double(deadLettered)),
                .single("creative_worker_claimed_total", .counter,
                        "Jobs claimed after their worker stayed silent past the visibility timeout.", Double(claimed)),
                .single("creative_worker_queue_errors_total", .counter, "Redis commands that failed (then reconnected).",
                        Double(queueErrors)),
                .histogram("creative_worker_job_seconds", "Seconds from taking a job to publishing its result.",
                           bounds: WorkerMetrics.buckets,
                           [MetricFamily.Series(cumulative: bucketCounts, sum: secondsSum, count: secondsCount)]),
                .single("creative_worker_jobs_running", .gauge, "Jobs this worker is running now.", Double(running)),
                .single("creative_worker_group_lag", .gauge, "Entries of the stream not yet delivered to the group.", lag.map(Double.init)),
                .single("creative_worker_group_pending", .gauge, "Entries delivered to the group and not acknowledged.",
                        pending.map(Double.init)),
            ]
        }
        return PrometheusText.write(families)
    }
}
