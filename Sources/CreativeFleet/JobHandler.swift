import CreativeImaging
#if canImport(Glibc)
import Glibc
#endif

/// Runs one job entry to its end on one worker thread: its own Redis connection and store client.
///
/// The order is the contract: download (size-capped), run the job, upload every file under
/// `PREFIX/<sha256 of the input>/<settings version>/`, `manifest.json` last; then add the result
/// entry and acknowledge in one transaction. A manifest already there answers the job with no
/// work. Store errors are retried with backoff for ``WorkerConfig/retrySeconds``; after that the
/// entry stays pending (its error kept) and is delivered again after the visibility timeout.
final class JobHandler {
    let config: WorkerConfig
    let runner: ProcessJobRunner
    let metrics: WorkerMetrics
    let state: WorkerState
    let redis: RedisConnection
    let store: S3Client

    init(config: WorkerConfig, runner: ProcessJobRunner, metrics: WorkerMetrics, state: WorkerState) throws(FleetError) {
        self.config = config
        self.runner = runner
        self.metrics = metrics
        self.state = state
        redis = RedisConnection(address: config.redis)
        store = try S3Client(endpoint: config.endpoint, credentials: config.credentials)
    }

    /// What a job came to, for its result entry.
    struct Answer {
        var status: String
        var codes: [String]
        var manifest: String
        var cached: Bool
        var message = ""
        /// A campaign job's files: `campaign.json`, `campaign.png` (empty when none) and each
        /// creative's manifest in the order of its sources (empty for a creative with none).
        var campaign = "", sheet = "", manifests: [String] = []

        /// A job that could not finish: `failed`, its code and message, nothing written.
        static func failed(_ error: FleetError) -> Answer { failed(code: error.code, message: error.message) }

        /// A job that ran and failed (``JobFailure``): `failed`, its code and message.
        static func failed(_ failure: JobFailure) -> Answer { failed(code: failure.code, message: failure.message) }

        static func failed(code: String, message: String) -> Answer {
            Answer(status: "failed", codes: [code], manifest: "", cached: false, message: message)
        }
    }

    /// Handles `entry`; `claimed` when it was taken from a silent worker (its delivery count is
    /// then read, and past the maximum it is dead-lettered instead).
    func handle(_ entry: StreamEntry, claimed: Bool) {
        let started = monotonicSeconds()
        metrics.jobStarted()
        defer { metrics.jobEnded() }
        let isCampaign = entry.fields.contains { $0.0 == "sources" }
        if let problem = JobFieldLimits.problem(entry) {
            let answer = Answer.failed(.badJob(problem))
            publish(JobFieldLimits.withinLimits(entry), answer, campaign: isCampaign, started: started)
            return metrics.published(status: answer.status, cached: false, seconds: monotonicSeconds() - started)
        }
        if claimed {
            metrics.claimedFromDeadWorker()
            let deliveries = (try? redis.deliveries(of: entry.id, stream: config.stream, group: config.group)) ?? 1
            if deliveries > config.maxDeliveries {
                let last = (try? redis.run(["HGET", config.lastErrors, entry.id]).text) ?? nil
                return deadLetter(entry, deliveries: deliveries, error: last
                    ?? "delivered \(deliveries) times and no delivery finished (its worker stopped during the job)")
            }
        }
        let answer: Answer
        do throws(FleetError) {
            if isCampaign {
                if entry["source"] != nil { throw .badJob("give source (one creative) or sources (a campaign), not both") }
                let sources = try CampaignSources.parse(entry["sources"] ?? "")
                for source in sources { TestHook.crash(config.testHook, source: source.description) }
                let settings = try runner.settings(entry)
                answer = try retrying { () throws(FleetError) in try self.executeCampaign(sources, settings: settings, entry: entry.id) }
            } else {
                let source = try S3Location(parsing: entry["source"] ?? "")
                if let problem = source.objectProblem { throw FleetError.badSource(problem) }
                TestHook.crash(config.testHook, source: source.description)
                let settings = try runner.settings(entry)
                answer = try retrying { () throws(FleetError) in try self.execute(source, settings: settings, entry: entry.id) }
            }
        } catch {
            // A source that is no s3:// address: the entry cannot be a job.
            if case .badOption = error { return deadLetter(entry, deliveries: 1, error: "bad_job: \(error.message)") }
            if error.isTransient {
                // Left pending: delivered again after the visibility timeout, up to the maximum.
                _ = try? redis.run(["HSET", config.lastErrors, entry.id, error.description])
                WorkerLog.write("job_pending", consumer: config.consumer,
                                [("entry", .string(entry.id)), ("message", .string(error.description)),
                                 ("seconds", .double(monotonicSeconds() - started))])
                return
            }
            answer = Answer.failed(error)
        }
        publish(entry, answer, campaign: isCampaign, started: started)
        metrics.published(status: answer.status, cached: answer.cached, seconds: monotonicSeconds() - started)
    }

    /// Downloads, runs and uploads (or finds the earlier manifest).
    private func execute(_ source: S3Location, settings: JobSettings, entry: String) throws(FleetError) -> Answer {
        let bytes: [UInt8]
        let download = try store.get(source, limit: settings.maxBytes)
        switch download {
        case .tooLarge:
            // Not content-addressed (the input was not read whole): the result alone says why.
            switch runner.run(download, source: source.description, settings: settings) {
            case .success(let output):
                return Answer(status: output.valid ? "valid" : "rejected", codes: output.codes, manifest: "", cached: false)
            case .failure(let failure):
                return Answer.failed(failure)
            }
        case .bytes(let whole): bytes = whole
        }
        let folder = config.store.appending("\(Checksum.sha256(bytes))/\(settings.version)/")
        let manifest = folder.appending("manifest.json")
        if let earlier = try earlierAnswer(manifest) { return earlier }
        return try exclusively(folder, entry: entry, answeredBy: { () throws(FleetError) in try self.earlierAnswer(manifest) }) {
            () throws(FleetError) in try self.upload(bytes, source: source, settings: settings, folder: folder)
        }
    }

    /// Runs `work`, the job of the input whose files go in `folder`, holding the input's lock
    /// (`SET NX` with the visibility timeout). While another worker holds it, its answer
    /// (`earlier`: the commit file it writes last) is waited for; if it neither finishes nor lets
    /// go within the visibility timeout, the work is done here (the same bytes again: harmless).
    func exclusively(_ folder: S3Location, entry: String, answeredBy earlier: () throws(FleetError) -> Answer?,
                     work: () throws(FleetError) -> Answer) throws(FleetError) -> Answer {
        let lock = config.lockPrefix + folder.key
        var holding = try takeLock(lock)
        if !holding {
            let deadline = monotonicSeconds() + config.visibilityTimeout
            while !holding && monotonicSeconds() < deadline {
                usleep(200_000)
                if let answer = try earlier() { return answer }
                holding = try takeLock(lock)
            }
        }
        if holding { state.setInputLock(lock, for: entry) }
        defer {
            if holding {
                _ = try? redis.run(["DEL", lock])
                state.setInputLock(nil, for: entry)
            }
        }
        if let answer = try earlier() { return answer }
        return try work()
    }

    /// The job of `bytes`, its files uploaded into `folder`, the manifest last.
    private func upload(_ bytes: [UInt8], source: S3Location, settings: JobSettings, folder: S3Location) throws(FleetError) -> Answer {
        let manifest = folder.appending(JobResult.manifestName)
        switch runner.run(.bytes(bytes), source: source.description, settings: settings) {
        case .failure(let failure):
            return Answer.failed(failure)
        case .success(let output):
            for (index, file) in output.files.enumerated() {
                if index == output.files.count - 1 { TestHook.hold(config.testHook, source: source.description) }
                try retrying { () throws(FleetError) in
                    try self.store.put(file.bytes, at: folder.appending(file.name), contentType: file.contentType,
                                       sha256: file.sha256)
                }
            }
            return Answer(status: output.valid ? "valid" : "rejected", codes: output.codes,
                          manifest: manifest.description, cached: false)
        }
    }

    /// The answer an existing manifest gives, or nil when there is none.
    private func earlierAnswer(_ manifest: S3Location) throws(FleetError) -> Answer? {
        let found: S3Download
        do { found = try store.get(manifest, limit: 1 << 24) } catch .notFound { return nil }
        guard case .bytes(let bytes) = found, let summary = runner.summary(ofManifest: bytes) else { return nil }
        return Answer(status: summary.valid ? "valid" : "rejected", codes: summary.codes,
                      manifest: manifest.description, cached: true)
    }

    /// `SET KEY CONSUMER NX PX visibility`: true when this worker now holds the input's lock.
    private func takeLock(_ key: String) throws(FleetError) -> Bool {
        let reply = try redis.run(["SET", key, config.consumer, "NX", "PX", String(Int(config.visibilityTimeout * 1000))])
        return reply != .null
    }

    /// Adds the result entry and acknowledges the job, in one transaction, retried until Redis
    /// answers (a restarted Redis) or the worker is stopping past its drain.
    /// A campaign's result names its `campaign.json`, `campaign.png`, each creative's manifest
    /// (one line per source) and its sources, where a single job's names its manifest and source.
    /// Then logs the job's line (``WorkerLog/jobFields``), `started` being when it was taken.
    private func publish(_ entry: StreamEntry, _ answer: Answer, campaign: Bool, started: Double) {
        let files: [(String, String)] = campaign
            ? [("campaign", answer.campaign), ("sheet", answer.sheet), ("manifests", answer.manifests.joined(separator: "\n")),
               ("sources", entry["sources"] ?? "")]
            : [("manifest", answer.manifest), ("source", entry["source"] ?? "")]
        let fields: [(String, String)] = [
            ("id", entry["id"] ?? entry.id), ("entry", entry.id), ("status", answer.status),
            ("codes", answer.codes.joined(separator: ",")),
        ] + files + [("cached", answer.cached ? "true" : "false"), ("worker", config.consumer)]
            + (answer.message.isEmpty ? [] : [("message", answer.message)])
        commit(entry.id, [["XADD", config.results, "*"] + fields.flatMap { [$0.0, $0.1] }])
        WorkerLog.write("job", consumer: config.consumer, WorkerLog.jobFields(
            entry: entry.id, id: entry["id"] ?? entry.id, status: answer.status, codes: answer.codes, cached: answer.cached,
            written: campaign ? ("campaign", answer.campaign) : ("manifest", answer.manifest),
            seconds: monotonicSeconds() - started, message: answer.message))
    }

    /// Moves the job to the dead-letter stream with its error, and acknowledges it.
    private func deadLetter(_ entry: StreamEntry, deliveries: Int, error: String) {
        let fields = [("entry", entry.id), ("deliveries", String(deliveries)), ("error", error)] + entry.fields
        commit(entry.id, [["XADD", config.deadLetters, "*"] + fields.flatMap { [$0.0, $0.1] }])
        metrics.deadLetteredJob()
        WorkerLog.write("dead_lettered", consumer: config.consumer,
                        [("entry", .string(entry.id)), ("deliveries", .int(deliveries)), ("message", .string(error))])
    }

    private func commit(_ id: String, _ commands: [[String]]) {
        var pause = 0.1
        while !state.isPastDrain {
            do {
                try redis.transaction(commands + [["XACK", config.stream, config.group, id],
                                                  ["HDEL", config.lastErrors, id]])
                return
            } catch {
                metrics.queueError()
                usleep(UInt32(pause * 1e6))
                pause = min(pause * 2, 2)
            }
        }
    }

    /// Runs `work`, retrying transient store errors with exponential backoff for
    /// ``WorkerConfig/retrySeconds``.
    func retrying<T>(_ work: () throws(FleetError) -> T) throws(FleetError) -> T {
        let deadline = monotonicSeconds() + config.retrySeconds
        var pause = 0.25
        while true {
            do {
                return try work()
            } catch where error.isTransient && monotonicSeconds() + pause < deadline && !state.isPastDrain {
                metrics.retriedStoreError()
                usleep(UInt32(pause * 1e6))
                pause = min(pause * 2, 4)
            }
        }
    }
}
