import CreativeCore
import CreativeService
#if canImport(Glibc)
import Glibc
#endif

/// `creative-tool serve`: the HTTP service (routes in CreativeService/Router.swift).
enum ServeCommand: DeclaredCommand {
    static let name = "serve"
    static let summary = "run the HTTP service (validate, render, slot, select, test artwork, health, metrics)"
    static let declared = ServeOptions.all
    static let help = CommandHelp(
        synopsis: ["[--host ADDR] [--port N] [--token-file F | --allow-unauthenticated] [--allowed-host NAME]... [options]",
                   "--healthcheck [--admin-port N]"],
        notes: ["Logs one JSON line per request on standard error (dropped and counted, never waited for, when",
                "standard error does not keep up). A job whose client closes its connection is cancelled.",
                "SIGTERM or SIGINT: stop accepting, finish the requests in flight (at most --drain-timeout),",
                "cancel the jobs left (503 shutting_down), exit 0. SIGHUP, SIGUSR1, SIGUSR2, SIGALRM and",
                "SIGVTALRM are ignored (and logged). SIGQUIT keeps its default (a core dump, for debugging)."],
        examples: ["--port 8080", "--host 0.0.0.0 --token-file /run/secrets/token --memory-budget 512M --job-timeout 20s"],
        exitCodes: "0 stopped by SIGTERM or SIGINT (--healthcheck: healthy), 1 cannot serve (--healthcheck: unhealthy), "
            + "64 usage error")

    static func run(_ arguments: ParsedArguments) throws(CLIError) -> Int32 {
        guard arguments.positionals.isEmpty else { throw .usage("unexpected argument '\(arguments.positionals[0])'") }
        var config = ServiceConfig()
        let environmentPorts = (data: try environmentPort("CREATIVE_PORT"), admin: try environmentPort("CREATIVE_ADMIN_PORT"))
        let ports = try CLIError.reading { () throws(CoreError) in
            (try arguments.int(ServeOptions.port), try arguments.int(ServeOptions.adminPort))
        }
        config.port = ports.0 ?? environmentPorts.data ?? config.port
        config.adminPort = ports.1 ?? environmentPorts.admin ?? config.adminPort
        if arguments.flag(ServeOptions.apiParameters.flag) {
            try Streams.outJSON(APIParameters.json)
            return ExitCode.success
        }
        if arguments.flag(ServeOptions.healthcheck.flag) {
            return HealthProbe.check(port: config.adminPort) ? ExitCode.success : ExitCode.failure
        }
        try CLIError.reading { () throws(CoreError) in try ServeOptions.read(arguments, into: &config) }
        for name in arguments.every(ServeOptions.allowedHost) {
            if let problem = HostAllowList.problem(withName: name) { throw .usage("--allowed-host: \(problem)") }
            config.allowedHosts.append(name)
        }
        if let path = arguments.given(ServeOptions.tokenFile) {
            let bytes: [UInt8]
            do { bytes = try FileIO.read(path, limit: 4096) } catch {
                // Missing, a folder or unreadable: the path is wrong (exit 74); too long is no token.
                if case .tooLarge = error { throw .usage("--token-file \(path): over 4096 bytes; give the token alone") }
                throw Inputs.failure(error, path: path, maxBytes: 4096)
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
        return Server.serve(config: config)
    }
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
