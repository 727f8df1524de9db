#if canImport(Glibc)
import Glibc
#endif

/// Reading inputs with a size limit and writing outputs atomically (temp file + rename).
public enum FileIO {
    /// Why a read failed.
    public enum ReadFailure: Error, Equatable {
        /// No such file (or not a regular file we may read).
        case notFound(String)
        /// Larger than the limit; `size` is the file's size (or what was seen, at least limit + 1),
        /// `head` its first bytes, enough to sniff the format and read the header.
        case tooLarge(size: Int, head: [UInt8])
        /// Another I/O error.
        case failed(String)
    }

    /// How much of a too-large file is kept for its header.
    static let headBytes = 65536

    /// Reads a file (or standard input for `-`), refusing more than `limit` bytes.
    public static func read(_ path: String, limit: Int) throws(ReadFailure) -> [UInt8] {
        let descriptor: Int32
        if path == "-" {
            descriptor = 0
        } else {
            descriptor = open(path, O_RDONLY | O_CLOEXEC)
            guard descriptor >= 0 else {
                let reason = String(cString: strerror(errno))
                if errno == ENOENT || errno == ENOTDIR { throw .notFound("\(path): no such file") }
                throw .failed("\(path): \(reason)")
            }
            var info = stat()
            if fstat(descriptor, &info) == 0 {
                if (info.st_mode & S_IFMT) == S_IFDIR {
                    close(descriptor)
                    throw .notFound("\(path): is a directory, not a file")
                }
                if (info.st_mode & S_IFMT) == S_IFREG && Int(info.st_size) > limit {
                    var head = [UInt8](repeating: 0, count: min(headBytes, Int(info.st_size)))
                    let count = head.withUnsafeMutableBytes { pread(descriptor, $0.baseAddress, $0.count, 0) }
                    close(descriptor)
                    throw .tooLarge(size: Int(info.st_size), head: Array(head.prefix(max(0, count))))
                }
            }
        }
        defer { if descriptor != 0 { close(descriptor) } }
        var bytes: [UInt8] = []
        var chunk = [UInt8](repeating: 0, count: 65536)
        while true {
            let count = chunk.withUnsafeMutableBytes { Glibc.read(descriptor, $0.baseAddress, $0.count) }
            if count < 0 {
                if errno == EINTR { continue }
                throw .failed("\(path): \(String(cString: strerror(errno)))")
            }
            if count == 0 { break }
            bytes.append(contentsOf: chunk[0..<count])
            if bytes.count > limit { throw .tooLarge(size: bytes.count, head: Array(bytes.prefix(headBytes))) }
        }
        return bytes
    }

    /// Writes bytes to `path` atomically: a temporary file beside it, flushed, then renamed.
    /// A failure leaves no file behind (and the previous file, if any, untouched).
    public static func writeAtomically(_ bytes: [UInt8], to path: String) throws(ReadFailure) {
        let temporary = "\(path).tmp-\(getpid())-\(UInt32.random(in: 0...UInt32.max))"
        let descriptor = open(temporary, O_WRONLY | O_CREAT | O_EXCL | O_CLOEXEC, 0o644)
        guard descriptor >= 0 else {
            throw .failed("cannot write \(path): \(String(cString: strerror(errno)))")
        }
        let written = Streams.write(descriptor, bytes)
        let synced = fsync(descriptor) == 0
        let closed = close(descriptor) == 0
        guard written, synced, closed, rename(temporary, path) == 0 else {
            let reason = String(cString: strerror(errno))
            unlink(temporary)
            throw .failed("cannot write \(path): \(reason)")
        }
    }

    /// Creates a directory and its parents; succeeds when it already exists.
    public static func makeDirectory(_ path: String) throws(ReadFailure) {
        var built = path.hasPrefix("/") ? "" : "."
        for part in path.split(separator: "/") {
            built += "/" + part
            if mkdir(built, 0o755) != 0 && errno != EEXIST {
                throw .failed("cannot create \(path): \(String(cString: strerror(errno)))")
            }
        }
        var info = stat()
        guard stat(path, &info) == 0, (info.st_mode & S_IFMT) == S_IFDIR else {
            throw .failed("\(path) is not a directory")
        }
    }
}
