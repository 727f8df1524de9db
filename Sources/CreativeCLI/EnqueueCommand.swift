import CreativeCore
import CreativeFleet
import CreativeImaging

/// `creative-tool enqueue`: adds one job for the workers, optionally waiting for its result.
enum EnqueueCommand: DeclaredCommand {
    static let name = "enqueue"
    static let summary = "add a job for creative-tool worker (a local file is put on the store first); --wait for its result"

    /// `--product` and `--format`: process's, written into the entry only when given.
    static let product = ProcessRequest.options[CommonOptions.product.name].with(
        help: "the job's product: " + Product.allCases.map(\.rawValue).joined(separator: ", ") + " (default: the worker's)",
        defaultValue: .some(nil))
    static let format = ProcessRequest.format.with(help: "how the renders are written, as process --format (default: "
                                                   + "the worker's)", defaultValue: .some(nil))
    /// How long `--wait` waits, and the largest local file, when not given.
    private static let defaultWaitSeconds = 300.0, defaultMaxBytes = 1 << 30
    static let id = OptionDeclaration(
        "id", .text(maxLength: 1024), placeholder: "ID", help: "the caller's id, copied into the result",
        defaultValue: "the job's entry ID", surfaces: .commandLine)
    static let wait = OptionDeclaration(
        "wait", .toggle, help: "wait for the result and print it (JSON); exit 0 valid, 1 rejected or failed",
        defaultValue: "false", surfaces: .commandLine)
    static let waitTimeout = OptionDeclaration(
        "wait_timeout", .duration(Double.leastNonzeroMagnitude...86_400), placeholder: "S",
        help: "how long --wait waits, then exit 1, code wait_timeout (30s, 5m; a bare number is seconds)",
        defaultValue: TextFormat.scale(defaultWaitSeconds) + "s", surfaces: .commandLine)
    static let maxBytes = JobLimitOptions.maxBytes(default: defaultMaxBytes).with(help: "largest local FILE put on the store "
                                                                         + "(512M, 1G; a bare number is bytes)")
    /// `--with`: process's, written into the entry when given.
    static let with = ProcessRequest.with.with(help: ProcessRequest.with.help + " (the entry's with field)")
    /// `--weight-budget` and `--profile`: process's, written into the entry (its `weight_budget`
    /// and `profile` fields) only when given, checked first as the worker checks them.
    static let weightBudget = ProcessRequest.weightBudget.with(
        help: "every render's largest file, as process --weight-budget (the entry's weight_budget field)",
        defaultValue: .some(nil))
    static let profile = ProcessRequest.profile.with(
        help: "the platforms whose weight for each render's size is its budget when stricter, as process --profile "
            + "(the entry's profile field): " + PlatformProfiles.names.joined(separator: ", "),
        defaultValue: .some(nil))
    static let declared = FleetOptions.declared + [product, format, with, weightBudget, profile, id, wait, waitTimeout,
                                                   maxBytes]
    static let help = CommandHelp(
        synopsis: ["FILE|s3://BUCKET/KEY --redis URL --store s3://BUCKET/PREFIX [--s3-endpoint URL] [--id ID] [--wait] "
                   + "[options]"],
        operands: [("FILE", "a local creative: put on the store at PREFIX/sources/<sha256>[.EXT] (the same bytes, the "
                    + "same key), then the job names it"),
                   ("s3://BUCKET/KEY", "a creative already on the store, named as it is")],
        notes: FleetOptions.credentialsNote + ["Prints the job as one JSON line: entry, id, source; with --wait then the result."],
        examples: ["banner-960x150.png --redis redis://127.0.0.1:6379 --store s3://creatives/results --wait",
                   "s3://uploads/campaign-7/banner.png --redis redis://queue:6379 --store s3://creatives/results "
                       + "--product banner --id campaign-7/banner"],
        exitCodes: "0 added (--wait: valid), 1 the store or queue failed (--wait: rejected, failed or wait_timeout), "
            + "64 usage error")

    static func run(_ arguments: ParsedArguments) throws(CLIError) -> Int32 {
        guard arguments.positionals.count == 1 else { throw .usage("give exactly one FILE or s3://BUCKET/KEY") }
        let fleet = try FleetOptions.read(arguments)
        let (chosenProduct, chosenFormat, callerID, waitSeconds, limit) = try CLIError.reading { () throws(CoreError) in
            (try arguments.choice(product, Product.self), try arguments.choice(format, FormatChoice.self),
             try arguments.text(id), try arguments.seconds(waitTimeout) ?? defaultWaitSeconds,
             try arguments.bytes(maxBytes) ?? defaultMaxBytes)
        }
        if callerID?.isEmpty == true { throw .usage("--id must not be empty (leave it out: the entry's id is used)") }
        // Checked here as the worker checks it, so a wrong size is a usage error, not a dead letter.
        let campaign = try CLIError.reading { () throws(CoreError) in
            try ProcessRequest.campaignSizes(arguments.text(with), product: chosenProduct ?? .defaultProduct,
                                             spelling: arguments.spelling(with))
        }
        // The worker reads these fields as process reads its flags: a wrong one is a usage error here.
        let budget = try CLIError.reading { () throws(CoreError) in
            try RenderRequest.weightBudgets(arguments, weightBudget: weightBudget)
        }
        let given = arguments.positionals[0]
        let source: S3Location
        if given.hasPrefix("s3://") {
            source = try FleetOptions.attempt { () throws(FleetError) in try S3Location(parsing: given) }
            if let problem = source.objectProblem { throw .usage(problem) }
        } else {
            let connection = try fleet.connect()
            source = try FleetOptions.attempt { () throws(FleetError) in
                try upload(given, to: fleet.store, connection, maxBytes: limit)
            }
        }
        let redis = RedisConnection(address: fleet.redis)
        let results = fleet.results ?? fleet.stream + ":results"
        var fields = [("source", source.description)]
        if let chosenProduct { fields.append(("product", chosenProduct.rawValue)) }
        if let chosenFormat { fields.append(("format", chosenFormat.rawValue)) }
        if !campaign.isEmpty { fields.append((with.name, campaign.map(\.description).joined(separator: ","))) }
        if arguments.has(weightBudget) { fields.append((weightBudget.name, String(budget.asked))) }
        if !budget.profiles.isEmpty { fields.append((profile.name, budget.profiles.names)) }
        if let callerID { fields.append(("id", callerID)) }
        let (after, entry) = try FleetOptions.attempt { () throws(FleetError) in
            (try redis.lastID(of: results), try redis.add(to: fleet.stream, fields))
        }
        try Streams.outJSON(.object([("entry", .string(entry)), ("id", .string(callerID ?? entry)),
                                     ("source", .string(source.description))]))
        guard arguments.flag(wait.flag) else { return ExitCode.success }
        let found = try FleetOptions.attempt { () throws(FleetError) in
            try waitForResult(of: entry, in: results, after: after, redis: redis, seconds: waitSeconds)
        }
        guard let result = found else {
            throw .failed(code: "wait_timeout", message: "no result for \(entry) in \(TextFormat.scale(waitSeconds)) s")
        }
        try Streams.outJSON(resultJSON(result.fields))
        return result["status"] == "valid" ? ExitCode.success : ExitCode.failure
    }

    /// A result entry as JSON, its Redis strings typed: `codes` a list (empty when none),
    /// `cached` a boolean, an empty `manifest` (no manifest written) null; the rest strings.
    static func resultJSON(_ fields: [(String, String)]) -> JSONValue {
        .object(fields.map { key, value in
            switch key {
            case "codes": (key, .array(value.split(separator: ",").map { .string(String($0)) }))
            case "cached": (key, .bool(value == "true"))
            case "manifest": (key, value.isEmpty ? .null : .string(value))
            default: (key, .string(value))
            }
        })
    }

    /// Puts a local file on the store under its content's address.
    private static func upload(_ path: String, to prefix: S3Location, _ connection: (endpoint: S3Endpoint, credentials: AWSCredentials),
                               maxBytes: Int) throws(FleetError) -> S3Location {
        let bytes: [UInt8]
        do {
            bytes = try FileIO.read(path, limit: maxBytes)
        } catch {
            throw .badOption("\(path): cannot be read whole (\(error))")
        }
        let base = FileIO.split(path).name
        let ext = base.lastIndex(of: ".").map { String(base[$0...]).lowercased() } ?? ""
        let safeExt = ext.count <= 6 && ext.dropFirst().allSatisfy({ $0.isLetter || $0.isNumber }) ? ext : ""
        let location = prefix.appending("sources/\(Checksum.sha256(bytes))\(safeExt)")
        let store = try S3Client(endpoint: connection.endpoint, credentials: connection.credentials)
        if try store.head(location) != bytes.count {
            try store.put(bytes, at: location, contentType: "application/octet-stream")
        }
        return location
    }

    /// The result entry for the job `entry`, read from the results stream after `after`.
    private static func waitForResult(of entry: String, in results: String, after: String, redis: RedisConnection,
                                      seconds: Double) throws(FleetError) -> StreamEntry? {
        let deadline = monotonicSeconds() + seconds
        var cursor = after
        while monotonicSeconds() < deadline {
            let read = try redis.read(results, after: cursor, count: 100, blockSeconds: min(1, max(0.01, deadline - monotonicSeconds())))
            for result in read {
                if result["entry"] == entry { return result }
                cursor = result.id
            }
        }
        return nil
    }
}
