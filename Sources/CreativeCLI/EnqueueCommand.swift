import CreativeCore
import CreativeFleet
import CreativeImaging

/// `creative-tool enqueue`: adds one job for the workers, optionally waiting for its result.
enum EnqueueCommand: Subcommand {
    static let name = "enqueue"
    static let summary = "add a job for creative-tool worker (a local file is put on the store first); --wait for its result"
    static let usage = """
    usage: creative-tool enqueue FILE|s3://BUCKET/KEY --redis URL --store s3://BUCKET/PREFIX [--s3-endpoint URL]
                                 [--stream creative-jobs] [--product \(Product.names)]
                                 [--format auto|png|webp|jpeg] [--id ID] [--wait] [--wait-timeout S]
      FILE              a local creative: put on the store at PREFIX/sources/<sha256>[.EXT] (the same
                        bytes, the same key), then the job names it; s3://... is named as it is
    \(FleetOptions.usage)
      --id ID           the caller's id, copied into the result (default: the job's entry ID)
      --wait            wait for the result and print it (JSON); exit 0 valid, 1 rejected or failed
      --wait-timeout S  how long --wait waits (default 300; then exit 1, code wait_timeout)
    Prints the job as one JSON line: entry, id, source.
    """
    static let options = FleetOptions.names.union(["--product", "--format", "--id", "--wait-timeout", "--max-bytes"])
    static let flags: Set<String> = ["--wait"]

    static func run(_ arguments: ParsedArguments) throws(CLIError) -> Int32 {
        guard arguments.positionals.count == 1 else { throw .usage("give exactly one FILE or s3://BUCKET/KEY") }
        let fleet = try FleetOptions.read(arguments)
        let product = try arguments.choice("--product", Product.self)
        let format = try arguments.choice("--format", FormatChoice.self)
        let waitSeconds = try arguments.double("--wait-timeout") ?? 300
        guard waitSeconds > 0 else { throw .usage("--wait-timeout: give seconds above 0") }
        let given = arguments.positionals[0]
        let maxBytes = try arguments.int("--max-bytes", in: 1...1 << 30) ?? 1 << 30
        let callerID = arguments.value("--id")
        let source = try FleetOptions.attempt { () throws(FleetError) in
            given.hasPrefix("s3://") ? try S3Location(parsing: given) : try upload(given, to: fleet, maxBytes: maxBytes)
        }
        let redis = RedisConnection(address: fleet.redis)
        let results = fleet.results ?? fleet.stream + ":results"
        var fields = [("source", source.description)]
        if let product { fields.append(("product", product.rawValue)) }
        if let format { fields.append(("format", format.rawValue)) }
        if let callerID { fields.append(("id", callerID)) }
        let (after, entry) = try FleetOptions.attempt { () throws(FleetError) in
            (try redis.lastID(of: results), try redis.add(to: fleet.stream, fields))
        }
        try Streams.outLine(JSONValue.object([("entry", .string(entry)), ("id", .string(callerID ?? entry)),
                                              ("source", .string(source.description))]).serialized())
        guard arguments.flag("--wait") else { return ExitCode.success }
        let found = try FleetOptions.attempt { () throws(FleetError) in
            try waitForResult(of: entry, in: results, after: after, redis: redis, seconds: waitSeconds)
        }
        guard let result = found else {
            throw .failed(code: "wait_timeout", message: "no result for \(entry) in \(waitSeconds) s")
        }
        try Streams.outLine(JSONValue.object(result.fields.map { ($0.0, .string($0.1)) }).serialized())
        return result["status"] == "valid" ? ExitCode.success : ExitCode.failure
    }

    /// Puts a local file on the store under its content's address.
    private static func upload(_ path: String, to fleet: FleetOptions.Fleet, maxBytes: Int) throws(FleetError) -> S3Location {
        let bytes: [UInt8]
        do {
            bytes = try FileIO.read(path, limit: maxBytes)
        } catch {
            throw .badOption("\(path): cannot be read whole (\(error))")
        }
        let base = FileIO.split(path).name
        let ext = base.lastIndex(of: ".").map { String(base[$0...]).lowercased() } ?? ""
        let safeExt = ext.count <= 6 && ext.dropFirst().allSatisfy({ $0.isLetter || $0.isNumber }) ? ext : ""
        let location = fleet.store.appending("sources/\(Checksum.sha256(bytes))\(safeExt)")
        let store = try S3Client(endpoint: fleet.endpoint, credentials: fleet.credentials)
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
