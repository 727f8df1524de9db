/// Standard base64 (RFC 4648, with padding).
enum Base64 {
    private static let alphabet = Array("ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz0123456789+/".utf8)

    static func encode(_ bytes: [UInt8]) -> String {
        var out: [UInt8] = []
        out.reserveCapacity((bytes.count + 2) / 3 * 4)
        var index = 0
        while index + 2 < bytes.count {
            let value = UInt32(bytes[index]) << 16 | UInt32(bytes[index + 1]) << 8 | UInt32(bytes[index + 2])
            out += [alphabet[Int(value >> 18 & 63)], alphabet[Int(value >> 12 & 63)],
                    alphabet[Int(value >> 6 & 63)], alphabet[Int(value & 63)]]
            index += 3
        }
        let rest = bytes.count - index
        if rest == 1 {
            let value = UInt32(bytes[index]) << 16
            out += [alphabet[Int(value >> 18 & 63)], alphabet[Int(value >> 12 & 63)], UInt8(ascii: "="), UInt8(ascii: "=")]
        } else if rest == 2 {
            let value = UInt32(bytes[index]) << 16 | UInt32(bytes[index + 1]) << 8
            out += [alphabet[Int(value >> 18 & 63)], alphabet[Int(value >> 12 & 63)], alphabet[Int(value >> 6 & 63)],
                    UInt8(ascii: "=")]
        }
        return String(decoding: out, as: UTF8.self)
    }
}
