import CreativeCore
import CreativeService
#if canImport(Glibc)
import Glibc
#endif

/// `creative-tool serve`: the HTTP service (routes in CreativeService/Router.swift).
enum ServeCommand: Subcommand {
    static let name = "serve"
    static let summary = "run the HTTP service (validate, render, slot, select, test artwork, health, metrics)"
    static let usage = """
    usage: creative-tool serve [--host 127.0.0.1] [--port 8080] [--token-file F | --allow-unauthenticated]
                               [--allowed-host NAME]...
                               [--admin-host 127.0.0.1] [--admin-port 8081] [--workers N] [--queue N]
                               [--max-body-bytes N] [--max-json-body-bytes N] [--memory-budget N]
                               [--job-memory-budget N] [--budget-wait S] [--job-timeout S] [--drain-timeout S]
                               [--timeout S] [--header-timeout S] [--min-body-rate N]
                               [--max-connections N] [--max-connections-per-client N] [--max-inline-bytes N]
           creative-tool serve --healthcheck [--admin-port 8081]
      --host             address to bind (default 127.0.0.1, loopback; 0.0.0.0 for every interface)
      --port             TCP port (default $CREATIVE_PORT, else 8080; 0 picks a free one, logged at start)
      --token-file F     file holding the bearer token every /v1 route then needs (at least 16 bytes,
                         for example from 'openssl rand -hex 32')
      --allow-unauthenticated  serve a non-loopback --host without --token-file (refused otherwise)
      --allowed-host NAME  without a token, only requests whose Host is localhost, 127.0.0.1 or [::1]
                         (any port) are answered (403 host_not_allowed otherwise: DNS rebinding);
                         this adds NAME (repeatable). With a token, any Host is answered
      --admin-host       address of the admin listener: /healthz, /readyz, /metrics (default 127.0.0.1)
      --admin-port       its port (default $CREATIVE_ADMIN_PORT, else 8081; 0 picks a free one)
      --workers N        image jobs (validate, render, process) run at once (default: 2 per processor)
      --queue N          jobs that may wait for a slot before 503 + Retry-After (default 64)
      --max-body-bytes N largest image upload (default 8388608, 8 MiB; 413 above it)
      --max-json-body-bytes N  largest body of the other routes (default 16384)
      --memory-budget N  bytes buffered bodies and running jobs (their charged peak) may hold at once
                         (default 134217728, 128 MiB; 503 + Retry-After when it stays full for --budget-wait)
      --job-memory-budget N  most memory one job may hold at its peak, charged before it starts
                         (default 83886080, 80 MiB; 422 too_many_pixels)
      --budget-wait S    seconds a request or job waits for the memory budget (default 2)
      --job-timeout S    seconds one validate, render or process job may run (default 10; 422 timeout)
      --drain-timeout S  on SIGTERM, seconds for requests in flight to finish before their jobs are
                         cancelled (default 25; the process exits at most 2 s later)
      --timeout S        seconds a connection may be idle mid-request (default 15)
      --header-timeout S seconds for a request's line and headers, and for an idle keep-alive (default 10)
      --min-body-rate N  bytes/s a body must average after its first 5 s (default 16384)
      --max-connections  open connections at most (default 256)
      --max-connections-per-client  per client address (default 64; 0: no cap)
      --max-inline-bytes N  most bytes of files one /v1/process answer inlines (default 4194304;
                         over it 422 answer_too_large: list with inline=false, fetch with file=NAME)
      --healthcheck      GET /healthz on 127.0.0.1:ADMIN-PORT, exit 0 when it answers 200 (for HEALTHCHECK)
    Logs one JSON line per request on standard error (dropped and counted, never waited for, when
    standard error does not keep up). A job whose client closes its connection is cancelled.
    SIGTERM or SIGINT: stop accepting, finish the requests in flight (at most --drain-timeout),
    cancel the jobs left (503 shutting_down), exit 0. SIGHUP, SIGUSR1, SIGUSR2, SIGALRM and
    SIGVTALRM are ignored (and logged). SIGQUIT keeps its default (a core dump, for debugging).
    """
    static let options: Set<String> = ["--host", "--port", "--token-file", "--workers", "--max-body-bytes",
                                       "--queue", "--timeout", "--max-connections", "--admin-host", "--admin-port",
                                       "--max-json-body-bytes", "--memory-budget", "--header-timeout",
                                       "--min-body-rate", "--max-connections-per-client", "--job-memory-budget",
                                       "--budget-wait", "--job-timeout", "--drain-timeout", "--allowed-host",
                                       "--max-inline-bytes"]
    static let repeatable: Set<String> = ["--allowed-host"]
    static let flags: Set<String> = ["--healthcheck", "--allow-unauthenticated"]

    static func run(_ arguments: ParsedArguments) throws(CLIError) -> Int32 {
        guard arguments.positionals.isEmpty else { throw .usage("unexpected argument '\(arguments.positionals[0])'") }
        var config = ServiceConfig()
        let environmentPorts = (data: try environmentPort("CREATIVE_PORT"), admin: try environmentPort("CREATIVE_ADMIN_PORT"))
        config.port = try arguments.int("--port", in: 0...65535) ?? environmentPorts.data ?? config.port
        config.adminPort = try arguments.int("--admin-port", in: 0...65535) ?? environmentPorts.admin ?? config.adminPort
        if arguments.flag("--healthcheck") {
            return HealthProbe.check(port: config.adminPort) ? ExitCode.success : ExitCode.failure
        }
        config.adminHost = arguments.value("--admin-host") ?? config.adminHost
        config.allowUnauthenticated = arguments.flag("--allow-unauthenticated")
        config.maxJSONBodyBytes = try arguments.int("--max-json-body-bytes", in: 1...1 << 24) ?? config.maxJSONBodyBytes
        config.memoryBudget = try arguments.int("--memory-budget", in: 1 << 20...1 << 40) ?? config.memoryBudget
        config.jobMemoryBudget = try arguments.int("--job-memory-budget", in: 1 << 20...1 << 40) ?? config.jobMemoryBudget
        config.budgetWait = try seconds(arguments, "--budget-wait", in: 0...3600) ?? config.budgetWait
        config.jobTimeout = try seconds(arguments, "--job-timeout", in: 0.001...3600) ?? config.jobTimeout
        config.drainSeconds = try seconds(arguments, "--drain-timeout", in: 0...3600) ?? config.drainSeconds
        config.headerTimeout = Double(try arguments.int("--header-timeout", in: 1...3600) ?? Int(config.headerTimeout))
        config.minBodyRate = try arguments.int("--min-body-rate", in: 0...1 << 30) ?? config.minBodyRate
        config.maxConnectionsPerClient = try arguments.int("--max-connections-per-client", in: 0...100_000)
            ?? config.maxConnectionsPerClient
        config.host = arguments.value("--host") ?? config.host
        config.workers = try arguments.int("--workers", in: 1...1024) ?? config.workers
        config.queue = try arguments.int("--queue", in: 0...100_000) ?? config.queue
        config.maxBodyBytes = try arguments.int("--max-body-bytes", in: 1...1 << 30) ?? config.maxBodyBytes
        config.connectionTimeout = try arguments.int("--timeout", in: 1...3600) ?? config.connectionTimeout
        config.maxConnections = try arguments.int("--max-connections", in: 1...100_000) ?? config.maxConnections
        config.maxInlineFileBytes = try arguments.int("--max-inline-bytes", in: 0...1 << 30) ?? config.maxInlineFileBytes
        for name in arguments.values("--allowed-host") {
            if let problem = HostAllowList.problem(withName: name) { throw .usage("--allowed-host: \(problem)") }
            config.allowedHosts.append(name)
        }
        if let path = arguments.value("--token-file") {
            let bytes: [UInt8]
            do { bytes = try FileIO.read(path, limit: 4096) } catch {
                throw .usage("--token-file \(path): cannot read it (missing, or over 4096 bytes)")
            }
            let token = String(decoding: bytes, as: UTF8.self).trimmingWhitespace()
            guard !token.isEmpty, token.allSatisfy({ $0.isASCII && !$0.isWhitespace }) else {
                throw .usage("--token-file \(path): the token must be one line of visible ASCII")
            }
            guard token.utf8.count >= ServiceConfig.minimumTokenBytes else {
                throw .usage("--token-file \(path): the token is \(token.utf8.count) bytes; give one of at least "
                             + "\(ServiceConfig.minimumTokenBytes) (for example: openssl rand -hex 32)")
            }
            config.token = token
        }
        if let insecurity = config.insecurity { throw .usage(insecurity) }
        // One largest upload and one job's largest decode must fit, or such a job never runs.
        guard config.memoryBudget >= config.maxBodyBytes + config.jobMemoryBudget else {
            throw .usage("--memory-budget (\(config.memoryBudget)) must be at least --max-body-bytes (\(config.maxBodyBytes)) "
                         + "+ --job-memory-budget (\(config.jobMemoryBudget))")
        }
        return Server.serve(config: config)
    }
}

/// Seconds given with `name`, within `range`.
private func seconds(_ arguments: ParsedArguments, _ name: String, in range: ClosedRange<Double>) throws(CLIError) -> Double? {
    guard let value = try arguments.double(name) else { return nil }
    guard range.contains(value) else { throw .usage("\(name): give seconds from \(range.lowerBound) to \(range.upperBound)") }
    return value
}

/// A port given in the environment (the container image sets `CREATIVE_PORT` and
/// `CREATIVE_ADMIN_PORT`, so `serve` and its HEALTHCHECK agree); the flags win over it.
private func environmentPort(_ name: String) throws(CLIError) -> Int? {
    guard let raw = getenv(name) else { return nil }
    let text = String(cString: raw)
    guard !text.isEmpty else { return nil }
    do {
        return try TypedValue.int(text, name: name, in: 0...65535)
    } catch {
        throw .usage("environment: \(error.description)")
    }
}

private extension String {
    func trimmingWhitespace() -> String {
        var text = Substring(self)
        while let last = text.last, last.isWhitespace { text = text.dropLast() }
        while let first = text.first, first.isWhitespace { text = text.dropFirst() }
        return String(text)
    }
}
