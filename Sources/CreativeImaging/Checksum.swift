import CVips

/// SHA-256 through GLib's GChecksum (already linked by libvips).
public enum Checksum {
    /// Lower-case hex SHA-256 of the bytes.
    public static func sha256(_ bytes: [UInt8]) -> String {
        let hex = bytes.withUnsafeBufferPointer { buffer in
            g_compute_checksum_for_data(G_CHECKSUM_SHA256, buffer.baseAddress, gsize(buffer.count))
        }
        guard let hex else { return "" }
        defer { g_free(hex) }
        return String(cString: hex)
    }
}
