import CreativeFleet
#if canImport(Glibc)
import Glibc
#endif

/// The options `worker` and `enqueue` share: where Redis and the store are.
enum FleetOptions {
    static let names: Set<String> = ["--redis", "--stream", "--store", "--s3-endpoint", "--s3-addressing",
                                     "--results-stream"]

    static let usage = """
      --redis URL       redis://[[USER]:PASSWORD@]HOST[:PORT][/DB] (required)
      --stream NAME     the jobs stream (default creative-jobs)
      --results-stream NAME  where results are added (default STREAM:results)
      --store s3://BUCKET/PREFIX  where results are written (required)
      --s3-endpoint URL any S3-compatible store, http(s)://HOST[:PORT] (default: AWS's endpoint
                        of the region)
      --s3-addressing path|virtual  how URLs name the bucket (default: path with --s3-endpoint,
                        virtual without)
    Credentials and region: AWS_ACCESS_KEY_ID, AWS_SECRET_ACCESS_KEY, AWS_SESSION_TOKEN, AWS_REGION
    (or AWS_DEFAULT_REGION), else AWS_PROFILE's entries in ~/.aws/credentials and ~/.aws/config.
    """

    /// What the options name.
    struct Fleet {
        let redis: RedisAddress
        let stream: String
        let results: String?
        let store: S3Location
        let endpoint: S3Endpoint
        let credentials: AWSCredentials
    }

    static func read(_ arguments: ParsedArguments) throws(CLIError) -> Fleet {
        guard let redis = arguments.value("--redis") else { throw .usage("--redis URL is required") }
        guard let store = arguments.value("--store") else { throw .usage("--store s3://BUCKET/PREFIX is required") }
        let stream = arguments.value("--stream") ?? "creative-jobs"
        guard !stream.isEmpty else { throw .usage("--stream: give a name") }
        let addressing = try arguments.choice("--s3-addressing", S3Addressing.self)
        return try attempt { () throws(FleetError) in
            let credentials = try AWSCredentials.load(environment: environment())
            return Fleet(redis: try RedisAddress(parsing: redis), stream: stream, results: arguments.value("--results-stream"),
                         store: try S3Location(parsing: store),
                         endpoint: try S3Endpoint(url: arguments.value("--s3-endpoint"), region: credentials.region,
                                                  addressing: addressing),
                         credentials: credentials)
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
