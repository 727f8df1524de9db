/// Comma-separated `key=value` trafficking parameters, split as the player SDK splits them
/// (companion ads, `003`): on every `,` into segments, and each segment at its **first** `=`,
/// so a URL's query string (`?a=b&c=d`) stays in its value. Keys are kept exactly as written
/// (case-sensitive, spaces included); nothing is trimmed.
///
/// Splitting is one pass over the UTF-8 bytes plus one dictionary insert per segment: linear in
/// the length of the text, whatever it holds (a million commas, one huge value).
public struct TraffickingParameters: Sendable {
    /// One well-formed segment: `key=value`, with its position among all segments (from 1).
    public struct Entry: Sendable, Equatable {
        /// The segment's position among all segments, from 1.
        public let segment: Int
        /// The text before the first `=`, exactly as written.
        public let key: String
        /// The text after the first `=` (may be empty, may hold more `=`).
        public let value: String
    }

    /// Why a segment is not `key=value`.
    public enum Malformation: Sendable, Equatable {
        /// Nothing between two commas, or a comma at the start or end.
        case empty
        /// No `=` in the segment.
        case noEquals
        /// The segment starts with `=`.
        case emptyKey
    }

    /// A segment that is not `key=value`: its position (from 1), its text and why.
    public struct MalformedSegment: Sendable, Equatable {
        /// The segment's position, from 1.
        public let segment: Int
        /// The segment's text.
        public let text: String
        /// What is wrong with it.
        public let reason: Malformation
    }

    /// A key given more than once, with the positions of every occurrence.
    public struct Duplicate: Sendable, Equatable {
        /// The key.
        public let key: String
        /// The positions of its segments, from 1.
        public let segments: [Int]
    }

    /// The well-formed segments, in the order given (duplicates included).
    public private(set) var entries: [Entry] = []
    /// The segments that are not `key=value`, in order.
    public private(set) var malformed: [MalformedSegment] = []
    /// Keys given twice or more, in the order of their first occurrence.
    public private(set) var duplicates: [Duplicate] = []
    /// How many segments the text has.
    public private(set) var segmentCount = 0
    /// The first entry of each key.
    private var firstEntry: [String: Int] = [:]

    /// Splits `text`; never fails (problems are in ``malformed`` and ``duplicates``).
    public init(_ text: String) {
        var occurrences: [String: [Int]] = [:]
        var duplicateOrder: [String] = []
        let utf8 = text.utf8
        var start = utf8.startIndex
        while true {
            let end = utf8[start...].firstIndex(of: UInt8(ascii: ",")) ?? utf8.endIndex
            segmentCount += 1
            let segment = utf8[start..<end]
            if let equals = segment.firstIndex(of: UInt8(ascii: "=")) {
                if equals == segment.startIndex {
                    malformed.append(MalformedSegment(segment: segmentCount, text: String(Substring(segment)),
                                                      reason: .emptyKey))
                } else {
                    let key = String(Substring(utf8[segment.startIndex..<equals]))
                    let value = String(Substring(utf8[utf8.index(after: equals)..<segment.endIndex]))
                    if occurrences[key] == nil {
                        firstEntry[key] = entries.count
                        occurrences[key] = [segmentCount]
                    } else {
                        if occurrences[key]?.count == 1 { duplicateOrder.append(key) }
                        occurrences[key]?.append(segmentCount)
                    }
                    entries.append(Entry(segment: segmentCount, key: key, value: value))
                }
            } else {
                malformed.append(MalformedSegment(segment: segmentCount, text: String(Substring(segment)),
                                                  reason: segment.isEmpty ? .empty : .noEquals))
            }
            guard end < utf8.endIndex else { break }
            start = utf8.index(after: end)
        }
        duplicates = duplicateOrder.map { Duplicate(key: $0, segments: occurrences[$0] ?? []) }
    }

    /// The value of the first occurrence of `key`, or nil when it is not given.
    public func value(_ key: String) -> String? { firstEntry[key].map { entries[$0].value } }

    /// The first entry of `key`, or nil.
    public func entry(_ key: String) -> Entry? { firstEntry[key].map { entries[$0] } }

    /// True when `key` is given (with any value, even empty).
    public func has(_ key: String) -> Bool { firstEntry[key] != nil }

    /// The entries whose key is not one of `known`, first occurrences only, in order.
    public func entries(notIn known: Set<String>) -> [Entry] {
        entries.filter { !known.contains($0.key) && firstEntry[$0.key].map { entries[$0].segment } == $0.segment }
    }

    /// A `$`-separated list (`carousel_images`), every entry kept, blank ones included.
    public static func list(_ value: String) -> [String] {
        value.split(separator: "$", omittingEmptySubsequences: false).map(String.init)
    }
}

/// Parameter text as a caller hands it over (a command-line argument, a file, standard input,
/// an HTTP body), checked before it is split: at most ``maxBytes``, UTF-8, no NUL. One line
/// break at the very end (a file's last line) is dropped; every other byte is kept.
public enum TraffickingInput {
    /// The largest text read: 64 KiB. A carousel of 20 images with 20 tap destinations of 1,000
    /// characters each is about 41 KB; the CLI and `POST /v1/companion/lint` share the limit.
    public static let maxBytes = 65_536

    /// Why bytes are not parameter text.
    public enum Problem: Sendable, Equatable {
        /// Over ``maxBytes``: `bytes` is the size (or what was read of it).
        case tooLarge(bytes: Int)
        /// Nothing, or only a line break.
        case empty
        /// A NUL byte at this offset (from 0).
        case nul(offset: Int)
        /// A byte that is not UTF-8 at this offset (from 0).
        case invalidUTF8(offset: Int)
    }

    /// What reading bytes as parameter text gives: the text, or why it is not text.
    public enum Reading: Sendable, Equatable {
        /// The text, without its final line break.
        case text(String)
        /// Not parameter text, and why.
        case problem(Problem)
    }

    /// The text of `bytes`, or the first problem found (size first, so hostile input is refused
    /// before any scan).
    public static func read(_ bytes: [UInt8]) -> Reading {
        guard bytes.count <= maxBytes else { return .problem(.tooLarge(bytes: bytes.count)) }
        var body = bytes[...]
        if body.last == UInt8(ascii: "\n") {
            body = body.dropLast()
            if body.last == UInt8(ascii: "\r") { body = body.dropLast() }
        }
        guard !body.isEmpty else { return .problem(.empty) }
        if let offset = body.firstIndex(of: 0) { return .problem(.nul(offset: offset)) }
        if let offset = PathBytes.firstInvalidUTF8(body) { return .problem(.invalidUTF8(offset: offset)) }
        return .text(String(decoding: body, as: UTF8.self))
    }
}
