/// Upper bounds on what gumbo can build from HTML or SVG bytes, counted before it runs (it
/// parses in one C call that cannot be stopped): start tags, the attributes of one element and
/// the attributes of the whole file.
///
/// The attribute counts follow the tag states of the HTML tokenizer (tag name, before, in and
/// after an attribute name, the three kinds of attribute value, after a quoted value, self-closing),
/// byte by byte, as gumbo 0.10.1 runs them. Which bytes the tokenizer reads as tags depends on the
/// tree builder (comments, `<script>` and `<style>` text, SVG, ...), which a pre-scan cannot know,
/// so the census follows every reading at once: a tag may start at any `<` and letter or `</` and
/// letter, also inside text or inside another tag's value, and each tag state keeps the largest
/// counts of the readings that reach it. Readings that reach the same state at the same byte go on
/// alike, so the set stays small and the scan linear, and the counts are never below gumbo's.
/// Text read as tags only adds to them: a large inline script adds a few per kilobyte.
public struct MarkupCensus: Sendable, Equatable {
    /// `<` followed by an ASCII letter, anywhere (the start tags, and more).
    public private(set) var startTags = 0
    /// The most attributes one element can get. The attributes of every `<html>` tag count
    /// together, and so do those of every `<body>` tag: gumbo merges them into one element,
    /// checking each against those it has (time quadratic in their number, as for one tag).
    public private(set) var attributesPerElement = 0
    /// The most attributes all the tags of the file can have together.
    public private(set) var attributes = 0

    /// Nothing counted yet.
    init() {}

    /// Counts `bytes` (one linear pass).
    public init(_ bytes: [UInt8]) {
        var scan = Scan()
        for index in bytes.indices {
            let starts = bytes[index] == UInt8(ascii: "<") && index + 1 < bytes.count
                && (Self.isLetter(bytes[index + 1])
                    || (bytes[index + 1] == UInt8(ascii: "/") && index + 2 < bytes.count && Self.isLetter(bytes[index + 2])))
            scan.step(bytes[index], opensTag: starts)
            if starts, bytes[index + 1] != UInt8(ascii: "/") { startTags += 1 }
        }
        attributesPerElement = scan.mostInOneElement
        attributes = scan.mostInFile
    }

    /// The census of several documents parsed one after another (a file and the `srcdoc`
    /// documents in it): the counts added.
    mutating func add(_ other: MarkupCensus) {
        startTags += other.startTags
        attributesPerElement = max(attributesPerElement, other.attributesPerElement)
        attributes += other.attributes
    }

    private static func isLetter(_ byte: UInt8) -> Bool { (byte | 0x20) >= 0x61 && (byte | 0x20) <= 0x7A }
}

/// The tag states of the HTML tokenizer, and the largest counts of the readings in each.
private struct Scan {
    enum State: Int, CaseIterable {
        /// Just after `<` or `</` (the letter that follows is read next).
        case tagOpen
        case tagName, beforeName, name, afterName, beforeValue, doubleQuoted, singleQuoted, unquoted,
             afterQuoted, selfClosing
    }

    /// The largest counts of the readings in one state: attributes of the tag being read (with
    /// those of the earlier `<html>` or `<body>` tags it merges with) and of the file up to here.
    struct Counts {
        var element = 0
        var file = 0
        /// In the tag name: how much of `html` or `body` it has matched (nil when it is neither).
        var name: MergedName? = .start
        /// The tag merges into the `<html>` element, or into the `<body>` element (both when two
        /// readings met).
        var intoHTML = false, intoBody = false
    }

    /// The part of `html` or `body` a tag name has matched so far.
    enum MergedName: Equatable {
        case start
        case html(Int), body(Int)

        func adding(_ byte: UInt8) -> MergedName? {
            let lower = byte >= 0x41 && byte <= 0x5A ? byte | 0x20 : byte
            let html = Array("html".utf8), body = Array("body".utf8)
            switch self {
            case .start: return lower == html[0] ? .html(1) : lower == body[0] ? .body(1) : nil
            case .html(let count): return count < 4 && html[count] == lower ? .html(count + 1) : nil
            case .body(let count): return count < 4 && body[count] == lower ? .body(count + 1) : nil
            }
        }
    }

    private var counts = [Counts?](repeating: nil, count: State.allCases.count)
    private var next = [Counts?](repeating: nil, count: State.allCases.count)
    /// The file's count of the readings that are in text (between tags).
    private var textFile = 0
    /// Attributes of the `<html>` and of the `<body>` tags so far (most over the readings).
    private var htmlAttributes = 0, bodyAttributes = 0
    private(set) var mostInOneElement = 0
    private(set) var mostInFile = 0

    mutating func step(_ byte: UInt8, opensTag: Bool) {
        for index in next.indices { next[index] = nil }
        for state in State.allCases {
            guard let current = counts[state.rawValue] else { continue }
            if let (target, counts) = advance(state, current, byte) { Self.merge(counts, into: &next[target.rawValue]) }
        }
        if opensTag { Self.merge(Counts(file: textFile), into: &next[State.tagOpen.rawValue]) }
        swap(&counts, &next)
    }

    private static func merge(_ counts: Counts, into slot: inout Counts?) {
        guard var kept = slot else { slot = counts; return }
        kept.element = max(kept.element, counts.element)
        kept.file = max(kept.file, counts.file)
        // Two names read at once are suffixes of each other: at most one can still be html or body.
        kept.name = kept.name ?? counts.name
        kept.intoHTML = kept.intoHTML || counts.intoHTML
        kept.intoBody = kept.intoBody || counts.intoBody
        slot = kept
    }

    private static func isSpace(_ byte: UInt8) -> Bool {
        byte == 0x20 || byte == 0x09 || byte == 0x0A || byte == 0x0C || byte == 0x0D
    }

    /// One byte in one state: the state after it and the counts, or nil when the tag ends there.
    private mutating func advance(_ state: State, _ counts: Counts, _ byte: UInt8) -> (State, Counts)? {
        var counts = counts
        var state = state
        while true {
            switch state {
            case .tagOpen:
                if byte == UInt8(ascii: "/") { return (.tagOpen, counts) }
                counts.name = MergedName.start.adding(byte)
                return (.tagName, counts)
            case .tagName:
                guard Self.isSpace(byte) || byte == UInt8(ascii: "/") || byte == UInt8(ascii: ">") else {
                    counts.name = counts.name?.adding(byte)
                    return (.tagName, counts)
                }
                counts.intoHTML = counts.name == .html(4)
                counts.intoBody = counts.name == .body(4)
                counts.element = max(counts.intoHTML ? htmlAttributes : 0, counts.intoBody ? bodyAttributes : 0)
                counts.name = nil
                if byte == UInt8(ascii: ">") { return end(counts) }
                return (Self.isSpace(byte) ? .beforeName : .selfClosing, counts)
            case .beforeName, .afterName:
                if Self.isSpace(byte) { return (state, counts) }
                if byte == UInt8(ascii: "/") { return (.selfClosing, counts) }
                if byte == UInt8(ascii: ">") { return end(counts) }
                if byte == UInt8(ascii: "="), state == .afterName { return (.beforeValue, counts) }
                return (.name, newAttribute(counts))
            case .name:
                if Self.isSpace(byte) { return (.afterName, counts) }
                if byte == UInt8(ascii: "/") { return (.selfClosing, counts) }
                if byte == UInt8(ascii: "=") { return (.beforeValue, counts) }
                if byte == UInt8(ascii: ">") { return end(counts) }
                return (.name, counts)
            case .beforeValue:
                if Self.isSpace(byte) { return (.beforeValue, counts) }
                if byte == UInt8(ascii: "\"") { return (.doubleQuoted, counts) }
                if byte == UInt8(ascii: "'") { return (.singleQuoted, counts) }
                if byte == UInt8(ascii: ">") { return end(counts) }
                return (.unquoted, counts)
            case .doubleQuoted:
                return (byte == UInt8(ascii: "\"") ? .afterQuoted : .doubleQuoted, counts)
            case .singleQuoted:
                return (byte == UInt8(ascii: "'") ? .afterQuoted : .singleQuoted, counts)
            case .unquoted:
                if Self.isSpace(byte) { return (.beforeName, counts) }
                if byte == UInt8(ascii: ">") { return end(counts) }
                return (.unquoted, counts)
            case .afterQuoted, .selfClosing:
                if state == .afterQuoted, Self.isSpace(byte) { return (.beforeName, counts) }
                if state == .afterQuoted, byte == UInt8(ascii: "/") { return (.selfClosing, counts) }
                if byte == UInt8(ascii: ">") { return end(counts) }
                // Read again as the start of an attribute name.
                state = .beforeName
            }
        }
    }

    private mutating func newAttribute(_ counts: Counts) -> Counts {
        var counts = counts
        counts.element += 1
        counts.file += 1
        if counts.intoHTML { htmlAttributes = max(htmlAttributes, counts.element) }
        if counts.intoBody { bodyAttributes = max(bodyAttributes, counts.element) }
        mostInOneElement = max(mostInOneElement, counts.element)
        mostInFile = max(mostInFile, counts.file)
        return counts
    }

    /// The tag ends (`>`): its reading goes back to text.
    private mutating func end(_ counts: Counts) -> (State, Counts)? {
        textFile = max(textFile, counts.file)
        return nil
    }
}
