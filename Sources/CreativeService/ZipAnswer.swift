import CreativeCore

/// A zip archive of files held in memory, as the parts of a ``BodyStream``: each entry stored
/// (method 0: the renders are compressed images already, and a stored entry needs no
/// compressor state), its local header carrying its CRC-32 and sizes (known before the first
/// byte, so no data descriptor), then the central directory. The archive is never assembled:
/// the files' own buffers are sent between the headers. libzip writes an archive only whole
/// (`zip_close`), into a file or a buffer, so it cannot stream one.
enum ZipAnswer {
    /// The media type of the answer.
    static let mediaType = "application/zip"

    /// Whether an `Accept` header asks for a zip (`application/zip` among its types, not at q=0).
    static func wanted(_ accept: String?) -> Bool {
        guard let accept else { return false }
        return accept.split(separator: ",").contains { item in
            let fields = item.split(separator: ";").map { String($0.drop { $0 == " " }.reversed().drop { $0 == " " }.reversed()) }
            guard fields.first?.lowercased() == mediaType else { return false }
            return !fields.dropFirst().contains { field in
                let compact = field.filter { $0 != " " }.lowercased()
                return compact.hasPrefix("q=") && Double(compact.dropFirst(2)) == 0
            }
        }
    }

    /// The archive of `files` (name, bytes), in order, as parts: header, file, header, file, ...,
    /// central directory and its end. Names are UTF-8 (flag bit 11); every entry is dated
    /// 1980-01-01 00:00, so the same files make the same archive.
    static func parts(_ files: [(name: String, bytes: [UInt8])]) -> [[UInt8]] {
        var parts: [[UInt8]] = []
        var central: [UInt8] = []
        var offset = 0
        for (name, bytes) in files {
            let nameBytes = Array(name.utf8)
            let crc = CRC32.checksum(bytes[...])
            var local: [UInt8] = []
            local.append32(0x0403_4b50)
            local.append16(20)        // version needed: 2.0
            local.append16(0x0800)    // UTF-8 names
            local.append16(0)         // stored
            local.append16(0)         // time 00:00
            local.append16(0x21)      // date 1980-01-01
            local.append32(crc)
            local.append32(UInt32(bytes.count))
            local.append32(UInt32(bytes.count))
            local.append16(UInt16(nameBytes.count))
            local.append16(0)
            local += nameBytes
            central.append32(0x0201_4b50)
            central.append16(0x0314)  // made by: Unix, 2.0
            central.append16(20)
            central.append16(0x0800)
            central.append16(0)
            central.append16(0)
            central.append16(0x21)
            central.append32(crc)
            central.append32(UInt32(bytes.count))
            central.append32(UInt32(bytes.count))
            central.append16(UInt16(nameBytes.count))
            central.append16(0)       // extra
            central.append16(0)       // comment
            central.append16(0)       // disk
            central.append16(0)       // internal attributes
            central.append32(0o100644 << 16)
            central.append32(UInt32(offset))
            central += nameBytes
            offset += local.count + bytes.count
            parts.append(local)
            parts.append(bytes)
        }
        var end: [UInt8] = []
        end.append32(0x0605_4b50)
        end.append16(0)
        end.append16(0)
        end.append16(UInt16(files.count))
        end.append16(UInt16(files.count))
        end.append32(UInt32(central.count))
        end.append32(UInt32(offset))
        end.append16(0)
        parts.append(central + end)
        return parts
    }
}

private extension Array where Element == UInt8 {
    mutating func append16(_ value: UInt16) {
        append(UInt8(value & 0xff))
        append(UInt8(value >> 8))
    }

    mutating func append32(_ value: UInt32) {
        for shift in stride(from: 0, to: 32, by: 8) { append(UInt8((value >> UInt32(shift)) & 0xff)) }
    }
}
