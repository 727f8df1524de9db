import CGumbo

/// One URL an HTML document loads or links to, and where it is written.
public struct HTMLReference: Sendable, Equatable {
    /// The URL as written (white space trimmed).
    public let url: String
    /// Where: `<img src>`, `<link href>`, `<style>`, `style attribute of <div>`, ...
    public let place: String
    /// True for an `href` of `<a>` or `<area>`: a link, where `javascript:` is the click handler.
    public let isLink: Bool
}

/// What the bundle checks need from an HTML file, read with gumbo (the HTML5 parsing algorithm,
/// so the document is seen as a browser sees it): every URL in `src`, `href`, `srcset`, `poster`,
/// `data` and `<meta http-equiv=refresh>`, the CSS of `style` attributes and `<style>` elements
/// (scanned by ``CSSScanner``), the inline scripts, and the `ad.size` meta.
public struct HTMLDocument: Sendable {
    public private(set) var references: [HTMLReference] = []
    /// Text of the `<script>` elements without `src`.
    public private(set) var inlineScripts: [String] = []
    /// The `content` of `<meta name="ad.size">`, when present.
    public private(set) var adSize: String?

    /// The number of start tags (`<` and a letter) in HTML or SVG text: parsing time grows with
    /// the square of the nesting depth, so a file with more than ``BundleRules/maxTagsPerFile``
    /// is refused before it is parsed.
    public static func startTags(_ bytes: [UInt8]) -> Int {
        var count = 0
        for index in bytes.indices.dropLast() where bytes[index] == UInt8(ascii: "<") {
            let next = bytes[index + 1] | 0x20
            if next >= UInt8(ascii: "a") && next <= UInt8(ascii: "z") { count += 1 }
        }
        return count
    }

    /// Attributes whose value is one URL.
    private static let urlAttributes: Set<String> = ["src", "href", "poster", "data"]

    /// Parses the bytes (invalid UTF-8 is replaced, as browsers do). The tree is walked with a
    /// stack of its own, so deep nesting cannot exhaust the thread's stack here.
    public init(bytes: [UInt8]) {
        // A terminating NUL keeps the buffer's address valid also for an empty file.
        let text = bytes.map { CChar(bitPattern: $0) } + [0]
        // Parse errors are not kept: gumbo copies the stack of open elements into each one,
        // which for deep nesting costs memory quadratic in the depth.
        var options = kGumboDefaultOptions
        options.max_errors = 0
        // gumbo's tree points into the text (original tag names): it is walked while the text lives.
        var document = HTMLDocument()
        text.withUnsafeBufferPointer { chars in
            guard let output = gumbo_parse_with_options(&options, chars.baseAddress, bytes.count) else { return }
            defer { gumbo_destroy_output(&options, output) }
            document.walk(output.pointee.root)
        }
        self = document
    }

    private init() {}

    private mutating func walk(_ root: UnsafeMutablePointer<GumboNode>) {
        var stack: [UnsafeMutablePointer<GumboNode>] = [root]
        while let node = stack.popLast() {
            guard node.pointee.type == GUMBO_NODE_ELEMENT else { continue }
            let element = node.pointee.v.element
            let tag = Self.tagName(element)
            visit(tag: tag, attributes: Self.attributes(element), children: element.children)
            let children = element.children
            for index in (0..<Int(children.length)).reversed() {
                if let child = children.data[index]?.assumingMemoryBound(to: GumboNode.self) { stack.append(child) }
            }
        }
    }

    private mutating func visit(tag: String, attributes: [(String, String)], children: GumboVector) {
        func value(_ name: String) -> String? { attributes.first { $0.0 == name }?.1 }
        for (name, raw) in attributes {
            let place = "<\(tag) \(name)>"
            if Self.urlAttributes.contains(name) {
                references.append(HTMLReference(url: raw.trimmingSpace(), place: place,
                                                isLink: name == "href" && (tag == "a" || tag == "area")))
            } else if name == "srcset" || name == "imagesrcset" {
                for candidate in raw.split(separator: ",") {
                    let url = candidate.trimmingSpace().split(whereSeparator: { $0 == " " || $0 == "\t" || $0 == "\n" }).first
                    if let url { references.append(HTMLReference(url: String(url), place: place, isLink: false)) }
                }
            } else if name == "style" {
                addCSS(raw, place: "style attribute of <\(tag)>")
            }
        }
        switch tag {
        case "style":
            addCSS(Self.text(children), place: "<style>")
        case "script" where value("src") == nil:
            inlineScripts.append(Self.text(children))
        case "meta":
            if value("name")?.lowercased() == "ad.size", adSize == nil { adSize = value("content") ?? "" }
            if value("http-equiv")?.lowercased() == "refresh", let content = value("content"),
               let url = Self.refreshURL(content) {
                references.append(HTMLReference(url: url, place: "<meta http-equiv=refresh>", isLink: false))
            }
        default:
            break
        }
    }

    private mutating func addCSS(_ css: String, place: String) {
        for url in CSSScanner.urls(in: css) {
            references.append(HTMLReference(url: url, place: place, isLink: false))
        }
    }

    /// The URL of a refresh `content` (`5; url=next.html`), or nil when it only reloads.
    static func refreshURL(_ content: String) -> String? {
        guard let semicolon = content.firstIndex(where: { $0 == ";" || $0 == "," }) else { return nil }
        var rest = content[content.index(after: semicolon)...].trimmingSpace()
        if rest.lowercased().hasPrefix("url") {
            rest = String(rest.dropFirst(3)).trimmingSpace()
            if rest.hasPrefix("=") { rest = String(rest.dropFirst()).trimmingSpace() }
        }
        if let quote = rest.first, quote == "'" || quote == "\"" {
            rest = String(rest.dropFirst().prefix { $0 != quote })
        }
        return rest.isEmpty ? nil : rest
    }

    private static func tagName(_ element: GumboElement) -> String {
        if element.tag != GUMBO_TAG_UNKNOWN, let name = gumbo_normalized_tagname(element.tag) {
            return String(cString: name)
        }
        var piece = element.original_tag
        withUnsafeMutablePointer(to: &piece) { gumbo_tag_from_original_text($0) }
        return string(piece).lowercased()
    }

    private static func attributes(_ element: GumboElement) -> [(String, String)] {
        let vector = element.attributes
        return (0..<Int(vector.length)).compactMap { index in
            guard let attribute = vector.data[index]?.assumingMemoryBound(to: GumboAttribute.self),
                  let name = attribute.pointee.name, let value = attribute.pointee.value else { return nil }
            return (String(cString: name).lowercased(), String(cString: value))
        }
    }

    /// The text of an element's text children (`<style>`, `<script>`).
    private static func text(_ children: GumboVector) -> String {
        var text = ""
        for index in 0..<Int(children.length) {
            guard let child = children.data[index]?.assumingMemoryBound(to: GumboNode.self),
                  child.pointee.type != GUMBO_NODE_ELEMENT, let piece = child.pointee.v.text.text else { continue }
            text += String(cString: piece)
        }
        return text
    }

    private static func string(_ piece: GumboStringPiece) -> String {
        guard let data = piece.data else { return "" }
        return String(decoding: UnsafeRawBufferPointer(start: data, count: piece.length), as: UTF8.self)
    }
}
