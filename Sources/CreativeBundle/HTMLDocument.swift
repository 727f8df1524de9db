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

/// Why an HTML or SVG file was not parsed (`too_many_elements`): what it holds over which limit.
public struct MarkupOverLimit: Error, Sendable, Equatable {
    /// What is over the limit, e.g. `has 20000 tags, over the limit of 10000`.
    public let message: String
}

/// What the bundle checks need from an HTML file, read with gumbo (the HTML5 parsing algorithm,
/// so the document is seen as a browser sees it): every URL in `src`, `href` (SVG's `xlink:href`
/// too), `srcset`, `poster`, `data`, `background`, `manifest`, `action`, `formaction`, `ping` and
/// `<meta http-equiv=refresh>`, the CSS of `style` attributes and `<style>` elements
/// (scanned by ``CSSScanner``), the inline scripts, the `ad.size` meta, and the same in the
/// documents of `<iframe srcdoc>` (read as HTML in turn, at most ``BundleRules/maxSrcdocDepth`` deep).
///
/// gumbo parses in one call that cannot be stopped, so the bytes are counted first
/// (``MarkupCensus``) and a file over the limits of ``BundleRules`` is not parsed: the tags,
/// and the attributes of one element and of the whole file, its `srcdoc` documents included.
public struct HTMLDocument: Sendable {
    public private(set) var references: [HTMLReference] = []
    /// Text of the `<script>` elements without `src`.
    public private(set) var inlineScripts: [String] = []
    /// The `content` of `<meta name="ad.size">`, when present.
    public private(set) var adSize: String?
    /// The `srcdoc` values of the `<iframe>` elements, read once the tree is released.
    private var srcdocs: [String] = []

    /// Parses the bytes (invalid UTF-8 is replaced, as browsers do), after counting them.
    /// - Throws: ``MarkupOverLimit`` when the file, with its `srcdoc` documents, has more start
    ///   tags than ``BundleRules/maxTagsPerFile``, more attributes in one element than
    ///   ``BundleRules/maxAttributesPerElement`` or in all than ``BundleRules/maxAttributesPerFile``,
    ///   formatting elements the parser may copy more than ``BundleRules/maxFormattingCopies``
    ///   times, or `srcdoc` documents nested deeper than ``BundleRules/maxSrcdocDepth``. Nothing
    ///   over a limit reaches gumbo.
    public init(bytes: [UInt8]) throws(MarkupOverLimit) {
        var used = MarkupCensus()
        try self.init(bytes: bytes, depth: 0, used: &used)
    }

    private init(bytes: [UInt8], depth: Int, used: inout MarkupCensus) throws(MarkupOverLimit) {
        used.add(MarkupCensus(bytes))
        try Self.checkLimits(used)
        self = Self.parse(bytes)
        for srcdoc in srcdocs {
            guard depth < BundleRules.maxSrcdocDepth else {
                throw MarkupOverLimit(message: "has <iframe srcdoc> documents nested more than "
                                      + "\(BundleRules.maxSrcdocDepth) deep")
            }
            let inner = try HTMLDocument(bytes: Array(srcdoc.utf8), depth: depth + 1, used: &used)
            references += inner.references.map {
                HTMLReference(url: $0.url, place: "\($0.place) in <iframe srcdoc>", isLink: $0.isLink)
            }
            inlineScripts += inner.inlineScripts
        }
        srcdocs = []
    }

    private static func checkLimits(_ census: MarkupCensus) throws(MarkupOverLimit) {
        if census.startTags > BundleRules.maxTagsPerFile {
            throw MarkupOverLimit(message: "has \(census.startTags) tags, over the limit of \(BundleRules.maxTagsPerFile)")
        }
        if census.attributesPerElement > BundleRules.maxAttributesPerElement {
            throw MarkupOverLimit(message: "can give one element up to \(census.attributesPerElement) attributes, "
                                  + "over the limit of \(BundleRules.maxAttributesPerElement) per element")
        }
        if census.attributes > BundleRules.maxAttributesPerFile {
            throw MarkupOverLimit(message: "has up to \(census.attributes) attributes, over the limit of "
                                  + "\(BundleRules.maxAttributesPerFile) per file")
        }
        if census.formattingCopies > BundleRules.maxFormattingCopies {
            throw MarkupOverLimit(message: "has \(census.formattingWeight) formatting tags and attributes (a, b, i, "
                                  + "strong, font, ...) and \(census.startTags + census.endTags) tags, so the parser may "
                                  + "copy up to \(census.formattingCopies) elements and attributes, over the limit of "
                                  + "\(BundleRules.maxFormattingCopies)")
        }
    }

    /// Attributes whose value is one URL.
    private static let urlAttributes: Set<String> = ["src", "href", "poster", "data", "background", "manifest",
                                                     "action", "formaction"]

    /// Parses bytes that are within the limits. The tree is walked with a stack of its own, so
    /// deep nesting cannot exhaust the thread's stack here.
    private static func parse(_ bytes: [UInt8]) -> HTMLDocument {
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
        return document
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
            } else if name == "ping" {
                for url in raw.split(whereSeparator: { $0 == " " || $0 == "\t" || $0 == "\n" || $0 == "\r" || $0 == "\u{C}" }) {
                    references.append(HTMLReference(url: String(url), place: place, isLink: false))
                }
            } else if name == "srcset" || name == "imagesrcset" {
                for candidate in raw.split(separator: ",") {
                    let url = candidate.trimmingSpace().split(whereSeparator: { $0 == " " || $0 == "\t" || $0 == "\n" }).first
                    if let url { references.append(HTMLReference(url: String(url), place: place, isLink: false)) }
                }
            } else if name == "style" {
                addCSS(raw, place: "style attribute of <\(tag)>")
            } else if name == "srcdoc", tag == "iframe" {
                srcdocs.append(raw)
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
