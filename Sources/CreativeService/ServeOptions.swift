import CreativeCore
import CreativeImaging

/// What `serve` takes, declared once: its flags, its help (the defaults are ``ServiceConfig``'s)
/// and the reading of them into a configuration. Sizes take `K`, `M`, `G`; durations `ms`, `s`,
/// `m`; a bare memory budget is MiB as in every other command, a bare `..._bytes` is bytes.
public enum ServeOptions {
    private static let defaults = ServiceConfig()

    private static func option(_ name: String, _ kind: OptionDeclaration.Kind, _ placeholder: String, _ help: String,
                               _ defaultValue: String?, bareUnit: Int = 1, repeatable: Bool = false,
                               mistakenNames: [String] = []) -> OptionDeclaration {
        OptionDeclaration(name, kind, placeholder: placeholder, help: help, defaultValue: defaultValue,
                          surfaces: .commandLine, mistakenNames: mistakenNames, bareUnit: bareUnit, repeatable: repeatable)
    }

    /// A flag of a ranged kind (``IntegerOption``, ``ByteSizeOption``, ``DurationOption``).
    private static func option<Reading>(_ name: String, _ range: ClosedRange<Reading.Bound>, _ placeholder: String,
                                        _ help: String, _ defaultValue: String?, bareUnit: Int = 1,
                                        mistakenNames: [String] = []) -> RangedOption<Reading> {
        RangedOption(name, range, placeholder: placeholder, help: help, defaultValue: defaultValue, surfaces: .commandLine,
                     mistakenNames: mistakenNames, bareUnit: bareUnit)
    }

    private static func size(_ bytes: Int) -> String { Quantity.describe(bytes: bytes) }
    private static func seconds(_ value: Double) -> String { TextFormat.scale(value) + "s" }

    public static let host = option("host", .text(maxLength: 255), "ADDR",
                                    "address to bind (0.0.0.0 for every interface)", defaults.host)
    public static let port: IntegerOption = option("port", 0...65535, "N", "TCP port (0 picks a free one, logged at start; "
                                    + "else $CREATIVE_PORT)", "\(defaults.port)")
    public static let tokenFile = option("token_file", .text(maxLength: 4096), "F", "file holding the bearer token every "
                                         + "/v1 route then needs (at least 16 bytes, for example from 'openssl rand -hex 32')", nil)
    public static let allowUnauthenticated = option("allow_unauthenticated", .toggle, "",
                                                    "serve a non-loopback --host without --token-file (refused otherwise)", "false")
    public static let allowedHost = option("allowed_host", .text(maxLength: 255), "NAME", "without a token only requests "
                                           + "whose Host is localhost, 127.0.0.1 or [::1] are answered (403 host_not_allowed: "
                                           + "DNS rebinding); this adds NAME (repeatable)", nil, repeatable: true)
    public static let adminHost = option("admin_host", .text(maxLength: 255), "ADDR",
                                         "address of the admin listener: /healthz, /readyz, /metrics", defaults.adminHost)
    public static let adminPort: IntegerOption = option("admin_port", 0...65535, "N",
                                         "its port (0 picks a free one; else $CREATIVE_ADMIN_PORT)", "\(defaults.adminPort)")
    public static let workers: IntegerOption = option("workers", 1...1024, "N",
                                       "image jobs (validate, render, process) run at once", "2 per processor")
    public static let queue: IntegerOption = option("queue", 0...100_000, "N",
                                     "jobs that may wait for a slot before 503 + Retry-After", "\(defaults.queue)")
    public static let maxBodyBytes: ByteSizeOption = option("max_body_bytes", 1...1 << 30, "SIZE",
                                            "largest image upload (413 above it)", size(defaults.maxBodyBytes))
    public static let maxJSONBodyBytes: ByteSizeOption = option("max_json_body_bytes", 1...1 << 24, "SIZE",
                                                "largest body of the other routes", size(defaults.maxJSONBodyBytes))
    public static let memoryBudget: ByteSizeOption = option("memory_budget", 1 << 20...1 << 40, "SIZE",
                                            "memory buffered bodies, running jobs (their charged peak) and answers being sent "
                                            + "may hold at once, "
                                            + "for the whole process (503 + Retry-After when it stays full for --budget-wait; "
                                            + "a bare number is MiB)", size(defaults.memoryBudget), bareUnit: 1 << 20)
    public static let jobMemoryBudget: ByteSizeOption = option("job_memory_budget", 1 << 20...1 << 40, "SIZE",
                                               "most memory one job may hold at its peak, charged before it starts "
                                               + "(422 too_many_pixels; the CLI's --memory-budget; a bare number is MiB)",
                                               Product.defaultsText({ size($0.jobDefaults.memoryBudget) },
                                                                    name: { "product=\($0)" }),
                                               bareUnit: 1 << 20)
    public static let budgetWait: DurationOption = option("budget_wait", 0...3600, "S",
                                          "how long a request body waits for the memory budget (a job waits for it in line, up to 10 s)", seconds(defaults.budgetWait))
    public static let jobTimeout: DurationOption = option("job_timeout", 0.001...3600, "S", "how long one validate, render or "
                                          + "process job may run (422 timeout; the CLI's --timeout)",
                                          Product.defaultsText({ seconds($0.jobDefaults.serviceTimeout) },
                                                               name: { "product=\($0)" }))
    public static let drainTimeout: DurationOption = option("drain_timeout", 0...3600, "S", "on SIGTERM, how long requests in "
                                            + "flight may take to finish before their jobs are cancelled (the process exits "
                                            + "at most 2 s later)", seconds(defaults.drainSeconds))
    public static let idleTimeout: DurationOption = option("idle_timeout", 1...3600, "S",
                                           "how long a connection may be idle mid-request or mid-answer",
                                           seconds(Double(defaults.connectionTimeout)), mistakenNames: ["timeout"])
    public static let headerTimeout: DurationOption = option("header_timeout", 1...3600, "S", "time for a request's line and "
                                             + "headers, and for an idle keep-alive", seconds(defaults.headerTimeout))
    public static let minBodyRate: ByteSizeOption = option("min_body_rate", 0...1 << 30, "SIZE",
                                           "bytes per second a body must bring in each 5 s window (0: no check)",
                                           size(defaults.minBodyRate))
    public static let maxConnections: IntegerOption = option("max_connections", 1...100_000, "N", "open connections at most",
                                              "\(defaults.maxConnections)")
    public static let maxConnectionsPerClient: IntegerOption = option("max_connections_per_client", 0...100_000, "N",
                                                       "open connections per client address (0: no cap)",
                                                       "\(defaults.maxConnectionsPerClient)")
    public static let maxInlineBytes: ByteSizeOption = option("max_inline_bytes", 0...1 << 30, "SIZE", "most bytes of files one "
                                              + "/v1/process answer inlines (over it 422 answer_too_large: list with "
                                              + "inline=false, fetch with file=NAME)", size(defaults.maxInlineFileBytes))
    public static let healthcheck = option("healthcheck", .toggle, "", "GET /healthz on 127.0.0.1:ADMIN-PORT, exit 0 when "
                                           + "it answers 200 (for HEALTHCHECK)", "false")

    public static let apiParameters = option("api_parameters", .toggle, "", "print every route's query parameters "
                                             + "(name, type, enum, range, default) as JSON and exit", "false")

    /// Every flag of `serve`, in help order.
    public static let all = OptionList([host, port, tokenFile, allowUnauthenticated, allowedHost, adminHost, adminPort,
                                        workers, queue, maxBodyBytes, maxJSONBodyBytes, memoryBudget, jobMemoryBudget,
                                        budgetWait, jobTimeout, drainTimeout, idleTimeout, headerTimeout, minBodyRate,
                                        maxConnections, maxConnectionsPerClient, maxInlineBytes, healthcheck,
                                        apiParameters]).options

    /// The configuration the flags give over the defaults (the ports, the token file and the
    /// allowed hosts are the caller's to read: they need the environment and the file system).
    /// - Throws: ``CoreError`` for a wrong value.
    public static func read(_ source: some OptionSource, into config: inout ServiceConfig) throws(CoreError) {
        config.host = try source.text(host) ?? config.host
        config.adminHost = try source.text(adminHost) ?? config.adminHost
        config.allowUnauthenticated = try source.toggle(allowUnauthenticated)
        config.workers = try source.int(workers) ?? config.workers
        config.queue = try source.int(queue) ?? config.queue
        config.maxBodyBytes = try source.bytes(maxBodyBytes) ?? config.maxBodyBytes
        config.maxJSONBodyBytes = try source.bytes(maxJSONBodyBytes) ?? config.maxJSONBodyBytes
        config.memoryBudget = try source.bytes(memoryBudget) ?? config.memoryBudget
        config.jobMemoryBudget = try source.bytes(jobMemoryBudget) ?? config.jobMemoryBudget
        config.budgetWait = try source.seconds(budgetWait) ?? config.budgetWait
        config.jobTimeout = try source.seconds(jobTimeout) ?? config.jobTimeout
        config.drainSeconds = try source.seconds(drainTimeout) ?? config.drainSeconds
        config.connectionTimeout = try source.seconds(idleTimeout).map { Int($0.rounded(.up)) } ?? config.connectionTimeout
        config.headerTimeout = try source.seconds(headerTimeout) ?? config.headerTimeout
        config.minBodyRate = try source.bytes(minBodyRate) ?? config.minBodyRate
        config.maxConnections = try source.int(maxConnections) ?? config.maxConnections
        config.maxConnectionsPerClient = try source.int(maxConnectionsPerClient) ?? config.maxConnectionsPerClient
        config.maxInlineFileBytes = try source.bytes(maxInlineBytes) ?? config.maxInlineFileBytes
        // One largest upload and one job's largest decode must fit, or such a job never runs.
        guard config.memoryBudget >= config.maxBodyBytes + config.largestJobMemoryBudget else {
            throw .invalidRequest("--memory-budget (\(size(config.memoryBudget))) must be at least --max-body-bytes "
                                  + "(\(size(config.maxBodyBytes))) + --job-memory-budget (\(size(config.largestJobMemoryBudget)))")
        }
    }
}
