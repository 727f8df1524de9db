import CreativeCore
import CreativeFleet
import CreativeImaging
import CreativeService
#if canImport(Glibc)
import Glibc
#endif

/// `creative-tool worker`: `process` for every job of a Redis stream, results on S3.
enum WorkerCommand: DeclaredCommand {
    static let name = "worker"
    static let summary = "run process for every job of a Redis Streams consumer group, results on S3-compatible storage"

    private static func seconds(_ value: Double) -> String { TextFormat.scale(value) + "s" }
    private static let anyDuration = Double.leastNonzeroMagnitude...86_400

    static let group = OptionDeclaration(
        "group", .text(maxLength: 255), placeholder: "NAME",
        help: "the consumer group, made when missing (reading from the stream's start)",
        defaultValue: WorkerConfig.defaultGroup, surfaces: .commandLine)
    static let consumer = OptionDeclaration(
        "consumer", .text(maxLength: 255), placeholder: "NAME", help: "this worker's name in the group",
        defaultValue: "the host name", surfaces: .commandLine)
    static let deadLetterStream = OptionDeclaration(
        "dead_letter_stream", .text(maxLength: 4096), placeholder: "NAME",
        help: "where a job delivered --max-deliveries times goes", defaultValue: "STREAM:dead", surfaces: .commandLine)
    static let concurrency = IntegerOption(
        "concurrency", 1...256, placeholder: "N", help: "jobs at once; give the worker memory for that many "
            + "--memory-budget", defaultValue: "\(WorkerConfig.defaultConcurrency)", surfaces: .commandLine)
    static let visibilityTimeout = DurationOption(
        "visibility_timeout", anyDuration, placeholder: "S",
        help: "a job unacknowledged this long with no heartbeat from its worker is claimed by another (30s, 2m; a "
            + "bare number is seconds)", defaultValue: seconds(WorkerConfig.defaultVisibilityTimeout), surfaces: .commandLine)
    static let maxDeliveries = IntegerOption(
        "max_deliveries", 1...1000, placeholder: "N",
        help: "deliveries before a job goes to the dead-letter stream",
        defaultValue: "\(WorkerConfig.defaultMaxDeliveries)", surfaces: .commandLine)
    static let drainTimeout = ServeOptions.drainTimeout.with(
        help: "on SIGTERM, how long jobs in flight may take to finish; the rest are released for other workers, "
            + "not acknowledged; exit 0", defaultValue: seconds(WorkerConfig.defaultDrainSeconds))
    static let retryTimeout = DurationOption(
        "retry_timeout", anyDuration, placeholder: "S",
        help: "how long one delivery retries store errors, with backoff, before leaving the job pending",
        defaultValue: seconds(WorkerConfig.defaultRetrySeconds), surfaces: .commandLine)
    static let adminHost = ServeOptions.adminHost
    static let adminPort = ServeOptions.adminPort.with(help: "its port (0 picks a free one)")
    /// The job's options (`--product`, `--format`...): process's, for the entries that name none.
    static let jobOptions = ProcessRequest.jobFields.options.map { $0.with(help: $0.help + "; for entries that name none") }

    static let declared = FleetOptions.declared
        + OptionList([group, consumer, deadLetterStream, concurrency, visibilityTimeout, maxDeliveries, drainTimeout,
                      retryTimeout, adminHost, adminPort]).options
        + jobOptions + [ValidateCommand.maxBytes.declaration, JobLimitOptions.maxPixels.declaration]
        + JobLimitOptions.declared
    static let help = CommandHelp(
        synopsis: ["--redis URL --store s3://BUCKET/PREFIX [--s3-endpoint URL] [--stream NAME] [--concurrency N] [options]"],
        notes: FleetOptions.credentialsNote + [
            "A job entry: source (s3://BUCKET/KEY), or sources (one per line, at most \(CampaignSources.maxSources): one "
                + "campaign, as process FILE FILE...);",
            "id (the caller's; default the entry ID); process's options as fields, read and refused as process reads them: "
                + ProcessRequest.jobFields.options.map(\.name).joined(separator: ", ") + ".",
            "Each job is exactly process's; its files go under PREFIX/<sha256 of the input>/<settings version>/,",
            "manifest.json last, then a result entry (id, entry, status valid|rejected|failed, codes, manifest, source,",
            "cached, worker) is added and the job acknowledged. A job whose manifest exists is answered without work.",
            "A campaign's go under PREFIX/campaigns/<key>/<version>/: NAME/ for each creative, campaign.png (or .jpg), then",
            "campaign.json last; its result names campaign, sheet, manifests and sources instead of manifest and source.",
        ],
        examples: ["--redis redis://127.0.0.1:6379 --store s3://creatives/results",
                   "--redis redis://queue:6379 --store s3://creatives/results --s3-endpoint http://store:8333 "
                       + "--concurrency 4 --visibility-timeout 2m --memory-budget 512M"],
        exitCodes: "0 stopped by SIGTERM or SIGINT after the drain, 1 cannot start (store, queue or credentials; a "
            + "queue that does not answer within 3 s at the start; once running, a lost queue is retried), "
            + "64 usage error")

    static func run(_ arguments: ParsedArguments) throws(CLIError) -> Int32 {
        guard arguments.positionals.isEmpty else { throw .usage("worker takes no FILE; jobs come from --stream") }
        let fleet = try FleetOptions.read(arguments)
        let stated = try CLIError.reading { () throws(CoreError) in try settings(arguments) }
        let limits = try ValidateCommand.validationLimits(arguments, checkingProfiles: false)
        // Checked here, so a wrong default is a usage error; each entry reads it as its own default.
        _ = try CLIError.reading { () throws(CoreError) in try ProcessRequest(arguments) }
        let defaults = Dictionary(jobOptions.compactMap { option in arguments.given(option).map { (option.name, $0) } },
                                  uniquingKeysWith: { first, _ in first })
        let name = if let given = stated.consumer { given } else { try hostName() }
        let connection = try fleet.connect()
        var config = WorkerConfig(redis: fleet.redis, consumer: name, store: fleet.store,
                                  endpoint: connection.endpoint, credentials: connection.credentials)
        config.stream = fleet.stream
        config.resultsStream = fleet.results
        stated.apply(&config)
        config.testHook = getenv("CREATIVE_WORKER_TEST_HOOK").map { String(cString: $0) }
        let runner = ProcessJobRunner(limits: limits, defaults: defaults,
                                      jobMemoryBudget: try CLIError.reading { () throws(CoreError) in
                                          try arguments.bytes(JobLimitOptions.memoryBudget)
                                      })
        return Worker(config: config, runner: runner, startAdmin: AdminServer.start).run()
    }

    /// The worker's own options: the consumer name given, and how they change ``WorkerConfig``'s defaults.
    /// - Throws: ``CoreError`` for a wrong value or an empty group or consumer name.
    private static func settings(_ arguments: ParsedArguments) throws(CoreError)
        -> (consumer: String?, apply: (inout WorkerConfig) -> Void) {
        let names = (group: try arguments.text(group), consumer: try arguments.text(consumer))
        for name in [names.group, names.consumer] where name?.isEmpty == true {
            throw .invalidRequest("\(group.flag) and \(consumer.flag) need a name")
        }
        let counts = (concurrency: try arguments.int(concurrency), deliveries: try arguments.int(maxDeliveries),
                      adminPort: try arguments.int(adminPort))
        let durations = (visibility: try arguments.seconds(visibilityTimeout), drain: try arguments.seconds(drainTimeout),
                         retry: try arguments.seconds(retryTimeout))
        let texts = (deadLetters: try arguments.text(deadLetterStream), adminHost: try arguments.text(adminHost))
        return (names.consumer, { config in
            config.group = names.group ?? config.group
            config.deadLetterStream = texts.deadLetters
            config.concurrency = counts.concurrency ?? config.concurrency
            config.maxDeliveries = counts.deliveries ?? config.maxDeliveries
            config.visibilityTimeout = durations.visibility ?? config.visibilityTimeout
            config.drainSeconds = durations.drain ?? config.drainSeconds
            config.retrySeconds = durations.retry ?? config.retrySeconds
            config.adminHost = texts.adminHost ?? config.adminHost
            config.adminPort = counts.adminPort ?? config.adminPort
        })
    }

    /// The host name (a Kubernetes pod's name), the default consumer name.
    private static func hostName() throws(CLIError) -> String {
        var buffer = [CChar](repeating: 0, count: 256)
        guard gethostname(&buffer, buffer.count) == 0 else { throw .usage("\(consumer.flag) NAME is needed (no host name)") }
        return String(decoding: buffer.prefix { $0 != 0 }.map { UInt8(bitPattern: $0) }, as: UTF8.self)
    }
}
