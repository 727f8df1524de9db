import CZip
#if canImport(Glibc)
import Glibc
#endif

/// Builds zip archives in memory with libzip, for the HTML5 bundle tests: stored or deflated
/// entries, encrypted entries, symbolic links, and names libzip would not write (patched in the
/// bytes afterwards).
public struct BundleZip {
    /// How one entry is written.
    public enum Kind: Sendable { case deflated, stored, encrypted, symlink }

    private var entries: [(name: String, bytes: [UInt8], kind: Kind)] = []
    private var patches: [([UInt8], [UInt8])] = []

    public init() {}

    /// Adds a file (deflated unless said otherwise).
    public func adding(_ name: String, _ bytes: [UInt8], _ kind: Kind = .deflated) -> BundleZip {
        var copy = self
        copy.entries.append((name, bytes, kind))
        return copy
    }

    /// Adds a text file.
    public func adding(_ name: String, text: String, _ kind: Kind = .deflated) -> BundleZip {
        adding(name, Array(text.utf8), kind)
    }

    /// Replaces every occurrence of `old` with `new` (the same length) in the finished archive:
    /// local header and central directory both, for names libzip would not write.
    public func patching(_ old: [UInt8], _ new: [UInt8]) -> BundleZip {
        precondition(old.count == new.count, "a patch keeps the length")
        var copy = self
        copy.patches.append((old, new))
        return copy
    }

    /// The archive's bytes.
    public func bytes() -> [UInt8] {
        var error = zip_error_t()
        zip_error_init(&error)
        defer { zip_error_fini(&error) }
        guard let source = zip_source_buffer_create(nil, 0, 0, &error),
              let archive = zip_open_from_source(source, ZIP_TRUNCATE, &error) else {
            fatalError("libzip cannot open an archive in memory")
        }
        zip_source_keep(source)
        for entry in entries {
            // libzip frees the copy after writing (an empty entry needs none: libzip would not free it).
            var buffer: UnsafeMutableRawPointer?
            if !entry.bytes.isEmpty {
                buffer = malloc(entry.bytes.count)
                entry.bytes.withUnsafeBytes { buffer?.copyMemory(from: $0.baseAddress!, byteCount: entry.bytes.count) }
            }
            guard let data = zip_source_buffer(archive, buffer, UInt64(entry.bytes.count), buffer == nil ? 0 : 1) else {
                fatalError("zip_source_buffer failed")
            }
            let index = zip_file_add(archive, entry.name, data, ZIP_FL_ENC_UTF_8)
            guard index >= 0 else { fatalError("zip_file_add \(entry.name): \(String(cString: zip_strerror(archive)))") }
            let method = entry.kind == .stored ? ZIP_CM_STORE : ZIP_CM_DEFLATE
            zip_set_file_compression(archive, UInt64(index), method, 9)
            switch entry.kind {
            case .encrypted:
                guard zip_file_set_encryption(archive, UInt64(index), UInt16(ZIP_EM_AES_256), "secret") == 0 else {
                    fatalError("zip_file_set_encryption: \(String(cString: zip_strerror(archive)))")
                }
            case .symlink:
                zip_file_set_external_attributes(archive, UInt64(index), 0, UInt8(ZIP_OPSYS_UNIX), 0o120777 << 16)
            case .deflated, .stored:
                break
            }
        }
        guard zip_close(archive) == 0 else { fatalError("zip_close: \(String(cString: zip_strerror(archive)))") }
        defer { zip_source_free(source) }
        var stat = zip_stat_t()
        zip_stat_init(&stat)
        guard zip_source_stat(source, &stat) == 0, zip_source_open(source) == 0 else { fatalError("zip_source_open") }
        defer { zip_source_close(source) }
        var result = [UInt8](repeating: 0, count: Int(stat.size))
        let read = result.withUnsafeMutableBytes { zip_source_read(source, $0.baseAddress!, stat.size) }
        precondition(read == Int64(stat.size), "short read of the archive")
        for (old, new) in patches { result = Self.replace(old, with: new, in: result) }
        return result
    }

    private static func replace(_ old: [UInt8], with new: [UInt8], in bytes: [UInt8]) -> [UInt8] {
        var out = bytes
        var index = 0
        while index + old.count <= out.count {
            if out[index] == old[0], Array(out[index..<index + old.count]) == old {
                out.replaceSubrange(index..<index + old.count, with: new)
                index += old.count
            } else {
                index += 1
            }
        }
        return out
    }
}

extension BundleZip {
    /// The entries of an archive, read by libzip with its consistency checks (`ZIP_CHECKCONS`) and
    /// each entry's CRC checked on reading: name, bytes and compression method, in order; nil when
    /// libzip refuses the archive or an entry.
    public static func entries(of bytes: [UInt8]) -> [(name: String, bytes: [UInt8], method: Int32)]? {
        let storage = UnsafeMutableRawBufferPointer.allocate(byteCount: max(bytes.count, 1), alignment: 1)
        defer { storage.deallocate() }
        bytes.withUnsafeBytes { storage.copyMemory(from: $0) }
        var error = zip_error_t()
        zip_error_init(&error)
        defer { zip_error_fini(&error) }
        guard let source = zip_source_buffer_create(storage.baseAddress, UInt64(bytes.count), 0, &error) else { return nil }
        guard let archive = zip_open_from_source(source, ZIP_RDONLY | ZIP_CHECKCONS, &error) else {
            zip_source_free(source)
            return nil
        }
        defer { zip_discard(archive) }
        var entries: [(String, [UInt8], Int32)] = []
        for index in 0..<UInt64(max(0, zip_get_num_entries(archive, 0))) {
            var stat = zip_stat_t()
            zip_stat_init(&stat)
            guard zip_stat_index(archive, index, 0, &stat) == 0, let name = stat.name,
                  let file = zip_fopen_index(archive, index, 0) else { return nil }
            var content = [UInt8](repeating: 0, count: Int(stat.size))
            let read = content.withUnsafeMutableBytes { zip_fread(file, $0.baseAddress, stat.size) }
            // Reading past the end checks the CRC.
            var extra: UInt8 = 0
            let after = zip_fread(file, &extra, 1)
            zip_fclose(file)
            guard read == Int64(stat.size), after == 0 else { return nil }
            entries.append((String(cString: name), content, Int32(stat.comp_method)))
        }
        return entries
    }
}
