/// `guidance --profile P` (P not `network`): what one platform accepts for a product, from its
/// profile (``PlatformProfile``): the sizes with the weight each may have, the formats, colour,
/// border and animation rules, and where each rule comes from. The network's device tables
/// are left out: they are about this network's slots, not the platform's.
struct ProfileGuidance {
    let profile: PlatformProfile
    let product: Product

    /// The sizes the profile accepts for the product, with their weight limit (nil: none stated)
    /// and the product's catalog entry when the product accepts the size too.
    var sizes: [(size: PixelSize, maxBytes: Int?, entry: CatalogEntry?)] {
        profile.acceptedSizes(for: product).map { ($0, profile.weightBudget(for: $0), product.entry(for: $0)) }
    }

    var title: String { "\(product.title) artwork for \(profile.title)" }

    /// Why the size list is what it is, in one sentence.
    var sizesNote: String {
        profile.sizeList == nil
            ? "\(profile.name) takes the \(product) sizes of this network" + (profile.minimumSize == nil && profile.maximumSize == nil
                ? "." : " within its bounds.")
            : "\(profile.name) has its own size list, which applies instead of this network's \(product) sizes."
    }

    static let animationNote = "Animated uploads are refused today whatever the platform allows (animated); the limits are "
        + "the platform's, for reference."

    func render(_ format: GuidanceFormat) -> String {
        switch format {
        case .json: JSONContract.document(json).serialized() + "\n"
        case .markdown: markdown()
        case .html: html()
        }
    }

    var json: JSONValue {
        .object([
            ("product", .string(product.rawValue)),
            ("profile", .object([("name", .string(profile.name)), ("title", .string(profile.title))])),
            ("sizes", .array(sizes.map { row in
                .object([("size_pixels", row.size.json), ("shape", .string(row.size.shape.rawValue)),
                         ("aspect_ratio", .double(row.size.aspectRatio)), ("max_bytes", row.maxBytes.map(JSONValue.int) ?? .null),
                         ("size_class", .optional(row.entry?.sizeClass.rawValue))])
            })),
            ("sizes_note", .string(sizesNote)),
            ("formats", .array((profile.formats ?? ImageFormat.allCases).map { .string($0.rawValue) })),
            ("max_bytes", profile.maxBytes.map(JSONValue.int) ?? .null),
            ("refused_colour_spaces", .array(profile.refusedColourSpaces.map { .string($0.rawValue) })),
            ("border_required", .bool(profile.requiresBorder)),
            ("animation", profile.rule("animation")?.json ?? .null),
            ("rules", .array(profile.rules.map(\.json))),
        ])
    }

    /// The rules that are not sizes, as `(heading, what it says)` rows.
    private var ruleRows: [(String, String)] {
        var rows: [(String, String)] = [("formats", (profile.formats ?? ImageFormat.allCases).map { $0.rawValue.uppercased() }
            .joined(separator: ", "))]
        rows.append(("weight", profile.maxBytes.map { "at most \($0) bytes" } ?? (profile.sizeWeights.isEmpty
            ? "no limit stated" : "by size (the table above)")))
        if !profile.refusedColourSpaces.isEmpty { rows.append(("colour", profile.rule("colour_space")?.summary ?? "")) }
        if profile.requiresBorder { rows.append(("border", profile.rule("border")?.summary ?? "")) }
        if let animation = profile.rule("animation") { rows.append(("animation", animation.summary)) }
        return rows
    }

    private static func weightText(_ bytes: Int?) -> String { bytes.map { "\($0) bytes" } ?? "none stated" }

    func markdown() -> String {
        var lines = ["# \(title)", "", sizesNote, "", "## Sizes and weights", "",
                     "| size (px) | shape | aspect | most bytes | in this network's \(product) catalog |", "|---|---|---|---|---|"]
        for row in sizes {
            lines.append("| \(row.size) | \(row.size.shape.rawValue) | \(BannerPrompt.aspectText(row.size)) | "
                         + "\(Self.weightText(row.maxBytes)) | \(row.entry == nil ? "no" : "yes") |")
        }
        lines += ["", "## Formats and weight", ""] + ruleRows.map { "- \($0.0): \($0.1)" }
        if profile.animation != nil { lines += ["", Self.animationNote] }
        lines += ["", "## Sources", "", "| rule | says | source | read |", "|---|---|---|---|"]
        for rule in profile.rules {
            lines.append("| \(rule.kind.name) | \(rule.note ?? rule.summary) | \(rule.source) | \(rule.read) |")
        }
        return lines.joined(separator: "\n") + "\n"
    }

    static let sizesSection = GuidancePage.Section(id: "sizes", title: "Sizes and weights")
    static let sourcesSection = GuidancePage.Section(id: "sources", title: "Sources")

    func html() -> String {
        let escape = TextFormat.markupEscaped
        var html = Guidance.htmlHead(title: escape(title), sections: [Self.sizesSection, Self.sourcesSection], prompts: [])
        html += "<p class=\"lead\">\(escape(sizesNote))</p>\n" + GuidancePage.heading(Self.sizesSection)
        var table = "<table><tr><th>size (px)</th><th>shape</th><th class=\"num\">aspect</th><th class=\"num\">most bytes</th>"
            + "<th>in this network's \(product) catalog</th></tr>"
        for row in sizes {
            table += "<tr><td>\(row.size)</td><td>\(row.size.shape.rawValue)</td><td class=\"num\">\(BannerPrompt.aspectText(row.size))"
                + "</td><td class=\"num\">\(Self.weightText(row.maxBytes))</td><td>\(row.entry == nil ? "no" : "yes")</td></tr>"
        }
        html += GuidancePage.scrolling(table + "</table>", label: Self.sizesSection.title)
        table = "<table><tr><th>rule</th><th>says</th><th>source</th><th>read</th></tr>"
        for rule in profile.rules {
            let source = rule.source.hasPrefix("https://")
                ? "<a href=\"\(escape(rule.source))\">\(escape(rule.source))</a>" : escape(rule.source)
            table += "<tr><td>\(rule.kind.name)</td><td style=\"white-space:normal;min-width:30ch\">\(escape(rule.note ?? rule.summary))</td><td>\(source)</td>"
                + "<td>\(rule.read)</td></tr>"
        }
        html += GuidancePage.heading(Self.sourcesSection) + GuidancePage.scrolling(table + "</table>", label: Self.sourcesSection.title)
        html += GuidancePage.heading(GuidancePage.formats) + "<ul>"
            + ruleRows.map { "<li><b>\($0.0)</b>: \(escape($0.1))</li>" }.joined() + "</ul>\n"
        if profile.animation != nil { html += "<p class=\"lead\">\(escape(Self.animationNote))</p>\n" }
        return html + "</main></body></html>\n"
    }
}
