#if canImport(Glibc)
import Glibc
#endif

/// Writes a folder of files so that it appears whole or not at all.
///
/// The files go into a hidden sibling `.NAME.partial-PID`, are flushed, then the sibling
/// replaces `NAME` in one rename (an atomic exchange when `NAME` exists, after which the old
/// contents are removed). A run killed midway leaves only a hidden partial folder, which the
/// next run removes.
public enum DirectoryWriter {
    /// Writes `files` (name, bytes) as the folder `path`, replacing what was there.
    public static func write(_ files: [(String, [UInt8])], to path: String) throws(FileIO.ReadFailure) {
        let trimmed = path.hasSuffix("/") && path.count > 1 ? String(path.dropLast()) : path
        let (parent, base) = split(trimmed)
        guard !base.isEmpty, base != ".", base != ".." else { throw .failed("\(path): not a folder name") }
        for (name, _) in files where name.contains("/") || name.hasPrefix(".") {
            throw .failed("refusing file name \(name)")
        }
        try FileIO.makeDirectory(parent)
        removeStalePartials(parent: parent, base: base)
        let partial = "\(parent)/.\(base).partial-\(getpid())"
        removeTree(partial)
        guard mkdir(partial, 0o755) == 0 else { throw .failed("cannot create \(partial): \(errorText())") }
        do throws(FileIO.ReadFailure) {
            for (name, bytes) in files {
                try FileIO.writeAtomically(bytes, to: "\(partial)/\(name)")
            }
            try syncDirectory(partial)
            var info = stat()
            if lstat(trimmed, &info) == 0 {
                guard (info.st_mode & S_IFMT) == S_IFDIR else { throw .failed("\(path) exists and is not a folder") }
                if exchange(partial, trimmed) {
                    // `NAME` is the new folder; the old one now sits under the partial name.
                    removeTree(partial)
                    try syncDirectory(parent)
                    return
                }
                // No atomic exchange here (old kernel or file system): two renames, with a
                // moment in which `NAME` is absent (never half written).
                let old = "\(parent)/.\(base).old-\(getpid())"
                removeTree(old)
                guard rename(trimmed, old) == 0 else { throw .failed("cannot replace \(path): \(errorText())") }
                guard rename(partial, trimmed) == 0 else {
                    let reason = errorText()
                    rename(old, trimmed)
                    throw .failed("cannot replace \(path): \(reason)")
                }
                removeTree(old)
            } else if rename(partial, trimmed) != 0 {
                throw .failed("cannot create \(path): \(errorText())")
            }
            try syncDirectory(parent)
        } catch {
            removeTree(partial)
            throw error
        }
    }

    private typealias RenameAt2 = @convention(c) (Int32, UnsafePointer<CChar>?, Int32, UnsafePointer<CChar>?, UInt32) -> Int32

    /// `renameat2(2)` from the C library, looked up at run time: Swift's Glibc module does not
    /// declare it (it needs `_GNU_SOURCE`). Nil when the C library lacks it.
    private static let renameat2: RenameAt2? = dlsym(nil, "renameat2").map {
        unsafeBitCast($0, to: RenameAt2.self)
    }

    /// Swaps two existing paths in one step (`RENAME_EXCHANGE`); false when the kernel or the
    /// file system cannot, and nothing was changed.
    static func exchange(_ first: String, _ second: String) -> Bool {
        let renameExchange: UInt32 = 1 << 1
        guard let renameat2 else { return false }
        return renameat2(AT_FDCWD, first, AT_FDCWD, second, renameExchange) == 0
    }

    /// Removes `.BASE.partial-PID` and `.BASE.old-PID` folders whose process is gone.
    static func removeStalePartials(parent: String, base: String) {
        guard let directory = opendir(parent) else { return }
        defer { closedir(directory) }
        var stale: [String] = []
        while let entry = readdir(directory) {
            let name = withUnsafeBytes(of: entry.pointee.d_name) { raw in
                String(decoding: raw.prefix { $0 != 0 }, as: UTF8.self)
            }
            for marker in [".\(base).partial-", ".\(base).old-"] where name.hasPrefix(marker) {
                if let pid = Int32(name.dropFirst(marker.count)), kill(pid, 0) != 0, errno == ESRCH {
                    stale.append("\(parent)/\(name)")
                }
            }
        }
        stale.forEach(removeTree)
    }

    /// Removes a folder and everything under it (symbolic links are removed, not followed).
    static func removeTree(_ path: String) {
        var info = stat()
        guard lstat(path, &info) == 0 else { return }
        if (info.st_mode & S_IFMT) == S_IFDIR {
            if let directory = opendir(path) {
                var names: [String] = []
                while let entry = readdir(directory) {
                    let name = withUnsafeBytes(of: entry.pointee.d_name) { raw in
                        String(decoding: raw.prefix { $0 != 0 }, as: UTF8.self)
                    }
                    if name != "." && name != ".." { names.append(name) }
                }
                closedir(directory)
                for name in names { removeTree("\(path)/\(name)") }
            }
            rmdir(path)
        } else {
            unlink(path)
        }
    }

    private static func syncDirectory(_ path: String) throws(FileIO.ReadFailure) {
        let descriptor = open(path, O_RDONLY | O_DIRECTORY | O_CLOEXEC)
        guard descriptor >= 0 else { throw .failed("cannot open \(path): \(errorText())") }
        fsync(descriptor)
        close(descriptor)
    }

    private static func split(_ path: String) -> (String, String) {
        guard let slash = path.lastIndex(of: "/") else { return (".", path) }
        let parent = String(path[..<slash])
        return (parent.isEmpty ? "/" : parent, String(path[path.index(after: slash)...]))
    }

    private static func errorText() -> String { String(cString: strerror(errno)) }
}
