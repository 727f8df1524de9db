/// One piece of a filled-in template: text of the template itself, or one value's text.
public struct PromptPiece: Sendable, Hashable {
    /// The text, verbatim.
    public var text: String
    /// The value's name (`headline`), or nil for the template's own text.
    public let name: String?
    /// Whether the text is a placeholder for the reader to replace (`[headline]`), not a real value.
    public var isPlaceholder = false
}

/// A tiny template engine for the prompt files in `Prompts/`.
///
/// Syntax (a small subset of Mustache, no HTML escaping):
/// - `{{name}}`: the value of `name`, inserted literally.
/// - `{{#name}}` ... `{{/name}}`: the enclosed part when `name`'s value is not empty.
/// - `{{^name}}` ... `{{/name}}`: the enclosed part when `name`'s value is empty.
/// - `{{! a comment }}`: nothing.
///
/// Names are ASCII letters, digits and `_`. A line that holds only a section or comment tag
/// (and spaces) disappears entirely, so sections can sit on lines of their own. Any other
/// `{{` that does not open a well-formed tag is an error of the template; a lone `}}` is text.
///
/// Rendering is one pass over the parsed template: values are appended as they are and never
/// scanned again, so a value holding `{{headline}}`, braces, quotes, newlines or `%s` comes
/// out verbatim and cannot change the template. Every name the template uses must be supplied.
public struct PromptTemplate: Sendable {
    /// One piece of the parsed template.
    private indirect enum Node: Sendable {
        case text(String)
        case value(String)
        /// A section: shown when the value is non-empty, or when it is empty if `inverted`.
        case section(name: String, inverted: Bool, body: [Node])
    }

    private let nodes: [Node]

    /// The names the template uses (values and sections), in order of first appearance.
    public let placeholders: [String]

    /// Parses a template.
    /// - Throws: ``CoreError/templateError(_:)`` for an unclosed or malformed tag, a bad name,
    ///   or sections that do not nest.
    public init(_ text: String) throws(CoreError) {
        var stack: [(name: String, inverted: Bool, nodes: [Node])] = [("", false, [])]
        var names: [String] = []
        func note(_ name: String) { if !names.contains(name) { names.append(name) } }
        func append(_ node: Node) { stack[stack.count - 1].nodes.append(node) }

        for (number, line) in Self.lines(of: text).enumerated() {
            let tokens = try Self.tokens(of: line, lineNumber: number + 1)
            // A line holding one section or comment tag and only spaces besides is dropped whole.
            let tags = tokens.filter { if case .text = $0 { false } else { true } }
            let blank = tokens.allSatisfy { token in
                if case .text(let text) = token { text.allSatisfy { $0 == " " || $0 == "\t" || $0.isNewline } }
                else { true }
            }
            let standalone: Token? = if blank, tags.count == 1, !tags[0].isValue { tags[0] } else { nil }
            for token in standalone.map({ [$0] }) ?? tokens {
                switch token {
                case .text(let text):
                    append(.text(text))
                case .value(let name):
                    note(name)
                    append(.value(name))
                case .open(let name, let inverted):
                    note(name)
                    stack.append((name, inverted, []))
                case .close(let name):
                    guard stack.count > 1, let open = stack.last, open.name == name else {
                        throw .templateError("line \(number + 1): {{/\(name)}} closes no open section")
                    }
                    stack.removeLast()
                    append(.section(name: name, inverted: open.inverted, body: open.nodes))
                case .comment:
                    break
                }
            }
        }
        guard stack.count == 1 else {
            throw .templateError("section {{#\(stack[stack.count - 1].name)}} is never closed")
        }
        self.nodes = stack[0].nodes
        self.placeholders = names
    }

    /// The names a template text uses, in order of first appearance.
    /// - Throws: ``CoreError/templateError(_:)`` when the text is not a well-formed template.
    public static func placeholders(in text: String) throws(CoreError) -> [String] {
        try PromptTemplate(text).placeholders
    }

    /// Fills the template with `values`.
    /// - Throws: ``CoreError/templateError(_:)`` naming the first used name that is not supplied.
    public func render(_ values: [String: String]) throws(CoreError) -> String {
        try pieces(values).map(\.text).joined()
    }

    /// Fills the template with `values`, keeping apart what came from the template and what from
    /// each value (for a page that marks placeholders); joined, the pieces are ``render(_:)``'s text.
    /// - Throws: ``CoreError/templateError(_:)`` naming the first used name that is not supplied.
    public func pieces(_ values: [String: String]) throws(CoreError) -> [PromptPiece] {
        if let missing = placeholders.first(where: { values[$0] == nil }) {
            throw .templateError("the template uses {{\(missing)}}, which has no value")
        }
        var out: [PromptPiece] = []
        Self.render(nodes, values, into: &out)
        return out
    }

    /// Supplied names the template never uses, sorted (for tests: a value nobody shows is a bug).
    public func unusedNames(in values: [String: String]) -> [String] {
        values.keys.filter { !placeholders.contains($0) }.sorted()
    }

    private static func render(_ nodes: [Node], _ values: [String: String], into out: inout [PromptPiece]) {
        for node in nodes {
            switch node {
            case .text(let text): out.append(PromptPiece(text: text, name: nil))
            case .value(let name): out.append(PromptPiece(text: values[name] ?? "", name: name))
            case .section(let name, let inverted, let body):
                if (values[name] ?? "").isEmpty == inverted { render(body, values, into: &out) }
            }
        }
    }

    // MARK: Lexing

    private enum Token {
        case text(String)
        case value(String)
        case open(String, inverted: Bool)
        case close(String)
        case comment

        var isValue: Bool { if case .value = self { true } else { false } }
    }

    /// The lines of a text, each with its line break (the last one may have none).
    private static func lines(of text: String) -> [Substring] {
        var lines: [Substring] = []
        var start = text.startIndex
        while start < text.endIndex {
            let end = text[start...].firstIndex(where: \.isNewline).map { text.index(after: $0) } ?? text.endIndex
            lines.append(text[start..<end])
            start = end
        }
        return lines
    }

    /// Splits one line into text and tags; tags never span lines.
    private static func tokens(of line: Substring, lineNumber: Int) throws(CoreError) -> [Token] {
        var tokens: [Token] = []
        var rest = line
        while let open = rest.firstRange(of: "{{") {
            if open.lowerBound > rest.startIndex { tokens.append(.text(String(rest[..<open.lowerBound]))) }
            guard let close = rest[open.upperBound...].firstRange(of: "}}") else {
                throw .templateError("line \(lineNumber): '{{' without '}}'")
            }
            let inside = rest[open.upperBound..<close.lowerBound]
            rest = rest[close.upperBound...]
            if inside.first == "!" {
                tokens.append(.comment)
                continue
            }
            let sigil = inside.first.flatMap { "#^/".contains($0) ? $0 : nil }
            let name = String(sigil == nil ? inside : inside.dropFirst())
            guard !name.isEmpty, name.unicodeScalars.allSatisfy({ $0.isASCII && ($0.properties.isAlphabetic
                                                                     || ("0"..."9").contains($0) || $0 == "_") })
            else {
                throw .templateError("line \(lineNumber): '{{\(inside)}}' is not a placeholder (letters, digits, _)")
            }
            switch sigil {
            case "#": tokens.append(.open(name, inverted: false))
            case "^": tokens.append(.open(name, inverted: true))
            case "/": tokens.append(.close(name))
            default: tokens.append(.value(name))
            }
        }
        if !rest.isEmpty { tokens.append(.text(String(rest))) }
        return tokens
    }
}
