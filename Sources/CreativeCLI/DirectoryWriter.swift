import CreativeCore
import CreativeImaging
#if canImport(Glibc)
import Glibc
#endif

/// Writes the folder of `process` so that it appears whole or not at all, and never replaces
/// anything the tool did not write.
///
/// A folder may be replaced only when it is empty or is an earlier output of `process`: its
/// `manifest.json` starts with the marker field and every other entry is a file that manifest
/// lists. The folder holding the input, or any folder above it, is never replaced. Otherwise
/// the run stops with `output_dir_not_ours` and nothing is touched. The check runs before the
/// job and again at the swap, on the old folder itself, which is swapped back if it changed.
///
/// The files go into a hidden sibling `.NAME.partial-PID`, are flushed, then the sibling
/// replaces `NAME` in one rename (an atomic exchange when `NAME` exists, after which the old
/// folder's files are removed). A run killed midway leaves only a hidden partial folder, which
/// the next run of the same folder removes (``removeStalePartials(parent:base:)``: when no run
/// holds its lock and its PID names no live run). A symbolic link given as the folder stays;
/// the folder it names is replaced.
enum DirectoryWriter {
    /// The field `process` writes first in its manifest, naming the tool that wrote the folder
    /// (``CreativeJob/writtenBy``).
    static let markerKey = CreativeJob.writtenBy.0
    static let markerValue = CreativeJob.writtenBy.1

    /// A folder to write, after the links at its end are followed.
    struct Target {
        /// What the caller named (for messages).
        let given: String
        /// The folder to create or replace, no link.
        let path: String
        let parent: String
        let name: String
    }

    /// The folder `path` names, checked: it may be created or replaced (see the type's rules).
    /// `input` is the file being processed (`-` for standard input).
    /// - Throws: `output_dir_not_ours`, or `io_error` when the path cannot be inspected.
    static func target(_ path: String, input: String) throws(CLIError) -> Target {
        var trimmed = path
        while trimmed.count > 1 && trimmed.hasSuffix("/") { trimmed.removeLast() }
        let end: FileIO.LinkEnd
        do { end = try FileIO.followLinks(trimmed) } catch { throw ioError(error) }
        guard case .path(let resolved, _) = end else {
            throw .failed(code: "io_error", message: "\(path): not a folder name")
        }
        let (parent, name) = FileIO.split(resolved)
        guard !name.isEmpty, name != ".", name != ".." else {
            throw .failed(code: "io_error", message: "\(path): not a folder name")
        }
        let target = Target(given: path, path: resolved, parent: parent, name: name)
        try checkReplaceable(target, input: input)
        return target
    }

    /// Throws `output_dir_not_ours` unless the target is absent, empty, or an earlier output
    /// that does not hold the input.
    private static func checkReplaceable(_ target: Target, input: String) throws(CLIError) {
        var info = stat()
        guard lstat(FileIO.cPath(target.path), &info) == 0 else { return }
        guard (info.st_mode & S_IFMT) == S_IFDIR else {
            throw notOurs(target, "it exists and is not a folder")
        }
        if let folder = FileIO.realPath(target.path), input != "-" {
            let holders = [input, FileIO.realPath(input) ?? input].map { existingFolder(of: $0) }
            if folder == "/" || holders.contains(where: { $0 == folder || $0.hasPrefix(folder + "/") }) {
                throw notOurs(target, "it holds the input \(input)")
            }
        }
        let strays = self.strays(in: target.path)
        if !strays.isEmpty {
            let shown = strays.prefix(3).joined(separator: ", ") + (strays.count > 3 ? ", ..." : "")
            throw notOurs(target, "it holds files process did not write (\(shown))")
        }
    }

    private static func notOurs(_ target: Target, _ reason: String) -> CLIError {
        .failed(code: "output_dir_not_ours",
                message: "\(target.given): \(reason); nothing was changed. Name a new or empty folder, "
                    + "or one an earlier process run wrote")
    }

    /// The canonical path of the folder holding `path`, or of its nearest existing ancestor.
    private static func existingFolder(of path: String) -> String {
        var folder = FileIO.split(path).parent
        while true {
            if let real = FileIO.realPath(folder) { return real }
            let up = FileIO.split(folder).parent
            if up == folder { return "/" }
            folder = up
        }
    }

    /// Writes `files` (name, bytes) as the target folder, replacing what was there.
    /// - Throws: `output_dir_not_ours` when the folder became someone else's since
    ///   ``target(_:input:)`` (it is then left as it was), `io_error` when writing fails.
    static func write(_ files: [(String, [UInt8])], to target: Target, input: String) throws(CLIError) {
        let partial = try begin(target)
        do throws(CLIError) {
            for (name, bytes) in files { try partial.put(name, bytes) }
            try commit(partial, input: input)
        } catch {
            removeTree(partial.path)
            throw error
        }
    }

    /// The hidden sibling a folder is built in, file by file, as a job finishes each
    /// (``begin(_:)``, then ``commit(_:input:)``, or ``abandon(_:)``). A name may hold one `/`:
    /// a creative's folder inside a campaign's (`NAME/FILE`), made when its first file comes.
    final class Partial: Sendable {
        let target: Target
        /// The hidden folder's path.
        let path: String
        /// The folder opened with an exclusive `flock` held while the run builds it: the kernel
        /// drops the lock when the run ends however it ends (SIGKILL, or a parent that never
        /// reaps it), so a later run can tell a live run's folder from a dead one's. -1 when it
        /// could not be taken (the PID then decides alone).
        private let lock: Int32

        fileprivate init(target: Target, path: String) {
            self.target = target
            self.path = path
            let descriptor = open(FileIO.cPath(path), O_RDONLY | O_DIRECTORY | O_CLOEXEC)
            if descriptor >= 0 && flock(descriptor, LOCK_EX | LOCK_NB) != 0 {
                close(descriptor)
                lock = -1
            } else {
                lock = descriptor
            }
        }

        deinit {
            if lock >= 0 { close(lock) }
        }

        /// Writes one file into the folder (flushed, under a temporary name, then renamed).
        /// - Throws: `io_error` for a name that is hidden, names a folder above, or cannot be written.
        func put(_ name: String, _ bytes: [UInt8]) throws(CLIError) {
            let parts = name.split(separator: "/", omittingEmptySubsequences: false).map(String.init)
            guard parts.count <= 2, parts.allSatisfy({ !$0.isEmpty && !$0.hasPrefix(".") }) else {
                throw .failed(code: "io_error", message: "refusing file name \(name)")
            }
            if parts.count == 2 {
                let folder = "\(path)/\(parts[0])"
                if mkdir(FileIO.cPath(folder), 0o755) != 0 && errno != EEXIST {
                    throw .failed(code: "io_error", message: "cannot create \(folder): \(FileIO.errorText())")
                }
            }
            do { try FileIO.writeAtomically(bytes, to: "\(path)/\(name)") } catch { throw ioError(error) }
        }
    }

    /// Creates the hidden folder the target is built in (removing stale ones of runs that died).
    /// - Throws: `io_error` when it cannot be created.
    static func begin(_ target: Target) throws(CLIError) -> Partial {
        let (parent, base) = (target.parent, target.name)
        do { try FileIO.makeDirectory(parent) } catch { throw ioError(error) }
        removeStalePartials(parent: parent, base: base)
        let partial = "\(parent)/.\(base).partial-\(getpid())"
        removeTree(partial)
        guard mkdir(FileIO.cPath(partial), 0o755) == 0 else {
            throw .failed(code: "io_error", message: "cannot create \(partial): \(FileIO.errorText())")
        }
        return Partial(target: target, path: partial)
    }

    /// Removes a folder being built: the job failed, nothing is put in place.
    static func abandon(_ partial: Partial) { removeTree(partial.path) }

    /// A job's sink (``JobFileSink``) that writes each file into a folder being built (`prefix` is a
    /// creative's folder inside a campaign's, with its `/`, or empty).
    static func sink(into partial: Partial, prefix: String = "") -> JobFileSink {
        { name, bytes throws(ImagingError) in
            do throws(CLIError) { try partial.put(prefix + name, bytes) } catch {
                if case .failed(_, let message) = error { throw .io(message) }
                throw .io("cannot write \(name)")
            }
        }
    }

    /// Puts the built folder in place of the target in one rename, after checking once more that
    /// what is there may be replaced. On failure the built folder is removed.
    /// - Throws: `output_dir_not_ours`, `io_error`.
    static func commit(_ built: Partial, input: String) throws(CLIError) {
        let (target, partial) = (built.target, built.path)
        do throws(CLIError) {
            for name in names(in: partial) where isDirectory("\(partial)/\(name)") { try syncDirectory("\(partial)/\(name)") }
            try syncDirectory(partial)
            try checkReplaceable(target, input: input)
            if exists(target.path) {
                try swapIn(partial, target)
            } else if rename(FileIO.cPath(partial), FileIO.cPath(target.path)) != 0 {
                throw .failed(code: "io_error", message: "cannot create \(target.given): \(FileIO.errorText())")
            }
            try syncDirectory(target.parent)
        } catch {
            removeTree(partial)
            throw error
        }
    }

    /// Puts the new folder `partial` in place of the existing target, then removes the old
    /// folder's files, after checking once more that they are all process's; if they are not,
    /// the old folder is put back. The new folder is removed by the caller on a throw.
    private static func swapIn(_ partial: String, _ target: Target) throws(CLIError) {
        if exchange(partial, target.path) {
            // The target is the new folder; the old one now sits under the partial name.
            guard strays(in: partial).isEmpty else {
                _ = exchange(partial, target.path)
                throw notOurs(target, "files appeared in it while the job ran")
            }
            removeOwnFolder(partial)
            return
        }
        // No atomic exchange here (old kernel or file system): two renames, with a moment in
        // which the folder is absent (never half written).
        let old = "\(target.parent)/.\(target.name).old-\(getpid())"
        removeTree(old)
        guard rename(FileIO.cPath(target.path), FileIO.cPath(old)) == 0 else {
            throw .failed(code: "io_error", message: "cannot replace \(target.given): \(FileIO.errorText())")
        }
        guard rename(FileIO.cPath(partial), FileIO.cPath(target.path)) == 0 else {
            let reason = FileIO.errorText()
            rename(FileIO.cPath(old), FileIO.cPath(target.path))
            throw .failed(code: "io_error", message: "cannot replace \(target.given): \(reason)")
        }
        guard strays(in: old).isEmpty else {
            rename(FileIO.cPath(target.path), FileIO.cPath(partial))
            rename(FileIO.cPath(old), FileIO.cPath(target.path))
            throw notOurs(target, "files appeared in it while the job ran")
        }
        removeOwnFolder(old)
    }

    /// Removes a folder whose entries were all checked to be process's files (and, in a
    /// campaign's folder, its creatives' folders, checked the same way).
    private static func removeOwnFolder(_ path: String) {
        for name in names(in: path) {
            if isDirectory("\(path)/\(name)") { removeOwnFolder("\(path)/\(name)") } else { unlink(FileIO.cPath("\(path)/\(name)")) }
        }
        rmdir(FileIO.cPath(path))
    }

    private static func ioError(_ error: FileIO.ReadFailure) -> CLIError {
        Inputs.failure(error, path: "", maxBytes: 0)
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
        return renameat2(AT_FDCWD, FileIO.cPath(first), AT_FDCWD, FileIO.cPath(second), renameExchange) == 0
    }

    /// Removes `.BASE.partial-PID` and `.BASE.old-PID` folders of runs that died, when they hold
    /// only what a run puts there (renders, `manifest.json`, temporary files). A folder's run is
    /// dead when no process holds the folder's lock (``Partial``) and its PID names no live run:
    /// no process, a zombie (killed and not yet reaped by its parent, which kept the PID taken),
    /// or a process that started after the folder was last written (the PID was reused). A
    /// folder is never this run's own.
    static func removeStalePartials(parent: String, base: String) {
        var stale: [String] = []
        for name in names(in: parent) {
            for marker in [".\(base).partial-", ".\(base).old-"] where name.hasPrefix(marker) {
                let folder = "\(parent)/\(name)"
                if let pid = Int32(name.dropFirst(marker.count)), pid > 0, pid != getpid(),
                   !isLocked(folder), !RunProcess.isLive(pid, lastWrote: modified(folder)) {
                    stale.append(folder)
                }
            }
        }
        for folder in stale where isOwnPartial(folder, depth: 0) { removeOwnFolder(folder) }
    }

    /// Whether a process holds the folder's lock (a run building it now).
    private static func isLocked(_ folder: String) -> Bool {
        let descriptor = open(FileIO.cPath(folder), O_RDONLY | O_DIRECTORY | O_CLOEXEC)
        guard descriptor >= 0 else { return false }
        defer { close(descriptor) }
        return flock(descriptor, LOCK_EX | LOCK_NB) != 0 && errno == EWOULDBLOCK
    }

    /// The folder's last modification, in seconds since the epoch (nil when it cannot be read).
    private static func modified(_ folder: String) -> Double? {
        var info = stat()
        guard lstat(FileIO.cPath(folder), &info) == 0 else { return nil }
        return Double(info.st_mtim.tv_sec) + Double(info.st_mtim.tv_nsec) / 1e9
    }

    /// Whether a folder a dead run left holds only what a run puts there: renders, manifests,
    /// temporary files, and (one level down, in a campaign's) creatives' folders of the same.
    private static func isOwnPartial(_ folder: String, depth: Int) -> Bool {
        names(in: folder).allSatisfy { name in
            if depth == 0, isDirectory("\(folder)/\(name)") { return isOwnPartial("\(folder)/\(name)", depth: 1) }
            return isRegular("\(folder)/\(name)")
                && (name == "manifest.json" || name == campaignName
                    || OutputFormat.allCases.contains { name.hasSuffix("." + $0.fileExtension) } || name.contains(".tmp-"))
        }
    }

    /// Removes a folder and everything under it (symbolic links are removed, not followed).
    /// Only for folders this run created.
    static func removeTree(_ path: String) {
        var info = stat()
        guard lstat(FileIO.cPath(path), &info) == 0 else { return }
        if (info.st_mode & S_IFMT) == S_IFDIR {
            for name in names(in: path) { removeTree("\(path)/\(name)") }
            rmdir(FileIO.cPath(path))
        } else {
            unlink(FileIO.cPath(path))
        }
    }

    /// The entries of a folder, without `.` and `..` (empty when it cannot be read).
    static func names(in folder: String) -> [String] {
        guard let directory = opendir(FileIO.cPath(folder)) else { return [] }
        defer { closedir(directory) }
        var names: [String] = []
        while let entry = readdir(directory) {
            let name = withUnsafeBytes(of: entry.pointee.d_name) { raw in PathBytes.string(Array(raw.prefix { $0 != 0 })) }
            if name != "." && name != ".." { names.append(name) }
        }
        return names.sorted()
    }

    /// Whether `path` is a regular file, a folder, or anything (symbolic links not followed).
    static func isRegular(_ path: String) -> Bool {
        var info = stat()
        return lstat(FileIO.cPath(path), &info) == 0 && (info.st_mode & S_IFMT) == S_IFREG
    }

    static func isDirectory(_ path: String) -> Bool {
        var info = stat()
        return lstat(FileIO.cPath(path), &info) == 0 && (info.st_mode & S_IFMT) == S_IFDIR
    }

    static func exists(_ path: String) -> Bool {
        var info = stat()
        return lstat(FileIO.cPath(path), &info) == 0
    }

    private static func syncDirectory(_ path: String) throws(CLIError) {
        let descriptor = open(FileIO.cPath(path), O_RDONLY | O_DIRECTORY | O_CLOEXEC)
        guard descriptor >= 0 else {
            throw .failed(code: "io_error", message: "cannot open \(path): \(FileIO.errorText())")
        }
        fsync(descriptor)
        close(descriptor)
    }
}
