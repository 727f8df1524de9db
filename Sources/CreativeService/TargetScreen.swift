import CMicroHTTPD
#if canImport(Glibc)
import Glibc
#endif

/// The look at a request target that the URI-log callback takes before libmicrohttpd parses
/// its query and decodes its path: the checks that cannot wait for the access handler.
///
/// - libmicrohttpd stores every query parameter in the connection's memory pool (about 32 bytes
///   each, empty ones too). When the pool runs out while it parses them, 0.9.7x queues its own
///   431 and then overwrites the connection's state, so the client gets no answer at all: a 4 KB
///   query of `&&&&...` closed the connection silently. A target with more than
///   ``maxParameters`` parameters, or over ``RequestIntake/maxTargetBytes`` bytes, or with a
///   NUL in its path, has its query cut here (a NUL written after the `?`), so the library parses
///   none of it, and the access handler answers 400 or 414.
/// - A NUL in the path, raw or as `%00`, would end the path for every C string that carries it
///   (`/v1/slot%00/evil` reached `/v1/slot`): 400 `invalid_path`.
enum TargetScreen {
    /// Most query parameters a request may have; the routes take at most nine.
    static let maxParameters = 64

    /// What the screen found.
    struct Outcome {
        /// Bytes of the target as sent, NULs included (for the 414 check).
        var bytes: Int
        /// The answer the request gets at its headers, or nil.
        var problem: ServiceError?
    }

    /// Screens the target at `uri` (libmicrohttpd's read buffer, before it changes it) and cuts
    /// its query when the request is refused.
    static func screen(_ uri: UnsafePointer<CChar>) -> Outcome {
        let first = strlen(uri)
        var length = first
        var rawNUL = false
        if LibraryLayout.current.targetPrecedesVersion {
            // The target ends at the NUL libmicrohttpd wrote over the space before `HTTP/x.y`;
            // an earlier NUL was in the request (the library's C strings stop there, its query
            // search does not). Each step reads at most up to the next NUL, so never past the
            // request line, whose version the library checked before this callback.
            while !versionFollows(uri + length), length < maxScan {
                rawNUL = true
                length += 1 + strlen(uri + length + 1)
            }
        }
        let bytes = UnsafeBufferPointer(start: UnsafeRawPointer(uri).assumingMemoryBound(to: UInt8.self), count: length)
        let question = bytes.firstIndex(of: UInt8(ascii: "?"))
        let path = bytes[..<(question ?? length)]
        var problem: ServiceError?
        if rawNUL || containsPercentNUL(path) {
            problem = .invalidPath
        } else if length > RequestIntake.maxTargetBytes {
            problem = .uriTooLong(limit: RequestIntake.maxTargetBytes)
        } else if let question, parameterCount(bytes[(question + 1)...]) > maxParameters {
            problem = .tooManyParameters(limit: maxParameters)
        }
        if problem != nil, let question {
            // The library parses the query from the byte after the `?` up to the next NUL.
            UnsafeMutablePointer(mutating: uri)[question + 1] = 0
        }
        return Outcome(bytes: length, problem: problem)
    }

    /// Longest stretch scanned for raw NULs (far over any request line the pools hold).
    private static let maxScan = 1 << 20

    /// Whether the NUL at `end` is followed by `HTTP/d.d` and a NUL: the request line's version.
    /// Compares byte by byte and stops at the first difference, so it never reads past a NUL.
    private static func versionFollows(_ end: UnsafePointer<CChar>) -> Bool {
        let digits = UInt8(ascii: "0")...UInt8(ascii: "9")
        for (offset, expected) in "HTTP/#.#".utf8.enumerated() {
            let byte = UInt8(bitPattern: end[offset + 1])
            guard expected == UInt8(ascii: "#") ? digits.contains(byte) : byte == expected else { return false }
        }
        return end[9] == 0
    }

    /// Whether `path` holds `%00`.
    private static func containsPercentNUL(_ path: Slice<UnsafeBufferPointer<UInt8>>) -> Bool {
        var index = path.startIndex
        while index + 2 < path.endIndex {
            if path[index] == UInt8(ascii: "%"), path[index + 1] == UInt8(ascii: "0"), path[index + 2] == UInt8(ascii: "0") {
                return true
            }
            index += 1
        }
        return false
    }

    /// The parameters libmicrohttpd would store for a query: one per `&`-separated piece, up to
    /// the first NUL (where its parser stops).
    private static func parameterCount(_ query: Slice<UnsafeBufferPointer<UInt8>>) -> Int {
        let end = query.firstIndex(of: 0) ?? query.endIndex
        guard end > query.startIndex else { return 0 }
        return 1 + query[..<end].reduce(0) { $0 + ($1 == UInt8(ascii: "&") ? 1 : 0) }
    }

    /// The raw target's length as the access handler can measure it: from the target's first
    /// byte to the version string, which libmicrohttpd 0.9.7x keeps right after it. A request
    /// whose target was made to look as if it ended early (a NUL, then a fake `HTTP/1.1` and
    /// a NUL, inside the target) measures longer than the screen's scan: also `invalid_path`.
    static func hidesNUL(target: UnsafeRawPointer?, version: UnsafePointer<CChar>?, screened: Int) -> Bool {
        guard LibraryLayout.current.targetPrecedesVersion, let target, let version else { return false }
        let distance = target.distance(to: UnsafeRawPointer(version)) - 1
        return distance > screened && distance <= screened + maxScan
    }
}

/// What is known of the loaded libmicrohttpd's request-line layout.
struct LibraryLayout: Sendable {
    /// libmicrohttpd 0.9.74 to 0.9.77 (Debian 12 has 0.9.75): the request line stays in the read
    /// buffer as `target NUL HTTP/x.y NUL` when the URI-log callback runs, and a NUL inside the
    /// target is kept (its C strings stop there). 1.0 refuses a NUL in the request line itself,
    /// and lays the line out differently: there only the target's first C string is screened.
    let targetPrecedesVersion: Bool

    /// The loaded library's, read once (after ``creative_mhd_open()`` has loaded it).
    static let current: LibraryLayout = {
        guard let version = libraryVersion() else { return LibraryLayout(targetPrecedesVersion: false) }
        let parts = version.split(separator: ".").compactMap { Int($0) }
        let known = parts.count == 3 && parts[0] == 0 && parts[1] == 9 && (74...77).contains(parts[2])
        return LibraryLayout(targetPrecedesVersion: known)
    }()

    /// `MHD_get_version()` of the already loaded library, or nil.
    static func libraryVersion() -> String? {
        guard let handle = dlopen("libmicrohttpd.so.12", RTLD_NOW | RTLD_NOLOAD) else { return nil }
        defer { dlclose(handle) }
        guard let symbol = dlsym(handle, "MHD_get_version") else { return nil }
        typealias GetVersion = @convention(c) () -> UnsafePointer<CChar>?
        return unsafeBitCast(symbol, to: GetVersion.self)().map { String(cString: $0) }
    }
}
