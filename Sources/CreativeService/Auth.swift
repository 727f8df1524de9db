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
