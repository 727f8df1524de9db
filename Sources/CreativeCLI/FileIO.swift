import CreativeCore
#if canImport(Glibc)
import Glibc
#endif

/// Reading inputs with a size limit and writing outputs safely.
///
/// Paths are `String`s that may carry bytes that are not UTF-8 (``PathBytes``); every system
/// call gets the path's own bytes through ``cPath(_:)``.
public enum FileIO {
    /// Why a read failed.
    public enum ReadFailure: Error, Equatable {
        /// No such file.
        case notFound(String)
        /// A folder, FIFO, device or socket: only regular files (and `-`) are read.
        case notAFile(String)
        /// Larger than the limit; `size` is the file's size (for standard input, the bytes read:
        /// limit + 1), `head` its first bytes, enough to sniff the format and read the header.
        case tooLarge(size: Int, head: [UInt8])
        /// Another I/O error.
        case failed(String)

        /// Whether the file was there and readable but over the limit.
        public var isTooLarge: Bool {
            if case .tooLarge = self { return true }
            return false
        }
    }

    /// How much of a too-large file is kept for its header.
    static let headBytes = 65536

    /// The bytes of a path, NUL-terminated, for a system call.
    static func cPath(_ path: String) -> [CChar] {
        PathBytes.bytes(path).map { CChar(bitPattern: $0) } + [0]
    }

    static func errorText() -> String { String(cString: strerror(errno)) }

    /// Reads a file (or standard input for `-`), refusing more than `limit` bytes.
    ///
    /// Anything but a regular file is refused before it is read: it is checked before opening,
    /// opened without blocking (a FIFO with no writer would block `open` forever), and checked
    /// again on the open descriptor. Standard input is read to the end or to `limit + 1` bytes.
    public static func read(_ path: String, limit: Int) throws(ReadFailure) -> [UInt8] {
        if path == "-" { return try readAll(0, path: "standard input", limit: limit) }
        let (descriptor, size) = try openRegular(path)
        defer { close(descriptor) }
        if size > limit {
            throw .tooLarge(size: size, head: try readAll(descriptor, path: path, limit: min(headBytes, size),
                                                          keepingExtra: false))
        }
        return try readAll(descriptor, path: path, limit: limit, expected: size)
    }

    /// The first `count` bytes of a regular file (all of it when smaller) and its size, for a
    /// header probe that must not hold the whole file. Refuses files over `limit`.
    static func readHead(_ path: String, count: Int, limit: Int) throws(ReadFailure) -> (head: [UInt8], size: Int) {
        let (descriptor, size) = try openRegular(path)
        defer { close(descriptor) }
        let head = try readAll(descriptor, path: path, limit: min(count, size), keepingExtra: false)
        if size > limit { throw .tooLarge(size: size, head: head) }
        return (head, size)
    }

    /// Opens a regular file for reading without blocking; returns the descriptor and the size.
    private static func openRegular(_ path: String) throws(ReadFailure) -> (Int32, Int) {
        let name = cPath(path)
        var info = stat()
        guard stat(name, &info) == 0 else { throw openFailure(path) }
        try requireRegular(info, path)
        let descriptor = open(name, O_RDONLY | O_NONBLOCK | O_NOCTTY | O_CLOEXEC)
        guard descriptor >= 0 else { throw openFailure(path) }
        guard fstat(descriptor, &info) == 0 else {
            let reason = errorText()
            close(descriptor)
            throw .failed("\(path): \(reason)")
        }
        do { try requireRegular(info, path) } catch {
            close(descriptor)
            throw error
        }
        return (descriptor, Int(info.st_size))
    }

    private static func openFailure(_ path: String) -> ReadFailure {
        if errno == ENOENT || errno == ENOTDIR { return .notFound("\(path): no such file") }
        return .failed("\(path): \(errorText())")
    }

    private static func requireRegular(_ info: stat, _ path: String) throws(ReadFailure) {
        let kind: String
        switch info.st_mode & S_IFMT {
        case S_IFREG: return
        case S_IFDIR: kind = "a folder"
        case S_IFIFO: kind = "a FIFO"
        case S_IFCHR, S_IFBLK: kind = "a device"
        case S_IFSOCK: kind = "a socket"
        default: kind = "a special file"
        }
        throw .notAFile("\(path): is \(kind), not a file")
    }

    /// Reads a descriptor to its end. With `keepingExtra` (a stream of unknown length), reads at
    /// most `limit + 1` bytes and throws `tooLarge` when there are more than `limit`; without, it
    /// reads `limit` bytes at most and returns them. `expected`: the size `fstat` gave (0 when
    /// unknown): that many bytes and one more (the byte that tells a file grew) are read straight
    /// into the array, which is not grown and copied as it fills.
    private static func readAll(_ descriptor: Int32, path: String, limit: Int,
                                keepingExtra: Bool = true, expected: Int = 0) throws(ReadFailure) -> [UInt8] {
        let wanted = keepingExtra ? limit + 1 : limit
        var failure: ReadFailure?
        var ended = false
        var bytes = [UInt8](unsafeUninitializedCapacity: expected > 0 ? min(wanted, expected + 1) : 0) { buffer, filled in
            guard let base = buffer.baseAddress else { return }
            while filled < buffer.count {
                let count = Glibc.read(descriptor, base + filled, buffer.count - filled)
                if count < 0 {
                    if errno == EINTR { continue }
                    failure = .failed("\(path): \(errorText())")
                    return
                }
                if count == 0 {
                    ended = true
                    return
                }
                filled += count
            }
        }
        if let failure { throw failure }
        var chunk = [UInt8](repeating: 0, count: ended ? 0 : 65536)
        while !ended && bytes.count < wanted {
            let room = min(chunk.count, wanted - bytes.count)
            let count = chunk.withUnsafeMutableBytes { Glibc.read(descriptor, $0.baseAddress, room) }
            if count < 0 {
                if errno == EINTR { continue }
                throw .failed("\(path): \(errorText())")
            }
            if count == 0 { break }
            bytes.append(contentsOf: chunk[0..<count])
        }
        if keepingExtra && bytes.count > limit {
            throw .tooLarge(size: bytes.count, head: Array(bytes.prefix(headBytes)))
        }
        return bytes
    }

    /// Writes bytes to `path` atomically: a temporary file beside it, flushed, then renamed.
    /// A failure leaves no file behind (and the previous file, if any, untouched).
    public static func writeAtomically(_ bytes: [UInt8], to path: String) throws(ReadFailure) {
        let temporary = "\(path).tmp-\(getpid())-\(UInt32.random(in: 0...UInt32.max))"
        let descriptor = open(cPath(temporary), O_WRONLY | O_CREAT | O_EXCL | O_CLOEXEC, 0o644)
        guard descriptor >= 0 else {
            throw .failed("cannot write \(path): \(errorText())")
        }
        let written = Streams.write(descriptor, bytes)
        let synced = fsync(descriptor) == 0
        let closed = close(descriptor) == 0
        guard written, synced, closed, rename(cPath(temporary), cPath(path)) == 0 else {
            let reason = errorText()
            unlink(cPath(temporary))
            throw .failed("cannot write \(path): \(reason)")
        }
    }

    /// Creates a directory and its parents; succeeds when it already exists.
    public static func makeDirectory(_ path: String) throws(ReadFailure) {
        var built = path.hasPrefix("/") ? "" : "."
        for part in path.split(separator: "/") {
            built += "/" + part
            if mkdir(cPath(built), 0o755) != 0 && errno != EEXIST {
                throw .failed("cannot create \(path): \(errorText())")
            }
        }
        var info = stat()
        guard stat(cPath(path), &info) == 0, (info.st_mode & S_IFMT) == S_IFDIR else {
            throw .failed("\(path) is not a directory")
        }
    }

    /// The folder part and the last name of a path (`.` for a bare name, `/` at the root).
    /// Whether `path` names a folder (links followed).
    static func isDirectory(_ path: String) -> Bool {
        var info = stat()
        return stat(cPath(path), &info) == 0 && (info.st_mode & S_IFMT) == S_IFDIR
    }

    /// Whether `path` names a regular file (links followed).
    static func isRegularFile(_ path: String) -> Bool {
        var info = stat()
        return stat(cPath(path), &info) == 0 && (info.st_mode & S_IFMT) == S_IFREG
    }

    static func split(_ path: String) -> (parent: String, name: String) {
        guard let slash = path.lastIndex(of: "/") else { return (".", path) }
        let parent = String(path[..<slash])
        return (parent.isEmpty ? "/" : parent, String(path[path.index(after: slash)...]))
    }

    /// The canonical absolute path of an existing path (every link and `..` resolved), or nil.
    static func realPath(_ path: String) -> String? {
        guard let resolved = realpath(cPath(path), nil) else { return nil }
        defer { free(resolved) }
        return PathBytes.string(cString: resolved)
    }
}
