import CreativeCore
import CreativeImaging

/// How `serve` runs: where it listens, who may call it, and its limits.
public struct ServiceConfig: Sendable {
    /// Address to bind: loopback unless told otherwise (`0.0.0.0` or `::` for every interface).
    public var host = "127.0.0.1"
    /// TCP port; 0 picks a free one (``Server/port`` tells which).
    public var port = 8080
    /// Bearer token every `/v1` route needs, at least ``minimumTokenBytes`` bytes; nil: no token,
    /// which is refused on a non-loopback address unless ``allowUnauthenticated`` is set.
    public var token: String?
    /// Host names answered besides the loopback ones when there is no token (`--allowed-host`,
    /// ``HostAllowList``); with a token, the token guards the routes and any `Host` is answered.
    public var allowedHosts: [String] = []
    /// Serve a non-loopback address without a token (`--allow-unauthenticated`; logged as a warning).
    public var allowUnauthenticated = false
    /// Address of the admin listener (`/healthz`, `/readyz`, `/metrics` only, no token):
    /// loopback unless told otherwise.
    public var adminHost = "127.0.0.1"
    /// Port of the admin listener; 0 picks a free one. Its own event-driven daemon, so probes are
    /// answered however many data-plane connections are open.
    public var adminPort = 8081
    /// Image jobs (validate, render) that run at once: two per processor by default. A render
    /// hands its strips between libvips threads (decode and resample, then the PNG writer), and
    /// one job per core leaves those gaps idle; a second one fills them (`make loadtest`:
    /// about a sixth more renders/s on 2 cores than one job per core).
    public var workers = 2 * ServiceConfig.processorCount
    /// Jobs that may wait for a slot (first come, first served) before the service answers 503.
    public var queue = 64
    /// Longest a job waits for a slot, in seconds, before 503.
    public var queueWait = 10.0
    /// Largest image upload in bytes (validate, render, process; 413 above it).
    public var maxBodyBytes = 8 * 1024 * 1024
    /// Largest body of every other route in bytes (`/v1/select` JSON; bodies of GET routes are dropped).
    public var maxJSONBodyBytes = 16 * 1024
    /// Bytes that buffered request bodies and the decode memory of running jobs may hold at once,
    /// for the whole process (``MemoryBudget``).
    public var memoryBudget = 160 * 1024 * 1024
    /// Most memory one job may hold at its peak (``JobLimits/memoryBudget``, charged with ``JobCost``); over it: 422 `too_many_pixels`.
    /// Nil: each product's own (``JobLimits/defaultMemoryBudget(for:)``: 80 MiB, 144 MiB for
    /// interstitials), as the CLI's; a value given applies to every product.
    public var jobMemoryBudget: Int?

    /// The budget of one job of `product` (``jobMemoryBudget``).
    public func jobBudget(for product: Product) -> Int {
        jobMemoryBudget ?? JobLimits.defaultMemoryBudget(for: product)
    }

    /// The largest budget a job of any product may get: what `--memory-budget` must hold beside
    /// the largest upload.
    public var largestJobMemoryBudget: Int {
        Product.allCases.map { jobBudget(for: $0) }.max() ?? JobLimits.defaultMemoryBudget
    }
    /// Seconds one job (validate, render, process) may run; past it libvips stops it: 422 `timeout`.
    /// Nil: each product's own (``JobLimits/serviceTimeout(for:)``: 10 s, 60 s for interstitials);
    /// a value given applies to every product.
    public var jobTimeout: Double?

    /// The deadline of one job of `product` (``jobTimeout``).
    public func jobDeadline(for product: Product) -> Double {
        jobTimeout ?? JobLimits.serviceTimeout(for: product)
    }
    /// Seconds a request body waits for its share of the memory budget before 503 + `Retry-After`.
    public var budgetWait = 2.0
    /// Seconds a job waits for its share of the memory budget: as long as it may wait in line for
    /// a slot (``queueWait``), at least ``budgetWait``.
    public var jobBudgetWait: Double { max(budgetWait, queueWait) }
    /// Seconds a connection may stay idle while a body or an answer is under way.
    public var connectionTimeout = 15
    /// Seconds from a connection's start (or its previous request's end) to the end of the next
    /// request's headers; a slower sender (slowloris) or an idle keep-alive connection is closed.
    public var headerTimeout = 10.0
    /// Each window of ``bodyRateGrace`` seconds of a body must bring at least this many bytes a
    /// second (judged window by window, not averaged from the start, so a fast start buys no
    /// stall); 0 turns the check off. Under budget pressure, bodies slower than this over their
    /// last second are cut first (the largest reservation first).
    public var minBodyRate = 16 * 1024
    /// See ``minBodyRate``.
    public var bodyRateGrace = 5.0
    /// After an early refusal (413, 503), the rest of the body is read and dropped for at most
    /// this many seconds and ``lingerBytes`` bytes, so the client can read the answer.
    public var lingerSeconds = 5.0
    /// See ``lingerSeconds``.
    public var lingerBytes = 16 * 1024 * 1024
    /// Open data-plane connections at most (each has its own thread); more are refused at accept.
    public var maxConnections = 256
    /// Open data-plane connections per client address at most (0: no per-client cap). Behind a
    /// proxy every connection has the proxy's address: raise it to ``maxConnections`` there.
    public var maxConnectionsPerClient = 64
    /// Seconds SIGTERM waits for in-flight requests; then running jobs are cancelled (503
    /// `shutting_down`), and the process exits at most ``Server/cancelSeconds`` later. 25 s + 2 s
    /// stays within Kubernetes' default 30 s grace, and within 40 s with a 5 s preStop hook.
    public var drainSeconds = 25.0
    /// Most bytes of files that one `/v1/process` answer carries inline (base64 in its JSON);
    /// a job whose files total more is answered 422 `answer_too_large`, and its files are listed
    /// (`inline=false`) and fetched one by one (`file=NAME`). 4 MiB keeps every banner and
    /// companion answer inline (under 1 MB of files) and the JSON under 6 MB.
    public var maxInlineFileBytes = 4 * 1024 * 1024
    /// One JSON line per request on standard error.
    public var logRequests = true

    public init() {}

    /// Shortest token accepted, in bytes: a token guards every `/v1` route, and a short one is
    /// guessed (16 random bytes, or 32 hex digits, is the least `openssl rand -hex 16` gives).
    public static let minimumTokenBytes = 16

    /// Why this configuration must not start (a token under ``minimumTokenBytes``, a non-loopback
    /// address without a token), or nil.
    public var insecurity: String? {
        if let token, token.utf8.count < ServiceConfig.minimumTokenBytes {
            return "the token is \(token.utf8.count) bytes; give one of at least \(ServiceConfig.minimumTokenBytes) "
                + "(for example: openssl rand -hex 32)"
        }
        guard token == nil, !allowUnauthenticated, !ServiceConfig.isLoopback(host) else { return nil }
        return "--host \(host) is not a loopback address: give --token-file (or --allow-unauthenticated to serve without one)"
    }

    /// The `Host` names the data plane answers: nil (any) with a token, else the loopback names
    /// and ``allowedHosts``.
    var dataHosts: HostAllowList? { token == nil ? HostAllowList(extra: allowedHosts) : nil }
    /// The admin listener's: nil with a token (its routes are probes), else those names and any
    /// IP address (probes from outside name the address they connect to).
    var adminHosts: HostAllowList? { token == nil ? HostAllowList(extra: allowedHosts, acceptsAddresses: true) : nil }

    /// Whether `host` is a loopback address (127.0.0.0/8 or ::1).
    public static func isLoopback(_ host: String) -> Bool {
        if host.contains(":") {
            var address = in6_addr()
            guard inet_pton(AF_INET6, host, &address) == 1 else { return false }
            return withUnsafeBytes(of: &address) { bytes in bytes.prefix(15).allSatisfy { $0 == 0 } && bytes[15] == 1 }
        }
        var address = in_addr()
        guard inet_pton(AF_INET, host, &address) == 1 else { return false }
        return UInt32(bigEndian: address.s_addr) >> 24 == 127
    }

    /// Online processors (at least 1).
    public static var processorCount: Int {
        max(1, Int(sysconfValue()))
    }
}

#if canImport(Glibc)
import Glibc
private func sysconfValue() -> Int { sysconf(Int32(_SC_NPROCESSORS_ONLN)) }
#endif
