import CZlib

/// The CRC-32 of ISO 3309 (ITU-T V.42), the one PNG chunks and zip entries carry: zlib's
/// `crc32_z`, from the zlib libpng links.
public enum CRC32 {
    /// The checksum of `bytes`.
    public static func checksum(_ bytes: ArraySlice<UInt8>) -> UInt32 {
        bytes.withUnsafeBufferPointer { buffer in
            UInt32(truncatingIfNeeded: CZlib.crc32_z(0, buffer.baseAddress, buffer.count))
        }
    }
}
