/// An object or a prefix on an S3-compatible store: `s3://BUCKET/KEY`.
public struct S3Location: Sendable, Equatable, CustomStringConvertible {
    public let bucket: String
    /// The key, or the prefix (no leading slash; may be empty).
    public let key: String

    public init(bucket: String, key: String) {
        self.bucket = bucket
        self.key = key
    }

    /// Parses `s3://BUCKET[/KEY]`.
    /// - Throws: ``FleetError/badOption(_:)`` for anything else, or a bucket name S3 would refuse.
    public init(parsing text: String) throws(FleetError) {
        guard text.hasPrefix("s3://") else { throw .badOption("'\(text)' is not an s3://BUCKET/KEY address") }
        let rest = text.dropFirst(5)
        let bucket = String(rest.prefix { $0 != "/" })
        let allowed = Set("abcdefghijklmnopqrstuvwxyz0123456789.-")
        guard (3...63).contains(bucket.count), bucket.allSatisfy({ allowed.contains($0) }),
              bucket.first != "-", bucket.first != "." else {
            throw .badOption("'\(text)': the bucket name must be 3-63 lower-case letters, digits, '.' or '-'")
        }
        self.bucket = bucket
        var key = String(rest.dropFirst(bucket.count))
        while key.hasPrefix("/") { key.removeFirst() }
        self.key = key
    }

    /// Why this location names no object that a job may read, or nil when it does: the key is
    /// empty or ends in `/` (a bucket or a prefix, whose listing is no creative), or has a `.` or
    /// `..` segment. On AWS those are part of a real key (`adv1/../adv2/x.png` is not
    /// `adv2/x.png`), and HTTP clients and proxies may resolve them, so such a key is refused.
    public var objectProblem: String? {
        if key.isEmpty { return "'\(description)' names a bucket, not an object: give s3://BUCKET/KEY" }
        if key.hasSuffix("/") { return "'\(description)' names a prefix (it ends in '/'), not an object" }
        return dotSegmentProblem
    }

    /// Why this key cannot be sent as it is, or nil: a `.` or `..` segment.
    public var dotSegmentProblem: String? {
        guard let dots = key.split(separator: "/", omittingEmptySubsequences: false).first(where: { $0 == "." || $0 == ".." })
        else { return nil }
        return "'\(description)' has a '\(dots)' segment in its key; name the object by its own key"
    }

    /// The location of `name` under this prefix (one `/` between them).
    public func appending(_ name: String) -> S3Location {
        S3Location(bucket: bucket, key: key.isEmpty || key.hasSuffix("/") ? key + name : key + "/" + name)
    }

    public var description: String { "s3://\(bucket)/\(key)" }
}

/// How object URLs name the bucket.
public enum S3Addressing: String, Sendable, CaseIterable {
    /// `https://ENDPOINT/BUCKET/KEY`: what most S3-compatible stores expect.
    case path
    /// `https://BUCKET.ENDPOINT/KEY`: AWS's default.
    case virtual
}

/// Where the store is and how to address it.
public struct S3Endpoint: Sendable {
    /// `http(s)://host[:port]` with no path.
    public let base: String
    public let region: String
    public let addressing: S3Addressing

    /// `url` nil: AWS's regional endpoint with virtual-host addressing; otherwise path-style
    /// unless `addressing` says.
    /// - Throws: ``FleetError/badOption(_:)`` when `url` is not `http(s)://host[:port]`.
    public init(url: String?, region: String, addressing: S3Addressing? = nil) throws(FleetError) {
        self.region = region
        guard var url else {
            base = "https://s3.\(region).amazonaws.com"
            self.addressing = addressing ?? .virtual
            return
        }
        while url.hasSuffix("/") { url.removeLast() }
        guard url.hasPrefix("http://") || url.hasPrefix("https://"),
              let host = url.split(separator: "/", omittingEmptySubsequences: true).dropFirst().first,
              url.split(separator: "/", omittingEmptySubsequences: true).count == 2, !host.isEmpty else {
            throw .badOption("--s3-endpoint '\(url)' must be http(s)://HOST[:PORT] with no path")
        }
        base = url
        self.addressing = addressing ?? .path
    }

    /// The URL of an object (or of the bucket, for an empty key), its key percent-encoded as
    /// SigV4 signs it (every byte of every segment but unreserved ones; `/` between segments).
    /// It is sent exactly so (``S3Client`` sets `CURLOPT_PATH_AS_IS`: no dot segment resolved).
    public func url(for location: S3Location) -> String {
        let key = S3Endpoint.encode(location.key)
        switch addressing {
        case .path:
            return "\(base)/\(location.bucket)" + (location.key.isEmpty ? "" : "/\(key)")
        case .virtual:
            let scheme = base.hasPrefix("https://") ? "https://" : "http://"
            return "\(scheme)\(location.bucket).\(base.dropFirst(scheme.count))/\(key)"
        }
    }

    static func encode(_ key: String) -> String {
        let unreserved = Set("ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz0123456789-._~/".utf8)
        let hex = Array("0123456789ABCDEF".utf8)
        var out: [UInt8] = []
        for byte in key.utf8 {
            if unreserved.contains(byte) {
                out.append(byte)
            } else {
                out += [UInt8(ascii: "%"), hex[Int(byte >> 4)], hex[Int(byte & 15)]]
            }
        }
        return String(decoding: out, as: UTF8.self)
    }
}
