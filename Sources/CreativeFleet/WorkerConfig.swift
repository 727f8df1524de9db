/// Everything `creative-tool worker` is started with.
public struct WorkerConfig: Sendable {
    /// The defaults, for the fields below and for the command line's help.
    public static let defaultStream = "creative-jobs", defaultGroup = "creative-workers"
    public static let defaultConcurrency = 2, defaultMaxDeliveries = 5
    public static let defaultVisibilityTimeout = 60.0, defaultDrainSeconds = 30.0, defaultRetrySeconds = 20.0

    public var redis: RedisAddress
    /// The jobs stream and the consumer group reading it.
    public var stream = Self.defaultStream
    public var group = Self.defaultGroup
    /// This worker's name in the group (the host name by default: a pod's name).
    public var consumer: String
    /// Where results go; nil: `STREAM:results`.
    public var resultsStream: String?
    /// Where jobs delivered too often go; nil: `STREAM:dead`.
    public var deadLetterStream: String?
    /// `s3://BUCKET/PREFIX`: results are written under it.
    public var store: S3Location
    public var endpoint: S3Endpoint
    public var credentials: AWSCredentials
    /// Jobs run at once, each on its own thread with its own connections.
    public var concurrency = Self.defaultConcurrency
    /// Seconds a delivered job may stay unacknowledged with no heartbeat before another worker
    /// claims it (its worker is taken for dead).
    public var visibilityTimeout = Self.defaultVisibilityTimeout
    /// Deliveries of one job before it goes to the dead-letter stream.
    public var maxDeliveries = Self.defaultMaxDeliveries
    /// Seconds a SIGTERM gives the jobs in flight to finish.
    public var drainSeconds = Self.defaultDrainSeconds
    /// Seconds one delivery retries store errors (with backoff) before leaving the job pending.
    public var retrySeconds = Self.defaultRetrySeconds
    /// Seconds XREADGROUP waits for a new entry.
    public var blockSeconds = 1.0
    public var adminHost = "127.0.0.1"
    public var adminPort = 8081
    /// Test hook (`CREATIVE_WORKER_TEST_HOOK`), never set in production: `crash:TEXT` kills the
    /// worker (SIGKILL) when a job's source contains TEXT; `hold:TEXT:SECONDS` waits that long
    /// before writing such a job's manifest (its other files written).
    public var testHook: String?

    public init(redis: RedisAddress, consumer: String, store: S3Location, endpoint: S3Endpoint,
                credentials: AWSCredentials) {
        self.redis = redis
        self.consumer = consumer
        self.store = store
        self.endpoint = endpoint
        self.credentials = credentials
    }

    public var results: String { resultsStream ?? stream + ":results" }
    public var deadLetters: String { deadLetterStream ?? stream + ":dead" }
    /// The hash of each pending job's last error (`STREAM:errors`), read when it is dead-lettered.
    var lastErrors: String { stream + ":errors" }
    /// The prefix of the keys that keep two workers from doing the same input at once.
    var lockPrefix: String { stream + ":lock:" }
}
