import CreativeCore
import CreativeFleet
#if canImport(Glibc)
import Glibc
#endif

/// The options `worker` and `enqueue` share, declared once: where Redis, the streams and the store are.
enum FleetOptions {
    private static func text(_ name: String, _ placeholder: String, _ help: String,
                             _ defaultValue: String? = nil) -> OptionDeclaration {
        OptionDeclaration(name, .text(maxLength: 4096), placeholder: placeholder, help: help, defaultValue: defaultValue,
                          surfaces: .commandLine)
    }

    static let redis = text("redis", "URL", "redis://[[USER]:PASSWORD@]HOST[:PORT][/DB] (required)")
    static let stream = text("stream", "NAME", "the jobs stream", WorkerConfig.defaultStream)
    static let resultsStream = text("results_stream", "NAME", "where results are added", "STREAM:results")
    static let store = text("store", "s3://BUCKET/PREFIX", "where results are written (required)")
    static let endpoint = text("s3_endpoint", "URL", "any S3-compatible store, http(s)://HOST[:PORT]",
                               "AWS's endpoint of the region")
    static let addressing = OptionDeclaration(
        "s3_addressing", .choice(S3Addressing.allCases.map(\.rawValue)), placeholder: "path|virtual",
        help: "how URLs name the bucket", defaultValue: "path with --s3-endpoint, virtual without", surfaces: .commandLine)

    /// Every fleet option, in help order.
    static let declared = [redis, stream, resultsStream, store, endpoint, addressing]

    /// Where the credentials come from, for each command's notes.
    static let credentialsNote = [
        "Credentials and region: AWS_ACCESS_KEY_ID, AWS_SECRET_ACCESS_KEY, AWS_SESSION_TOKEN, AWS_REGION",
        "(or AWS_DEFAULT_REGION), else AWS_PROFILE's entries in ~/.aws/credentials and ~/.aws/config.",
    ]

    /// What the options name; the store's endpoint and credentials come with ``connect()``.
    struct Fleet {
        let redis: RedisAddress
        let stream: String
        let results: String?
        let store: S3Location
        let endpointURL: String?
        let addressing: S3Addressing?

        /// The store's endpoint in the credentials' region, and the credentials.
        /// - Throws: ``CLIError/failed(code:message:)`` when no credentials are found.
        func connect() throws(CLIError) -> (endpoint: S3Endpoint, credentials: AWSCredentials) {
            try attempt { () throws(FleetError) in
                let credentials = try AWSCredentials.load(environment: environment())
                return (try S3Endpoint(url: endpointURL, region: credentials.region, addressing: addressing), credentials)
            }
        }
    }

    /// Reads the options alone (no environment), so that every usage error comes before the credentials' lookup.
    /// - Throws: ``CLIError/usage(_:)`` for a missing or wrong option.
    static func read(_ arguments: ParsedArguments) throws(CLIError) -> Fleet {
        let (redisURL, storeURL, streamName, results, endpointURL, chosen) = try CLIError.reading { () throws(CoreError) in
            (try arguments.text(redis), try arguments.text(store), try arguments.text(stream) ?? WorkerConfig.defaultStream,
             try arguments.text(resultsStream), try arguments.text(endpoint), try arguments.choice(addressing, S3Addressing.self))
        }
        guard let redisURL else { throw .usage("\(redis.flag) URL is required") }
        guard let storeURL else { throw .usage("\(store.flag) s3://BUCKET/PREFIX is required") }
        guard !streamName.isEmpty else { throw .usage("\(stream.flag): give a name") }
        return try attempt { () throws(FleetError) in
            // The endpoint's form is checked here; its region is the credentials' (``Fleet/connect()``).
            _ = try S3Endpoint(url: endpointURL, region: "", addressing: chosen)
            return Fleet(redis: try RedisAddress(parsing: redisURL), stream: streamName, results: results,
                         store: try S3Location(parsing: storeURL), endpointURL: endpointURL, addressing: chosen)
        }
    }

    /// Runs store or queue work, its failure as the command line reports it.
    static func attempt<T>(_ work: () throws(FleetError) -> T) throws(CLIError) -> T {
        do {
            return try work()
        } catch {
            throw .fleet(error)
        }
    }

    /// The process environment.
    static func environment() -> [String: String] {
        var values: [String: String] = [:]
        var cursor = environ
        while let entry = cursor.pointee {
            let text = String(cString: entry)
            if let equals = text.firstIndex(of: "=") {
                values[String(text[..<equals])] = String(text[text.index(after: equals)...])
            }
            cursor += 1
        }
        return values
    }
}

extension CLIError {
    /// A store or queue failure as the command line reports it.
    static func fleet(_ error: FleetError) -> CLIError {
        if case .badOption(let message) = error { return .usage(message) }
        return .failed(code: error.code, message: error.message)
    }
}
