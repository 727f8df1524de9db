import CreativeCore
#if canImport(Glibc)
import Glibc
#endif

/// Writing an output where the user points, without replacing what is not a regular file.
extension FileIO {
    /// Follows symbolic links at the end of `path` (not in its folders, which the kernel
    /// resolves) until a path that is no link or does not exist. A link chain ending in
    /// `/proc/self/fd/N` or `/dev/fd/N` (as `/dev/stdout` does) gives that open descriptor.
    static func followLinks(_ path: String) throws(ReadFailure) -> LinkEnd {
        var current = path
        for _ in 0..<40 {
            if let descriptor = openDescriptor(named: current) { return .descriptor(descriptor) }
            var info = stat()
            guard lstat(cPath(current), &info) == 0 else {
                if errno == ENOENT { return .path(current, nil) }
                throw .failed("\(path): \(errorText())")
            }
            guard (info.st_mode & S_IFMT) == S_IFLNK else { return .path(current, info) }
            var buffer = [CChar](repeating: 0, count: Int(PATH_MAX) + 1)
            let length = readlink(cPath(current), &buffer, buffer.count - 1)
            guard length > 0 else { throw .failed("\(path): \(errorText())") }
            let target = PathBytes.string(buffer[0..<length].map { UInt8(bitPattern: $0) })
            current = target.hasPrefix("/") ? target : split(current).parent + "/" + target
        }
        throw .failed("\(path): too many levels of symbolic links")
    }

    /// Whether writing `path` writes a terminal: `-` when standard output is one, or a path
    /// ending (through links) at an open descriptor or a character device that is a terminal.
    static func isTerminal(_ path: String) -> Bool {
        if path == "-" { return isatty(1) == 1 }
        switch try? followLinks(path) {
        case .descriptor(let descriptor)?:
            return isatty(descriptor) == 1
        case .path(let target, let info?)? where (info.st_mode & S_IFMT) == S_IFCHR:
            let descriptor = open(cPath(target), O_WRONLY | O_NOCTTY | O_NONBLOCK | O_CLOEXEC)
            guard descriptor >= 0 else { return false }
            defer { close(descriptor) }
            return isatty(descriptor) == 1
        default:
            return false
        }
    }

    /// Where a chain of links ends.
    enum LinkEnd {
        /// A path that is not a link, with its `lstat` (nil when it does not exist).
        case path(String, stat?)
        /// An open descriptor of this process (`/dev/stdout`, `/dev/fd/3`, `/proc/self/fd/1`).
        case descriptor(Int32)
    }

    /// The descriptor a `/dev/fd/N`, `/proc/self/fd/N` or `/proc/PID/fd/N` (this process) names,
    /// when it is open.
    private static func openDescriptor(named path: String) -> Int32? {
        let prefixes = ["/dev/fd/", "/proc/self/fd/", "/proc/thread-self/fd/", "/proc/\(getpid())/fd/"]
        guard let prefix = prefixes.first(where: { path.hasPrefix($0) }),
              let number = Int32(path.dropFirst(prefix.count)), number >= 0,
              fcntl(number, F_GETFD) != -1 else { return nil }
        return number
    }

    /// Writes an output file the way its kind needs. A regular file (also one reached through
    /// symbolic links, which stay in place) or a path that does not exist yet is replaced
    /// atomically: temporary file beside it, then rename. A character device (`/dev/null`) or
    /// a FIFO is written directly, and so is an open descriptor (`/dev/stdout`, `/dev/fd/N`):
    /// renaming over them would replace the node with a regular file. Folders, sockets and
    /// block devices are refused.
    /// - Returns: the descriptor written when the output was an open descriptor of this process.
    @discardableResult
    static func writeOutput(_ bytes: [UInt8], to path: String) throws(ReadFailure) -> Int32? {
        switch try followLinks(path) {
        case .descriptor(let descriptor):
            guard Streams.write(descriptor, bytes) else { throw .failed("cannot write \(path): \(errorText())") }
            return descriptor
        case .path(let target, let info):
            switch (info?.st_mode ?? S_IFREG) & S_IFMT {
            case S_IFREG:
                try writeAtomically(bytes, to: target)
            case S_IFCHR, S_IFIFO:
                try writeDirectly(bytes, to: target, named: path)
            case S_IFDIR:
                throw .failed("cannot write \(path): it is a folder")
            default:
                throw .failed("cannot write \(path): not a regular file, FIFO or character device")
            }
            return nil
        }
    }

    /// Opens an existing FIFO or character device and writes to it (a FIFO waits for a reader).
    private static func writeDirectly(_ bytes: [UInt8], to target: String, named path: String) throws(ReadFailure) {
        let descriptor = open(cPath(target), O_WRONLY | O_NOCTTY | O_CLOEXEC)
        guard descriptor >= 0 else { throw .failed("cannot write \(path): \(errorText())") }
        let written = Streams.write(descriptor, bytes)
        let reason = errorText()
        let closed = close(descriptor) == 0
        guard written, closed else { throw .failed("cannot write \(path): \(written ? errorText() : reason)") }
    }
}

/// The name a render is written under, and the rules that keep it from writing anything else.
///
/// A render writes the path the user names (`--output`), or its default name when none is
/// given, and nothing else: `--format auto` with a `.png`, `.jpg`, `.jpeg`, `.webp` or `.avif` name
/// chooses among that format's encodings instead of renaming the file, and no render replaces
/// one of its own inputs.
enum OutputFile {
    /// The format an output name's ending names (`.png`, `.jpg`, `.jpeg`, `.webp`, `.avif`, in any case),
    /// or nil: another ending, none (`-`, `/dev/stdout`, `out.d/banner`).
    static func format(named path: String) -> OutputFormat? { OutputFormat(fileName: path) }

    /// `given` (`--output`) as it is, or `defaultStem.EXT` for the written format; inside `given`
    /// when it names a folder (one that exists, links followed, or a name ending in `/`), as `cp`
    /// does: `--output out` of an existing `out/` writes `out/banner-390x61@3x.png`.
    static func path(_ given: String?, defaultStem: String, format: OutputFormat) -> String {
        let name = "\(defaultStem).\(format.fileExtension)"
        guard let given else { return name }
        guard given != "-", isFolder(given) else { return given }
        return (given.hasSuffix("/") ? given : given + "/") + name
    }

    /// Whether `path` names a folder: one that exists (links followed), or a name ending in `/`.
    static func isFolder(_ path: String) -> Bool {
        if path.hasSuffix("/") { return true }
        var info = stat()
        return stat(FileIO.cPath(path), &info) == 0 && (info.st_mode & S_IFMT) == S_IFDIR
    }

    /// Creates the folders above `path` that are missing (`render --output new/dir/o.png`), as
    /// `process --output-dir` does; called once the render is made, so a failed render creates
    /// nothing.
    /// - Throws: `io_error` when a folder cannot be created.
    static func makeParentFolders(of path: String) throws(CLIError) {
        guard path != "-", path.contains("/") else { return }
        let parent = FileIO.split(path).parent
        var info = stat()
        guard stat(FileIO.cPath(parent), &info) != 0, errno == ENOENT else { return }
        do { try FileIO.makeDirectory(parent) } catch {
            if case .failed(let message) = error { throw .failed(code: "io_error", message: message) }
            throw .failed(code: "io_error", message: "cannot create \(parent)")
        }
    }

    /// Refuses binary output to a terminal, as curl does: `-` (or `/dev/stdout`, `/dev/tty`, a
    /// link to one) when it is a terminal. A pipe or a file is written.
    /// - Throws: ``CLIError/usage(_:)``.
    static func refuseTerminal(_ output: String) throws(CLIError) {
        guard FileIO.isTerminal(output) else { return }
        let target = output == "-" ? "standard output" : output
        throw .usage("\(target) is a terminal and the render is binary; redirect it ('> o.png'), pipe it, or name a "
                     + "file with --output")
    }

    /// Refuses an output that is one of the inputs: the same regular file (device and inode),
    /// reached by any name, link or descriptor (`-` is standard output or input). An output that
    /// does not exist yet, or is no regular file (a terminal, a pipe, `/dev/null`), is no input.
    /// - Parameter writer: who writes, for the message (`a render`, `fix`).
    /// - Throws: `output_is_input`.
    static func refuseInput(_ output: String, inputs: [String], writer: String = "a render") throws(CLIError) {
        guard let written = FileIO.identity(of: output, descriptor: 1) else { return }
        for input in inputs where FileIO.identity(of: input, descriptor: 0) == written {
            let source = input == "-" ? "standard input" : "the input \(input)"
            let target = output == "-" ? "standard output" : output
            throw .failed(code: "output_is_input", message: "\(target) is \(source): \(writer) never replaces its "
                          + "source; name another --output")
        }
    }
}

extension FileIO {
    /// The device and inode of the regular file a path ends at (links followed), or of the
    /// descriptor that `-` stands for; nil when there is none or it is not a regular file.
    static func identity(of path: String, descriptor: Int32) -> FileIdentity? {
        var info = stat()
        guard (path == "-" ? fstat(descriptor, &info) : stat(cPath(path), &info)) == 0,
              (info.st_mode & S_IFMT) == S_IFREG else { return nil }
        return FileIdentity(device: UInt64(info.st_dev), inode: UInt64(info.st_ino))
    }

    /// A file whatever its name: its device and inode.
    struct FileIdentity: Equatable {
        let device: UInt64
        let inode: UInt64
    }
}
