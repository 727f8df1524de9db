import CCrypto

/// SHA-256 through OpenSSL's libcrypto (already loaded through libzip). Not GLib's GChecksum:
/// the wheel's libvips does not export it, and the system GLib must not be loaded beside it.
public enum Checksum {
    /// Lower-case hex SHA-256 of the bytes.
    public static func sha256(_ bytes: [UInt8]) -> String {
        var digest = [UInt8](repeating: 0, count: 32)
        var length: UInt32 = 0
        let ok = bytes.withUnsafeBufferPointer { buffer in
            digest.withUnsafeMutableBufferPointer { out in
                EVP_Digest(buffer.baseAddress, buffer.count, out.baseAddress, &length, EVP_sha256(), nil)
            }
        }
        guard ok == 1, length == 32 else { return "" }
        let hex: [UInt8] = Array("0123456789abcdef".utf8)
        var text = [UInt8]()
        text.reserveCapacity(64)
        for byte in digest {
            text.append(hex[Int(byte >> 4)])
            text.append(hex[Int(byte & 0x0f)])
        }
        return String(decoding: text, as: UTF8.self)
    }
}
