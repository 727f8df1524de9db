import CreativeCore
import CreativeService

/// `creative-tool serve`: the HTTP service (routes in CreativeService/Router.swift).
enum ServeCommand: Subcommand {
    static let name = "serve"
    static let summary = "run the HTTP service (validate, render, slot, select, test artwork, health, metrics)"
    static let usage = """
    usage: creative-tool serve [--host 127.0.0.1] [--port 8080] [--token-file F] [--workers N]
                               [--max-body-bytes N] [--queue N] [--timeout S] [--max-connections N]
           creative-tool serve --healthcheck [--port 8080]
      --host             address to bind (default 127.0.0.1, loopback; 0.0.0.0 for every interface)
      --port             TCP port (default 8080; 0 picks a free one, logged at start)
      --token-file F     file holding the bearer token every /v1 route then needs
      --workers N        image jobs (validate, render) run at once (default: 2 per processor)
      --max-body-bytes N largest request body (default 8388608, 8 MiB; 413 above it)
      --queue N          jobs that may wait for a slot before 503 + Retry-After (default 64)
      --timeout S        seconds an idle or slow connection is kept (default 15)
      --max-connections  open connections at most (default 256)
      --healthcheck      GET /healthz on 127.0.0.1:PORT and exit 0 when it answers 200 (for HEALTHCHECK)
    Logs one JSON line per request on standard error. SIGTERM or SIGINT: stop accepting,
    finish the requests in flight (at most 30 s), exit 0.
    """
    static let options: Set<String> = ["--host", "--port", "--token-file", "--workers", "--max-body-bytes",
                                       "--queue", "--timeout", "--max-connections"]
    static let flags: Set<String> = ["--healthcheck"]

    static func run(_ arguments: ParsedArguments) throws(CLIError) -> Int32 {
        guard arguments.positionals.isEmpty else { throw .usage("unexpected argument '\(arguments.positionals[0])'") }
        var config = ServiceConfig()
        config.port = try arguments.int("--port", in: 0...65535) ?? config.port
        if arguments.flag("--healthcheck") {
            return HealthProbe.check(port: config.port) ? ExitCode.success : ExitCode.failure
        }
        config.host = arguments.value("--host") ?? config.host
        config.workers = try arguments.int("--workers", in: 1...1024) ?? config.workers
        config.queue = try arguments.int("--queue", in: 0...100_000) ?? config.queue
        config.maxBodyBytes = try arguments.int("--max-body-bytes", in: 1...1 << 30) ?? config.maxBodyBytes
        config.connectionTimeout = try arguments.int("--timeout", in: 1...3600) ?? config.connectionTimeout
        config.maxConnections = try arguments.int("--max-connections", in: 1...100_000) ?? config.maxConnections
        if let path = arguments.value("--token-file") {
            let bytes: [UInt8]
            do { bytes = try FileIO.read(path, limit: 4096) } catch {
                throw .usage("--token-file \(path): cannot read it (missing, or over 4096 bytes)")
            }
            let token = String(decoding: bytes, as: UTF8.self).trimmingWhitespace()
            guard !token.isEmpty, token.allSatisfy({ $0.isASCII && !$0.isWhitespace }) else {
                throw .usage("--token-file \(path): the token must be one line of visible ASCII")
            }
            config.token = token
        }
        return Server.serve(config: config)
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
