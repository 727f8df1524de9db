#if canImport(Glibc)
import Glibc
#endif

/// The keys that sign S3 requests, found as the AWS tools find them.
public struct AWSCredentials: Sendable, Equatable {
    public let accessKey: String
    public let secretKey: String
    /// A temporary credential's token (sent as `x-amz-security-token`), or nil.
    public let sessionToken: String?
    /// The region requests are signed for.
    public let region: String

    public init(accessKey: String, secretKey: String, sessionToken: String? = nil, region: String) {
        self.accessKey = accessKey
        self.secretKey = secretKey
        self.sessionToken = sessionToken
        self.region = region
    }

    /// The credentials from `environment`, in the AWS tools' order: `AWS_ACCESS_KEY_ID`,
    /// `AWS_SECRET_ACCESS_KEY` and `AWS_SESSION_TOKEN`; else the profile `AWS_PROFILE` (default
    /// `default`) of the shared credentials file (`AWS_SHARED_CREDENTIALS_FILE`, else
    /// `~/.aws/credentials`). The region: `AWS_REGION`, `AWS_DEFAULT_REGION`, the profile's
    /// `region` in the config file (`AWS_CONFIG_FILE`, else `~/.aws/config`), else `us-east-1`.
    /// - Throws: ``FleetError/noCredentials(_:)`` when neither gives a key pair.
    public static func load(environment: [String: String]) throws(FleetError) -> AWSCredentials {
        let profile = environment["AWS_PROFILE"].flatMap { $0.isEmpty ? nil : $0 } ?? "default"
        let home = environment["HOME"] ?? ""
        let credentialsFile = environment["AWS_SHARED_CREDENTIALS_FILE"] ?? "\(home)/.aws/credentials"
        let configFile = environment["AWS_CONFIG_FILE"] ?? "\(home)/.aws/config"
        let shared = section(profile, of: readText(credentialsFile))
        let config = section(profile == "default" ? "default" : "profile \(profile)", of: readText(configFile))
        let region = [environment["AWS_REGION"], environment["AWS_DEFAULT_REGION"], config["region"]]
            .compactMap { $0 }.first { !$0.isEmpty } ?? "us-east-1"
        if let key = environment["AWS_ACCESS_KEY_ID"], let secret = environment["AWS_SECRET_ACCESS_KEY"],
           !key.isEmpty, !secret.isEmpty {
            let token = environment["AWS_SESSION_TOKEN"].flatMap { $0.isEmpty ? nil : $0 }
            return AWSCredentials(accessKey: key, secretKey: secret, sessionToken: token, region: region)
        }
        if let key = shared["aws_access_key_id"], let secret = shared["aws_secret_access_key"] {
            return AWSCredentials(accessKey: key, secretKey: secret, sessionToken: shared["aws_session_token"],
                                  region: region)
        }
        throw .noCredentials("set AWS_ACCESS_KEY_ID and AWS_SECRET_ACCESS_KEY, or profile '\(profile)' in "
            + credentialsFile)
    }

    /// The `key = value` lines of `[name]` in an INI-style AWS file.
    static func section(_ name: String, of text: String) -> [String: String] {
        var values: [String: String] = [:]
        var inside = false
        for raw in text.split(whereSeparator: { $0 == "\n" || $0 == "\r" }) {
            let line = raw.trimmingSpaces
            if line.hasPrefix("#") || line.hasPrefix(";") || line.isEmpty { continue }
            if line.hasPrefix("[") && line.hasSuffix("]") {
                inside = String(line.dropFirst().dropLast()).trimmingSpaces == name
                continue
            }
            guard inside, let equals = line.firstIndex(of: "=") else { continue }
            values[String(line[..<equals]).trimmingSpaces.lowercased()] = String(line[line.index(after: equals)...]).trimmingSpaces
        }
        return values
    }

    /// A small text file's contents, or "" when it cannot be read.
    private static func readText(_ path: String) -> String {
        guard let file = fopen(path, "r") else { return "" }
        defer { fclose(file) }
        var bytes: [UInt8] = []
        var buffer = [UInt8](repeating: 0, count: 4096)
        while bytes.count < 1 << 20 {
            let count = fread(&buffer, 1, buffer.count, file)
            if count <= 0 { break }
            bytes += buffer[0..<count]
        }
        return String(decoding: bytes, as: UTF8.self)
    }
}

extension StringProtocol {
    /// Without leading and trailing spaces and tabs.
    var trimmingSpaces: String {
        let isSpace: (Character) -> Bool = { $0 == " " || $0 == "\t" }
        guard let first = firstIndex(where: { !isSpace($0) }), let last = lastIndex(where: { !isSpace($0) }) else {
            return ""
        }
        return String(self[first...last])
    }
}
