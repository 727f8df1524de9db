import CreativeCore
import CreativeFleet
import CreativeImaging
#if canImport(Glibc)
import Glibc
#endif

/// `creative-tool worker`: `process` for every job of a Redis stream, results on S3.
enum WorkerCommand: Subcommand {
    static let name = "worker"
    static let summary = "run process for every job of a Redis Streams consumer group, results on S3-compatible storage"
    static let usage = """
    usage: creative-tool worker --redis URL --store s3://BUCKET/PREFIX [--s3-endpoint URL]
                                [--stream creative-jobs] [--group creative-workers] [--consumer NAME]
                                [--concurrency N] [--visibility-timeout S] [--max-deliveries N]
                                [--drain-timeout S] [--retry-timeout S] [--dead-letter-stream NAME]
                                [--admin-host 127.0.0.1] [--admin-port 8081]
                                [--product \(Product.names)] [--format auto|png|webp|jpeg]
                                [--max-bytes N] [--max-pixels N] [--timeout S] [--memory-budget MIB]
    \(FleetOptions.usage)
      --group NAME      the consumer group (default creative-workers; made, reading from the
                        stream's start, when missing)
      --consumer NAME   this worker's name in the group (default: the host name)
      --concurrency N   jobs at once (default 2)
      --visibility-timeout S  a job unacknowledged for S seconds with no heartbeat from its worker
                        is claimed by another (default 60)
      --max-deliveries N  deliveries before a job goes to the dead-letter stream (default 5)
      --dead-letter-stream NAME  (default STREAM:dead)
      --drain-timeout S on SIGTERM, seconds for jobs in flight to finish (default 30); the rest are
                        released for other workers, not acknowledged; exit 0
      --retry-timeout S seconds one delivery retries store errors, with backoff (default 20)
      --admin-host, --admin-port  /healthz, /readyz and /metrics (Prometheus)
      --product, --format  for entries that name none (defaults banner, auto)
    \(JobLimitOptions.usage)
    A job entry: source (s3://BUCKET/KEY, required), product, format, id (the caller's; default the
    entry ID). Each job is exactly process's; its files go under
    PREFIX/<sha256 of the input>/<settings version>/, manifest.json last, then a result entry
    (id, entry, status valid|rejected|failed, codes, manifest, source, cached, worker) is added and
    the job acknowledged. A job whose manifest exists is answered without work.
    """
    static let options = FleetOptions.names.union(JobLimitOptions.names).union([
        "--group", "--consumer", "--concurrency", "--visibility-timeout", "--max-deliveries", "--drain-timeout",
        "--retry-timeout", "--dead-letter-stream", "--admin-host", "--admin-port", "--product", "--format",
        "--max-bytes", "--max-pixels",
    ])
    static let flags: Set<String> = []

    static func run(_ arguments: ParsedArguments) throws(CLIError) -> Int32 {
        guard arguments.positionals.isEmpty else { throw .usage("worker takes no FILE; jobs come from --stream") }
        let fleet = try FleetOptions.read(arguments)
        let consumer = if let name = arguments.value("--consumer") { name } else { try hostName() }
        var config = WorkerConfig(redis: fleet.redis, consumer: consumer,
                                  store: fleet.store, endpoint: fleet.endpoint, credentials: fleet.credentials)
        config.stream = fleet.stream
        config.resultsStream = fleet.results
        config.deadLetterStream = arguments.value("--dead-letter-stream")
        config.group = arguments.value("--group") ?? config.group
        config.concurrency = try arguments.int("--concurrency", in: 1...256) ?? config.concurrency
        config.maxDeliveries = try arguments.int("--max-deliveries", in: 1...1000) ?? config.maxDeliveries
        config.visibilityTimeout = try seconds(arguments, "--visibility-timeout") ?? config.visibilityTimeout
        config.drainSeconds = try seconds(arguments, "--drain-timeout") ?? config.drainSeconds
        config.retrySeconds = try seconds(arguments, "--retry-timeout") ?? config.retrySeconds
        config.adminHost = arguments.value("--admin-host") ?? config.adminHost
        config.adminPort = try arguments.int("--admin-port", in: 0...65535) ?? config.adminPort
        config.testHook = getenv("CREATIVE_WORKER_TEST_HOOK").map { String(cString: $0) }
        for name in [config.group, config.consumer] where name.isEmpty { throw .usage("--group and --consumer need a name") }
        var limits = try ProcessJob.limits(arguments)
        limits.product = .defaultProduct
        let runner = ProcessJobRunner(limits: limits, defaultProduct: try Inputs.product(arguments),
                                      defaultFormat: try arguments.choice("--format", FormatChoice.self) ?? .auto)
        return Worker(config: config, runner: runner).run()
    }

    private static func seconds(_ arguments: ParsedArguments, _ name: String) throws(CLIError) -> Double? {
        guard let value = try arguments.double(name) else { return nil }
        guard value > 0, value <= 86_400 else { throw .usage("\(name): give seconds above 0, at most 86400") }
        return value
    }

    /// The host name (a Kubernetes pod's name), the default consumer name.
    private static func hostName() throws(CLIError) -> String {
        var buffer = [CChar](repeating: 0, count: 256)
        guard gethostname(&buffer, buffer.count) == 0 else { throw .usage("--consumer NAME is needed (no host name)") }
        return String(decoding: buffer.prefix { $0 != 0 }.map { UInt8(bitPattern: $0) }, as: UTF8.self)
    }
}
