/// Upper bounds on what gumbo can build from HTML or SVG bytes, counted before it runs (it
/// parses in one C call that cannot be stopped): tags, the attributes of one element and of the
/// whole file, and the formatting elements the tree builder may copy.
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
    /// `</` followed by an ASCII letter, anywhere.
    public private(set) var endTags = 0
    /// The most attributes one element can get. The attributes of every `<html>` tag count
    /// together, and so do those of every `<body>` tag: gumbo merges them into one element,
    /// checking each against those it has (time quadratic in their number, as for one tag).
    public private(set) var attributesPerElement = 0
    /// The most attributes all the tags of the file can have together.
    public private(set) var attributes = 0
    /// Start tags of formatting elements (`a`, `b`, `big`, `code`, `em`, `font`, `i`, `nobr`,
    /// `s`, `small`, `strike`, `strong`, `tt`, `u`), each with its attributes. The tree builder
    /// re-creates the formatting elements left open, with their attributes, wherever text or a
    /// tag follows an element that closed them, so it may copy these once for every tag.
    public private(set) var formattingWeight = 0

    /// At most how many elements and attributes the tree builder may copy when it re-creates
    /// formatting elements: ``formattingWeight`` times the tags.
    public var formattingCopies: Int {
        let (copies, overflow) = formattingWeight.multipliedReportingOverflow(by: startTags + endTags)
        return overflow ? .max : copies
    }

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
            if starts { if bytes[index + 1] == UInt8(ascii: "/") { endTags += 1 } else { startTags += 1 } }
        }
        attributesPerElement = scan.mostInOneElement
        attributes = scan.mostInFile
        formattingWeight = scan.formattingWeight
    }

    /// The census of several documents parsed one after another (a file and the `srcdoc`
    /// documents in it): the counts added.
    mutating func add(_ other: MarkupCensus) {
        startTags += other.startTags
        endTags += other.endTags
        formattingWeight += other.formattingWeight
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
        case beforeName, name, afterName, beforeValue, doubleQuoted, singleQuoted, unquoted, afterQuoted, selfClosing
    }

    /// The largest counts of the readings in one state: attributes of the tag being read (with
    /// those of the earlier `<html>` or `<body>` tags it merges with) and of the file up to here,
    /// and what the tag is (several things when readings met).
    struct Counts {
        var element = 0
        var file = 0
        var endTag = false
        var intoHTML = false, intoBody = false, formatting = false
    }

    /// Readings in the tag name state, kept apart by the name read so far while it can still be
    /// one the tree builder treats apart (``TagName``); the others share one slot.
    private var naming: [(name: TagName, counts: Counts)] = []
    private var nextNaming: [(name: TagName, counts: Counts)] = []
    private var counts = [Counts?](repeating: nil, count: State.allCases.count)
    private var next = [Counts?](repeating: nil, count: State.allCases.count)
    /// The file's count of the readings that are in text (between tags).
    private var textFile = 0
    /// Attributes of the `<html>` and of the `<body>` tags so far (most over the readings).
    private var htmlAttributes = 0, bodyAttributes = 0
    private(set) var mostInOneElement = 0
    private(set) var mostInFile = 0
    /// Formatting start tags and their attributes, over every reading.
    private(set) var formattingWeight = 0

    mutating func step(_ byte: UInt8, opensTag: Bool) {
        for index in next.indices { next[index] = nil }
        nextNaming.removeAll(keepingCapacity: true)
        for state in State.allCases {
            guard let current = counts[state.rawValue] else { continue }
            advance(state, current, byte)
        }
        for (name, current) in naming { readName(name, current, byte) }
        if opensTag { Self.merge(Counts(file: textFile), into: &next[State.tagOpen.rawValue]) }
        swap(&counts, &next)
        swap(&naming, &nextNaming)
    }

    private static func merge(_ counts: Counts, into slot: inout Counts?) {
        guard var kept = slot else { slot = counts; return }
        kept.element = max(kept.element, counts.element)
        kept.file = max(kept.file, counts.file)
        kept.endTag = kept.endTag && counts.endTag
        kept.intoHTML = kept.intoHTML || counts.intoHTML
        kept.intoBody = kept.intoBody || counts.intoBody
        kept.formatting = kept.formatting || counts.formatting
        slot = kept
    }

    private mutating func go(_ state: State, _ counts: Counts) { Self.merge(counts, into: &next[state.rawValue]) }

    private mutating func goNaming(_ name: TagName, _ counts: Counts) {
        if let index = nextNaming.firstIndex(where: { $0.name == name }) {
            var slot: Counts? = nextNaming[index].counts
            Self.merge(counts, into: &slot)
            if let slot { nextNaming[index].counts = slot }
        } else {
            nextNaming.append((name, counts))
        }
    }

    private static func isSpace(_ byte: UInt8) -> Bool {
        byte == 0x20 || byte == 0x09 || byte == 0x0A || byte == 0x0C || byte == 0x0D
    }

    /// One byte of a tag name: the name goes on, or ends and says what the tag is.
    private mutating func readName(_ name: TagName, _ counts: Counts, _ byte: UInt8) {
        guard Self.isSpace(byte) || byte == UInt8(ascii: "/") || byte == UInt8(ascii: ">") else {
            return goNaming(name.adding(byte), counts)
        }
        var counts = counts
        let kind = name.kind
        counts.intoHTML = !counts.endTag && kind == .html
        counts.intoBody = !counts.endTag && kind == .body
        counts.formatting = !counts.endTag && kind == .formatting
        if counts.formatting { formattingWeight += 1 }
        counts.element = max(counts.intoHTML ? htmlAttributes : 0, counts.intoBody ? bodyAttributes : 0)
        if byte == UInt8(ascii: ">") { return end(counts) }
        go(Self.isSpace(byte) ? .beforeName : .selfClosing, counts)
    }

    /// One byte in one state (past the tag name): the reading goes on, or ends with its tag.
    private mutating func advance(_ state: State, _ counts: Counts, _ byte: UInt8) {
        var state = state
        while true {
            switch state {
            case .tagOpen:
                if byte == UInt8(ascii: "/") {
                    var counts = counts
                    counts.endTag = true
                    return go(.tagOpen, counts)
                }
                return goNaming(TagName().adding(byte), counts)
            case .beforeName, .afterName:
                if Self.isSpace(byte) { return go(state, counts) }
                if byte == UInt8(ascii: "/") { return go(.selfClosing, counts) }
                if byte == UInt8(ascii: ">") { return end(counts) }
                if byte == UInt8(ascii: "="), state == .afterName { return go(.beforeValue, counts) }
                return go(.name, newAttribute(counts))
            case .name:
                if Self.isSpace(byte) { return go(.afterName, counts) }
                if byte == UInt8(ascii: "/") { return go(.selfClosing, counts) }
                if byte == UInt8(ascii: "=") { return go(.beforeValue, counts) }
                if byte == UInt8(ascii: ">") { return end(counts) }
                return go(.name, counts)
            case .beforeValue:
                if Self.isSpace(byte) { return go(.beforeValue, counts) }
                if byte == UInt8(ascii: "\"") { return go(.doubleQuoted, counts) }
                if byte == UInt8(ascii: "'") { return go(.singleQuoted, counts) }
                if byte == UInt8(ascii: ">") { return end(counts) }
                return go(.unquoted, counts)
            case .doubleQuoted:
                return go(byte == UInt8(ascii: "\"") ? .afterQuoted : .doubleQuoted, counts)
            case .singleQuoted:
                return go(byte == UInt8(ascii: "'") ? .afterQuoted : .singleQuoted, counts)
            case .unquoted:
                if Self.isSpace(byte) { return go(.beforeName, counts) }
                if byte == UInt8(ascii: ">") { return end(counts) }
                return go(.unquoted, counts)
            case .afterQuoted, .selfClosing:
                if state == .afterQuoted, Self.isSpace(byte) { return go(.beforeName, counts) }
                if state == .afterQuoted, byte == UInt8(ascii: "/") { return go(.selfClosing, counts) }
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
        if counts.formatting { formattingWeight += 1 }
        mostInOneElement = max(mostInOneElement, counts.element)
        mostInFile = max(mostInFile, counts.file)
        return counts
    }

    /// The tag ends (`>`): its reading goes back to text.
    private mutating func end(_ counts: Counts) {
        textFile = max(textFile, counts.file)
    }
}

/// A tag name read so far, lower case, while it can still become one the census tells apart:
/// `html` and `body` (gumbo merges their tags into one element) and the formatting elements
/// (which the tree builder re-creates where they were left open). Any other name is `.other`.
private struct TagName: Equatable {
    enum Kind { case html, body, formatting, other }

    /// The bytes, packed, and their count; 0 with `isOther` once no such name can follow.
    private var packed: UInt64 = 0
    private var length = 0
    private var isOther = false

    private static let names: [String: Kind] = {
        var names: [String: Kind] = ["html": .html, "body": .body]
        for name in ["a", "b", "big", "code", "em", "font", "i", "nobr", "s", "small", "strike", "strong", "tt", "u"] {
            names[name] = .formatting
        }
        return names
    }()

    private static let prefixes: Set<TagName> = {
        var prefixes: Set<TagName> = []
        for name in names.keys {
            var prefix = TagName()
            for byte in name.utf8 {
                prefix = prefix.adding(byte, checked: false)
                prefixes.insert(prefix)
            }
        }
        return prefixes
    }()

    private static let kinds: [TagName: Kind] = {
        var kinds: [TagName: Kind] = [:]
        for (name, kind) in names { kinds[name.utf8.reduce(TagName()) { $0.adding($1, checked: false) }] = kind }
        return kinds
    }()

    func adding(_ byte: UInt8) -> TagName { adding(byte, checked: true) }

    private func adding(_ byte: UInt8, checked: Bool) -> TagName {
        guard !isOther else { return self }
        var name = self
        name.packed = packed << 8 | UInt64(byte >= 0x41 && byte <= 0x5A ? byte | 0x20 : byte)
        name.length += 1
        if checked, name.length > 6 || !Self.prefixes.contains(name) { return TagName(packed: 0, length: 0, isOther: true) }
        return name
    }

    var kind: Kind { isOther ? .other : Self.kinds[self] ?? .other }
}

extension TagName: Hashable {}
