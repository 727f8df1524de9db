import CreativeCore
import CreativeFleet
import CreativeImaging

/// `creative-tool enqueue`: adds one job for the workers, optionally waiting for its result.
enum EnqueueCommand: DeclaredCommand {
    static let name = "enqueue"
    static let summary = "add a job for creative-tool worker (a local file is put on the store first); --wait for its result"

    /// The job's options (`--product`, `--format`, `--with`, `--weight-budget`): process's, each
    /// written into the entry as its field (``ProcessRequest/jobFields``) only when given.
    static let jobOptions = ProcessRequest.jobFields.options.map { option in
        option.with(help: option.help + "; the entry's \(option.name) field (default: the worker's)", defaultValue: .some(nil))
    }
    /// How long `--wait` waits, and the largest local file, when not given.
    private static let defaultWaitSeconds = 300.0, defaultMaxBytes = 1 << 30
    static let id = OptionDeclaration(
        "id", .text(maxLength: 1024), placeholder: "ID", help: "the caller's id, copied into the result",
        defaultValue: "the job's entry ID", surfaces: .commandLine)
    static let wait = OptionDeclaration(
        "wait", .toggle, help: "wait for the result and print it (JSON); exit 0 valid, 1 rejected or failed",
        defaultValue: "false", surfaces: .commandLine)
    static let waitTimeout = DurationOption(
        "wait_timeout", Double.leastNonzeroMagnitude...86_400, placeholder: "S",
        help: "how long --wait waits, then exit 1, code wait_timeout (30s, 5m; a bare number is seconds)",
        defaultValue: TextFormat.scale(defaultWaitSeconds) + "s", surfaces: .commandLine)
    static let maxBytes = JobLimitOptions.maxBytes(default: defaultMaxBytes).with(help: "largest local FILE put on the store "
                                                                         + "(512M, 1G; a bare number is bytes)")
    static let declared = FleetOptions.declared + jobOptions + [id, wait, waitTimeout.declaration, maxBytes.declaration]
    static let help = CommandHelp(
        synopsis: ["FILE|s3://BUCKET/KEY --redis URL --store s3://BUCKET/PREFIX [--s3-endpoint URL] [--id ID] [--wait] "
                   + "[options]",
                   "FILE|s3://BUCKET/KEY FILE|s3://BUCKET/KEY... --redis URL --store s3://BUCKET/PREFIX [--wait] [options]"],
        operands: [("FILE", "a local creative: put on the store at PREFIX/sources/<sha256>[.EXT] (the same bytes, the "
                    + "same key), then the job names it"),
                   ("s3://BUCKET/KEY", "a creative already on the store, named as it is"),
                   ("FILE|s3://BUCKET/KEY...", "several creatives (at most \(CampaignSources.maxSources)): one campaign job, "
                    + "as process FILE FILE... (the entry's sources field)")],
        notes: FleetOptions.credentialsNote + ["Prints the job as one JSON line: entry, id, source (a campaign: sources); with "
                                               + "--wait then the result."],
        examples: ["banner-960x150.png --redis redis://127.0.0.1:6379 --store s3://creatives/results --wait",
                   "s3://uploads/campaign-7/banner.png --redis redis://queue:6379 --store s3://creatives/results "
                       + "--product banner --id campaign-7/banner",
                   "banner-960x150.png banner-1320x204.png banner-2184x270.png --redis redis://127.0.0.1:6379 "
                       + "--store s3://creatives/results --format png --wait"],
        exitCodes: "0 added (--wait: valid), 1 the store or queue failed (--wait: rejected, failed or wait_timeout), "
            + "64 usage error")

    static func run(_ arguments: ParsedArguments) throws(CLIError) -> Int32 {
        let operands = arguments.positionals
        guard !operands.isEmpty else { throw .usage("give a FILE or s3://BUCKET/KEY (or several: one campaign)") }
        guard operands.count <= CampaignSources.maxSources else {
            throw .usage("\(operands.count) creatives; a campaign job takes at most \(CampaignSources.maxSources)")
        }
        let fleet = try FleetOptions.read(arguments)
        let (callerID, waitSeconds, limit) = try CLIError.reading { () throws(CoreError) in
            (try arguments.text(id), try arguments.seconds(waitTimeout) ?? defaultWaitSeconds,
             try arguments.bytes(maxBytes) ?? defaultMaxBytes)
        }
        if callerID?.isEmpty == true { throw .usage("--id must not be empty (leave it out: the entry's id is used)") }
        // Read as the worker reads the entry's fields, so a wrong value is a usage error, not a failed job.
        _ = try CLIError.reading { () throws(CoreError) in try ProcessRequest(arguments) }
        var sources: [S3Location] = []
        for given in operands where given.hasPrefix("s3://") {
            let source = try FleetOptions.attempt { () throws(FleetError) in try S3Location(parsing: given) }
            if let problem = source.objectProblem { throw .usage(problem) }
        }
        // The local files are read before the queue or the store is reached: one missing or
        // unreadable is exit 74 (file_not_found, not_a_file, io_error), as for every command.
        var local: [String: [UInt8]] = [:]
        for given in operands where !given.hasPrefix("s3://") && local[given] == nil {
            local[given] = try Inputs.readBytes(given, maxBytes: limit)
        }
        let connection = local.isEmpty ? nil : try fleet.connect()
        for given in operands {
            let source: S3Location
            if let connection, let bytes = local[given] {
                source = try FleetOptions.attempt { () throws(FleetError) in
                    try upload(bytes, named: given, to: fleet.store, connection, keepingName: operands.count > 1)
                }
            } else {
                source = try FleetOptions.attempt { () throws(FleetError) in try S3Location(parsing: given) }
            }
            guard !sources.contains(source) else { throw .usage("\(given) is given twice (the same creative: \(source))") }
            sources.append(source)
        }
        let redis = RedisConnection(address: fleet.redis)
        let results = fleet.results ?? fleet.stream + ":results"
        let named: (String, String) = sources.count == 1 ? ("source", sources[0].description)
            : ("sources", sources.map(\.description).joined(separator: "\n"))
        var fields = [named]
        for option in jobOptions { if let text = arguments.given(option) { fields.append((option.name, text)) } }
        if let callerID { fields.append(("id", callerID)) }
        let (after, entry) = try FleetOptions.attempt { () throws(FleetError) in
            (try redis.lastID(of: results), try redis.add(to: fleet.stream, fields))
        }
        let printed: JSONValue = sources.count == 1 ? .string(sources[0].description) : .array(sources.map { .string($0.description) })
        try Streams.outJSON(.object([("entry", .string(entry)), ("id", .string(callerID ?? entry)), (named.0, printed)]))
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
    /// `cached` a boolean, an empty `manifest`, `campaign` or `sheet` (no such file written) null,
    /// a campaign's `sources` and `manifests` lists (one per line; an empty line of `manifests`
    /// null, no line when the job failed); the rest strings.
    static func resultJSON(_ fields: [(String, String)]) -> JSONValue {
        .object(fields.map { key, value in
            switch key {
            case "codes": (key, .array(value.split(separator: ",").map { .string(String($0)) }))
            case "cached": (key, .bool(value == "true"))
            case "manifest", "campaign", "sheet": (key, value.isEmpty ? .null : .string(value))
            case "sources": (key, .array(value.split(separator: "\n").map { .string(String($0)) }))
            case "manifests":
                (key, .array(value.isEmpty ? [] : value.split(separator: "\n", omittingEmptySubsequences: false)
                    .map { $0.isEmpty ? .null : .string(String($0)) }))
            default: (key, .string(value))
            }
        })
    }

    /// Puts a local file's bytes, read from `path`, on the store under its content's address:
    /// `PREFIX/sources/<sha256>.EXT`, or with `keepingName` (a creative of a campaign, whose name
    /// is its folder in the campaign's) `PREFIX/sources/<sha256>/NAME`, the file's name with
    /// characters other than ASCII letters, digits and `-_.+@=,` replaced by `_`.
    private static func upload(_ bytes: [UInt8], named path: String, to prefix: S3Location,
                               _ connection: (endpoint: S3Endpoint, credentials: AWSCredentials),
                               keepingName: Bool = false) throws(FleetError) -> S3Location {
        let base = FileIO.split(path).name
        let location: S3Location
        if keepingName {
            var name = String(base.map { $0.isASCII && ($0.isLetter || $0.isNumber || "-_.+@=,".contains($0)) ? $0 : "_" }.prefix(200))
            if name.allSatisfy({ $0 == "." }) { name = "creative" + name }
            location = prefix.appending("sources/\(Checksum.sha256(bytes))/\(name)")
        } else {
            let ext = base.lastIndex(of: ".").map { String(base[$0...]).lowercased() } ?? ""
            let safeExt = ext.count <= 6 && ext.dropFirst().allSatisfy({ $0.isLetter || $0.isNumber }) ? ext : ""
            location = prefix.appending("sources/\(Checksum.sha256(bytes))\(safeExt)")
        }
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
