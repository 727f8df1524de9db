import CZip

/// One entry of a zip's central directory, as libzip reads it (nothing inflated).
public struct ZipEntry: Sendable {
    /// Position in the central directory.
    public let index: Int
    /// The name's bytes as stored (no encoding conversion).
    public let rawName: [UInt8]
    /// Uncompressed size the directory declares.
    public let size: Int
    /// Compressed size the directory declares.
    public let compressedSize: Int
    /// True when the entry is encrypted (any method).
    public let encrypted: Bool
    /// True when the Unix mode in the external attributes says symbolic link.
    public let symlink: Bool

    /// True for a folder entry (its name ends in `/`).
    public var isDirectory: Bool { rawName.last == UInt8(ascii: "/") }
}

/// A zip archive held in memory and read with libzip: the central directory is listed without
/// inflating anything, and an entry is inflated only on request, never past its declared size.
/// Owns the libzip archive (and through it the source over the bytes); released in deinit.
final class ZipArchive {
    private let archive: OpaquePointer
    /// The bytes libzip reads from; kept alive as long as the archive.
    private let storage: UnsafeMutableRawBufferPointer

    /// Why an archive or an entry cannot be read.
    struct Failure: Error {
        let message: String
        /// True when libzip refused the archive because two entries share a name.
        var duplicateName = false
    }

    /// Opens the archive over a copy of the bytes, with libzip's consistency checks.
    init(bytes: [UInt8]) throws(Failure) {
        let storage = UnsafeMutableRawBufferPointer.allocate(byteCount: max(bytes.count, 1), alignment: 1)
        bytes.withUnsafeBytes { storage.copyMemory(from: $0) }
        var error = zip_error_t()
        zip_error_init(&error)
        defer { zip_error_fini(&error) }
        guard let source = zip_source_buffer_create(storage.baseAddress, UInt64(bytes.count), 0, &error) else {
            storage.deallocate()
            throw Failure(message: String(cString: zip_error_strerror(&error)))
        }
        guard let archive = zip_open_from_source(source, ZIP_RDONLY | ZIP_CHECKCONS, &error) else {
            zip_source_free(source)
            storage.deallocate()
            throw Failure(message: String(cString: zip_error_strerror(&error)),
                          duplicateName: zip_error_code_zip(&error) == ZIP_ER_EXISTS)
        }
        self.archive = archive
        self.storage = storage
    }

    deinit {
        zip_discard(archive)
        storage.deallocate()
    }

    /// The number of entries the central directory lists.
    var count: Int { max(0, Int(zip_get_num_entries(archive, 0))) }

    /// The directory's record of one entry.
    func entry(_ index: Int) throws(Failure) -> ZipEntry {
        var stat = zip_stat_t()
        zip_stat_init(&stat)
        guard zip_stat_index(archive, UInt64(index), ZIP_FL_ENC_RAW, &stat) == 0,
              let name = zip_get_name(archive, UInt64(index), ZIP_FL_ENC_RAW) else {
            throw Failure(message: lastError())
        }
        var system: UInt8 = 0
        var attributes: UInt32 = 0
        let symlink = zip_file_get_external_attributes(archive, UInt64(index), 0, &system, &attributes) == 0
            && system == UInt8(ZIP_OPSYS_UNIX) && (attributes >> 16) & 0o170000 == 0o120000
        var rawName: [UInt8] = []
        var cursor = name
        while cursor.pointee != 0 {
            rawName.append(UInt8(bitPattern: cursor.pointee))
            cursor += 1
        }
        return ZipEntry(index: index, rawName: rawName, size: Int(clamping: stat.size),
                        compressedSize: Int(clamping: stat.comp_size),
                        encrypted: stat.encryption_method != UInt16(ZIP_EM_NONE), symlink: symlink)
    }

    /// Inflates one entry whole, refusing to read more than its declared size: an entry that
    /// inflates past it, or fails libzip's CRC check, is damage.
    func read(_ entry: ZipEntry) throws(Failure) -> [UInt8] {
        guard let file = zip_fopen_index(archive, UInt64(entry.index), 0) else { throw Failure(message: lastError()) }
        defer { zip_fclose(file) }
        var bytes = [UInt8](repeating: 0, count: entry.size + 1)
        var filled = 0
        while filled < bytes.count {
            let got = bytes.withUnsafeMutableBytes { buffer in
                zip_fread(file, buffer.baseAddress! + filled, UInt64(buffer.count - filled))
            }
            if got < 0 {
                throw Failure(message: String(cString: zip_error_strerror(zip_file_get_error(file))))
            }
            if got == 0 { break }
            filled += Int(got)
        }
        guard filled == entry.size else {
            throw Failure(message: "it inflates to \(filled > entry.size ? "more" : "fewer") bytes than the "
                          + "\(entry.size) its directory record declares")
        }
        bytes.removeLast()
        return bytes
    }

    /// The names, as libzip shows them, that are stored with NUL bytes. libzip hands names over
    /// as C strings and turns a NUL inside a name into a space, so the stored names are looked
    /// up where every central directory record keeps them (46 bytes after its `PK\u{1}\u{2}`
    /// signature, length at offset 28). Only this one field is read by hand; libzip reads the
    /// archive. Linear in the archive's size (names over 1 KiB are not looked at).
    lazy var namesStoredWithNUL: Set<[UInt8]> = {
        let bytes = UnsafeRawBufferPointer(storage)
        var names: Set<[UInt8]> = []
        var offset = 0
        while offset + 46 <= bytes.count {
            defer { offset += 1 }
            guard bytes[offset] == 0x50, bytes[offset + 1] == 0x4B, bytes[offset + 2] == 1, bytes[offset + 3] == 2
            else { continue }
            let length = Int(bytes[offset + 28]) | Int(bytes[offset + 29]) << 8
            let start = offset + 46
            guard length <= 1024, start + length <= bytes.count,
                  bytes[start..<start + length].contains(0) else { continue }
            names.insert(bytes[start..<start + length].map { $0 == 0 ? 0x20 : $0 })
        }
        return names
    }()

    private func lastError() -> String { String(cString: zip_error_strerror(zip_get_error(archive))) }
}
