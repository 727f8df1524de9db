/// The output formats of `creative-tool guidance`.
public enum GuidanceFormat: String, Sendable, CaseIterable {
    case json, markdown, html

    /// The HTTP media type.
    public var mediaType: String {
        switch self {
        case .json: "application/json"
        case .markdown: "text/markdown; charset=utf-8"
        case .html: "text/html; charset=utf-8"
        }
    }
}

/// The guidance of a product whose slots are not strips (not banners), in its three formats.
protocol ProductGuidance {
    /// The guidance model of the product.
    var guidance: Guidance { get }
    /// The prompts the HTML page ends with, one per size.
    var prompts: [RenderedPrompt] { get }
    var json: JSONValue { get }
    func markdown() -> String
    func html() -> String
}

extension ProductGuidance {
    var product: Product { guidance.product }

    /// The document in a format: JSON (one line and a line break), Markdown or HTML.
    func render(_ format: GuidanceFormat) -> String {
        switch format {
        case .json: JSONContract.document(json).serialized() + "\n"
        case .markdown: markdown()
        case .html: html()
        }
    }
}

/// What an advertiser needs to upload the right files, computed from the one catalog,
/// device table and rule set, so the dashboard never says something the renderer does not do.
public struct Guidance: Sendable {
    /// Anchored slots of every device and orientation, with the recommended strip (Retina
    /// artwork) each picks (strip products, as banners; empty for the others).
    public let anchored: [SlotAssignment]
    /// Inline slots of every device and orientation, with what each picks among the recommended
    /// sizes and the product's first rectangle (strip products; empty for the others).
    public let inline: [SlotAssignment]
    /// The rectangle the inline table assumes uploaded beside the recommended sizes: the first
    /// the product accepts (a banner's 300x250), nil when it accepts none.
    public let inlineRectangle: PixelSize?
    /// The inline max height used for the inline table, in points.
    public let inlineMaxHeight: Int
    /// The product the guidance is for.
    public let product: Product
    /// Full-screen slots of every device and orientation with what each picks among the
    /// product's sizes (empty for banners).
    public let fullScreen: [SlotAssignment]
    /// The fixed standard slot of every device with what each picks among the product's
    /// recommended sizes (companions; empty for the others).
    public let standard: [SlotAssignment]

    /// Builds the guidance for a product from its catalog and the device table.
    public init(product: Product, inlineMaxHeight: Int = SlotMath.defaultInlineMaxHeight) {
        self.product = product
        fullScreen = product.isFullScreen
            ? DevicePlan.fullScreenAssignments(candidates: product.recommendedUploads, product: product) : []
        standard = product.hasStandardSlot
            ? DevicePlan.standardAssignments(candidates: product.recommendedUploads, product: product) : []
        self.inlineMaxHeight = SlotMath.inlineMaxHeight(inlineMaxHeight)
        let strips = product.hasAnchoredSlots
        anchored = strips ? DevicePlan.anchoredAssignments(candidates: product.recommendedUploads, product: product) : []
        // Inline: the recommended sizes plus the first rectangle, the set `process` renders a rectangle against.
        let rectangle = product.entries.first { $0.shape == .rectangle }?.size
        inlineRectangle = rectangle
        let inlineCandidates = rectangle.map { DevicePlan.recommendedCampaign(with: $0, product: product) }
            ?? product.recommendedUploads
        inline = strips ? DevicePlan.inlineAssignments(candidates: inlineCandidates, maxHeight: self.inlineMaxHeight,
                                                       product: product) : []
    }

    /// The document in a format. The HTML page ends with `prompts` (one per accepted size, from
    /// ``BannerPrompt/render(template:size:brand:headline:cta:colors:product:placeholders:)``),
    /// each with a Copy button; JSON and Markdown leave them out.
    /// `testArtworkBase`: where the HTML page links the test artwork (`/v1/test-artwork/` when
    /// the service serves it); nil names the command that writes it instead.
    /// `profile`: a platform's guidance instead (its sizes and weights, its rules and their
    /// sources, no prompts); nil or `network` for the network's own.
    public func render(_ format: GuidanceFormat, prompts: [RenderedPrompt] = [], testArtworkBase: String? = nil,
                       profile: PlatformProfile? = nil) -> String {
        if let profile, !profile.isDefault { return ProfileGuidance(profile: profile, product: product).render(format) }
        switch product.slotRule {
        case .fullScreenSafeArea:
            return FullScreenGuidance(guidance: self, prompts: prompts, testArtworkBase: testArtworkBase).render(format)
        case .fixedStandardSlot:
            return StandardSlotGuidance(guidance: self, prompts: prompts, testArtworkBase: testArtworkBase).render(format)
        case .anchoredOrInlineStrip: break
        }
        return switch format {
        case .json: JSONContract.document(json).serialized() + "\n"
        case .markdown: GuidanceMarkdown(self).render()
        case .html: GuidanceHTML(self, prompts: prompts, testArtworkBase: testArtworkBase).render()
        }
    }

    /// The smallest legible text for one of the product's sizes, in artwork pixels
    /// (``BannerPrompt``'s rule); nil for a size it has no facts for.
    func minTextPixels(for size: PixelSize) -> Int? {
        (try? BannerPrompt.facts(for: size, product: product))?.minTextPixels
    }

    /// Which anchored device slots each recommended strip serves.
    public func slots(servedBy size: PixelSize) -> [SlotAssignment] {
        anchored.filter { $0.artwork == size }
    }

    /// The recommended uploads as a sentence names them: `the three Retina sizes`.
    private var recommendedText: String {
        let count = product.recommendedUploads.count
        let words = ["no", "one", "two", "three", "four", "five", "six", "seven", "eight", "nine", "ten"]
        return "the \(count < words.count ? words[count] : String(count)) Retina size" + (count == 1 ? "" : "s")
    }

    /// Plain-language rules of a strip product's guidance, repeated in every format: what to
    /// upload and how the anchored slots pick among it.
    var coverageNote: String {
        "Upload \(recommendedText) (\(product.recommendedUploads.map(\.description).joined(separator: ", "))): "
            + "together they cover every anchored slot. For each request the ad server picks the approved strip whose "
            + "aspect ratio is closest to the slot's and shows it whole (aspect fit): never stretched, never cropped; "
            + "the rest of the slot is letterbox."
    }

    /// How a strip product's inline slots pick, and what the inline table assumes uploaded.
    var inlineNote: String {
        let fitting = "every candidate is scaled to fit the width and the max height, and the one shown biggest wins. "
        guard let inlineRectangle else {
            return "Inline \(product.rawValue)s (inside scrolling content): " + fitting
                + "The table assumes \(recommendedText) are uploaded."
        }
        return "Inline \(product.rawValue)s (inside scrolling content) may also show rectangles such as \(inlineRectangle): "
            + fitting + "Rectangles are never used for anchored slots. The table assumes \(recommendedText) and "
            + "a \(inlineRectangle) are uploaded."
    }
    static let safeAreaNote = "The whole artwork is always shown (never cropped), but slot corners are rounded and "
        + "the \"Ad\" badge sits over a corner: keep logos and text inside the safe area (\(SafeArea.horizontalInsetPercent)% "
        + "clear left and right, \(SafeArea.verticalInsetPercent)% top and bottom), and make text at least the given "
        + "height in artwork pixels so it is \(BannerPrompt.minimumTextPoints) pt tall on the smallest screen showing it."
    static let formatsNote = "PNG, JPEG, GIF or WebP, static only (no animation). SVG, PDF, BMP, TIFF and HEIF are refused."

    /// The `formats` object every product's JSON guidance ends with.
    static var formatsJSON: JSONValue {
        .object([
            ("accepted", .array(ImageFormat.allCases.map { .string($0.rawValue) })),
            ("static_only", .bool(true)),
            ("weight_guideline_bytes", .int(Catalog.weightGuidelineBytes)),
            ("max_file_bytes", .int(Catalog.defaultMaxBytes)),
            ("max_pixel_count", .int(Catalog.defaultMaxPixels)),
            ("note", .string(formatsNote)),
        ])
    }

    /// The "Formats and weight" section every product's Markdown guidance ends with.
    static var formatsMarkdown: [String] {
        ["", "## Formats and weight", "", formatsNote, "",
         "- Weight guideline: \(Catalog.weightGuidelineText); heavier files get a warning.",
         "- Hard limit: \(Catalog.defaultMaxBytes) bytes (2 MiB); larger files are refused.",
         "- At most \(Catalog.defaultMaxPixels / 1_000_000) megapixels.", ""]
    }

    /// The opening of a product's HTML guidance page, up to and with its `<h1>` and its table of
    /// contents (the prompts, `sections`, formats).
    /// The start of every product's HTML page: the title, the contents, then the prompts with
    /// their Copy buttons (``PromptSection``), what an advertiser comes to copy, before the tables.
    static func htmlHead(title: String, sections: [GuidancePage.Section], prompts: [RenderedPrompt]) -> String {
        "<!DOCTYPE html>\n<html lang=\"en\"><head><meta charset=\"utf-8\">"
            + "<meta name=\"viewport\" content=\"width=device-width,initial-scale=1\">"
            + "<title>\(title)</title><style>\(GuidanceHTML.style)</style></head><body><main>\n<h1>\(title)</h1>\n"
            + GuidancePage.contents(sections, withPrompts: !prompts.isEmpty) + PromptSection(prompts).render()
    }

    /// The end of every product's HTML page: formats and weight.
    static func formatsHTMLTail() -> String {
        GuidancePage.heading(GuidancePage.formats) + "<p class=\"lead\">\(TextFormat.markupEscaped(formatsNote)) Keep files under "
            + "\(Catalog.weightGuidelineText); files over 2 MiB are refused.</p>\n"
            + "</main></body></html>\n"
    }
}
