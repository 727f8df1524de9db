#if canImport(Glibc)
import Glibc
#endif

/// Bearer-token check for the `/v1` routes.
public struct Auth: Sendable {
    /// The configured token; nil means every request is allowed.
    let token: [UInt8]?

    public init(token: String?) {
        self.token = token.map { Array($0.utf8) }
    }

    /// True when no token is configured, or `header` is `Bearer <token>` (compared in constant time).
    public func allows(authorization header: String?) -> Bool {
        guard let token else { return true }
        guard let header else { return false }
        let prefix = "Bearer "
        let bytes = Array(header.utf8)
        guard bytes.count > prefix.utf8.count,
              String(decoding: bytes[0..<prefix.utf8.count], as: UTF8.self).lowercased() == prefix.lowercased()
        else { return false }
        return Auth.constantTimeEqual(Array(bytes[prefix.utf8.count...]), token)
    }

    /// Compares two byte strings in time that depends only on their lengths, not on where they differ.
    public static func constantTimeEqual(_ a: [UInt8], _ b: [UInt8]) -> Bool {
        var difference = UInt8(truncatingIfNeeded: a.count ^ b.count)
        let count = max(a.count, b.count)
        for i in 0..<count {
            let x = i < a.count ? a[i] : 0
            let y = i < b.count ? b[i] : 0
            difference |= x ^ y
        }
        return difference == 0 && a.count == b.count
    }
}

/// The `Host` names a listener answers when the service has no token: the defence against DNS
/// rebinding, by which a web page on another site points its own host name at 127.0.0.1 and
/// then reads the service's answers as its own origin's. Such requests carry the page's host
/// name, which is not one of these.
public struct HostAllowList: Sendable, Equatable {
    /// Names accepted as they are (lowercase, no port).
    public let names: Set<String>
    /// Whether any IP address literal is accepted too (the admin listener: probes name the
    /// pod's address, and an address cannot be rebound to another site).
    public let acceptsAddresses: Bool

    /// The loopback names, always accepted: `localhost`, `127.0.0.1`, `[::1]`.
    public static let loopbackNames: Set<String> = ["localhost", "127.0.0.1", "[::1]"]

    /// The loopback names and `extra` (`--allowed-host`, compared without case).
    public init(extra: [String] = [], acceptsAddresses: Bool = false) {
        names = Self.loopbackNames.union(extra.map { $0.lowercased() })
        self.acceptsAddresses = acceptsAddresses
    }

    /// Whether a request with this `Host` header is answered. No header (HTTP/1.0, which no
    /// browser sends without one) is; a header that is not `name[:port]` is not.
    public func allows(_ header: String?) -> Bool {
        guard let header else { return true }
        guard let name = Self.name(ofHost: header) else { return false }
        return names.contains(name) || (acceptsAddresses && Self.isAddress(name))
    }

    /// The host part of a `Host` header, lowercased, without its port (`[::1]:8080` -> `[::1]`);
    /// nil when the header is not `name`, `name:port`, `[v6]` or `[v6]:port`.
    public static func name(ofHost header: String) -> String? {
        let text = header.lowercased()
        var host = Substring(text)
        var port: Substring = ""
        if text.hasPrefix("[") {
            guard let close = text.firstIndex(of: "]") else { return nil }
            host = text[...close]
            let rest = text[text.index(after: close)...]
            if !rest.isEmpty {
                guard rest.first == ":" else { return nil }
                port = rest.dropFirst()
            }
        } else if let colon = text.firstIndex(of: ":") {
            host = text[..<colon]
            port = text[text.index(after: colon)...]
        }
        guard !host.isEmpty, port.count <= 5, port.allSatisfy({ $0.isASCII && $0.isNumber }) else { return nil }
        return String(host)
    }

    /// Whether `name` is why an `--allowed-host` value is refused: nil for a plain name, or a reason.
    public static func problem(withName name: String) -> String? {
        guard !name.isEmpty, name.count <= 253 else { return "give a host name of 1 to 253 characters" }
        guard Self.name(ofHost: name) == name.lowercased(), !name.hasSuffix(":") else {
            return "'\(name)' is not a host name: give the name alone, without a port (any port is accepted)"
        }
        guard name.unicodeScalars.allSatisfy({ $0.isASCII && $0.value > 0x20 && $0.value != 0x7F && $0 != "/" }) else {
            return "'\(name)' is not a host name"
        }
        return nil
    }

    /// An IPv4 address, or an IPv6 address in brackets.
    private static func isAddress(_ name: String) -> Bool {
        if name.hasPrefix("["), name.hasSuffix("]") {
            var address = in6_addr()
            return inet_pton(AF_INET6, String(name.dropFirst().dropLast()), &address) == 1
        }
        var address = in_addr()
        return inet_pton(AF_INET, name, &address) == 1
    }
}
