/// The part of an artwork where the logo, text and anything important must stay.
///
/// Artwork is always shown whole (aspect fit, never cropped), but slots round their corners
/// and the SDK draws its small "Ad" badge over a corner. Keeping content a few percent away
/// from the edges keeps it clear of both. Guidance and prompts read these numbers from here.
public struct SafeArea: Sendable, Hashable {
    /// Clear margin at the left and at the right, in percent of the artwork's width.
    public static let horizontalInsetPercent = 5
    /// Clear margin at the top and at the bottom, in percent of the artwork's height.
    public static let verticalInsetPercent = 10

    /// Left edge of the safe area, in artwork pixels (also the right margin).
    public let x: Int
    /// Top edge of the safe area, in artwork pixels (also the bottom margin).
    public let y: Int
    /// Width of the safe area, in artwork pixels.
    public let width: Int
    /// Height of the safe area, in artwork pixels.
    public let height: Int

    /// The safe area of an artwork: margins are the percentages above, rounded up to whole
    /// pixels (so the area never exceeds them), the same on opposite sides.
    public init(artwork: PixelSize) {
        x = (artwork.width * Self.horizontalInsetPercent + 99) / 100
        y = (artwork.height * Self.verticalInsetPercent + 99) / 100
        width = artwork.width - 2 * x
        height = artwork.height - 2 * y
    }

    /// `{"x": ..., "y": ..., "width": ..., "height": ...}`.
    public var json: JSONValue {
        .object([("x", .int(x)), ("y", .int(y)), ("width", .int(width)), ("height", .int(height))])
    }
}

/// The numbers a banner prompt states for one accepted size, all derived from the catalog and
/// the device plan.
public struct BannerFacts: Sendable, Hashable {
    /// The catalog entry.
    public let entry: CatalogEntry
    /// Width to height as a decimal, two places: `"6.40:1"`.
    public let aspect: String
    /// Width to height in lowest terms: `"32:5"`.
    public let ratio: String
    /// Where logo and text must stay.
    public let safeArea: SafeArea
    /// The smallest letter height (capital letters) in artwork pixels that is still
    /// ``BannerPrompt/minimumTextPoints`` tall on the smallest screen showing this artwork.
    public let minTextPixels: Int
    /// The slots this artwork is shown in, for people: `"iPhone 14 portrait 390x60 pt"`.
    public let servedSlots: [String]
    /// The product the size belongs to.
    public let product: Product
    /// For full-screen products: the part of the artwork the close button covers (``CloseButton``).
    public let closeZone: PixelRect?

    /// The pixel size.
    public var size: PixelSize { entry.size }
}

/// One prompt, filled in for one size.
public struct RenderedPrompt: Sendable, Hashable {
    /// The numbers the prompt states.
    public let facts: BannerFacts
    /// The prompt text, ready to copy.
    public let text: String
    /// The same text in pieces: the template's own text and each value's (joined: ``text``).
    public let pieces: [PromptPiece]

    /// The pixel size.
    public var size: PixelSize { facts.size }

    /// The JSON object of `prompt --json` and the service: product, artwork_pixels, aspect_ratio,
    /// safe_area_pixels, min_text_height_pixels, close_zone_pixels (full-screen products), prompt.
    public var json: JSONValue {
        .object([
            ("product", .string(facts.product.rawValue)),
            ("artwork_pixels", size.json),
            ("aspect_ratio", .double(size.aspectRatio)),
            ("safe_area_pixels", facts.safeArea.json),
            ("min_text_height_pixels", .int(facts.minTextPixels)),
        ] + (facts.product.isFullScreen ? [("close_zone_pixels", facts.closeZone.map(\.json) ?? .null)] : []) + [
            ("prompt", .string(text)),
        ])
    }
}

/// The copyable AI image-generator prompt: the numbers for a size and the filling of the
/// template (`Prompts/banner.txt`, passed in as text so this module stays free of files and C).
public enum BannerPrompt {
    /// The smallest text height, in points on screen, that stays legible (capital letters).
    public static let minimumTextPoints = 9

    /// The names ``values(for:brand:headline:cta:colors:)`` supplies; the template must use
    /// exactly these (a test checks both directions).
    ///
    /// - `size`, `width`, `height`: pixels (`960x150`, `960`, `150`).
    /// - `aspect`, `ratio`: `6.40:1` and `32:5`.
    /// - `safe_x`, `safe_y`, `safe_width`, `safe_height`: the ``SafeArea`` in pixels.
    /// - `min_text_px`, `min_text_pt`: the minimum capital-letter height in artwork pixels, and
    ///   the on-screen points it guarantees.
    /// - `slots`: the served slots, comma separated.
    /// - `strip`, `rectangle`: `yes` or empty, for the template's layout sections.
    /// - `brand`, `headline`, `cta`, `colors`: the user's text verbatim, empty when not given.
    /// - `text`: `yes` when a headline or a call to action is given, else empty.
    /// - `kind`: what the artwork is, `banner` or `interstitial ad`; `interstitial`: `yes` or empty.
    /// - `close_zone`: `yes` when the close button covers part of the artwork; `close_x`,
    ///   `close_y`, `close_width`, `close_height`: that part in pixels (empty for banners).
    public static let valueNames = [
        "size", "width", "height", "aspect", "ratio", "safe_x", "safe_y", "safe_width", "safe_height",
        "min_text_px", "min_text_pt", "slots", "strip", "rectangle",
        "brand", "headline", "cta", "colors", "text",
        "kind", "interstitial", "close_zone", "close_x", "close_y", "close_width", "close_height",
    ]

    /// The numbers for an accepted size of a product.
    /// - Throws: ``CoreError/sizeNotAllowed(_:product:)`` when the product does not accept the size.
    public static func facts(for size: PixelSize, product: Product) throws(CoreError) -> BannerFacts {
        guard let entry = product.entry(for: size) else { throw .sizeNotAllowed(size, product: product) }
        let assignments = servingAssignments(for: size, product: product)
        return BannerFacts(entry: entry, aspect: aspectText(size), ratio: ratioText(size),
                           safeArea: SafeArea(artwork: size),
                           minTextPixels: minTextPixels(for: entry, assignments: assignments),
                           servedSlots: servedSlots(for: entry, assignments: assignments),
                           product: product,
                           closeZone: product.isFullScreen ? CloseButton.zone(over: assignments) : nil)
    }

    /// The device slots (docs/reference.md, "process" (the device table)) where the selection rules pick this artwork.
    ///
    /// For a strip product (banners), its recommended strips (the Retina sizes) compete with each
    /// other (`DevicePlan.anchoredAssignments(candidates: product.recommendedUploads)`); any other
    /// size competes with the recommended sizes as an upload would (`DevicePlan.assignments(for:)`:
    /// anchored slots for a strip, inline slots for a rectangle). May be empty: a 320x50 upload
    /// loses every slot to 960x150. For other products: the slots where the product's rule picks
    /// it among its recommended sizes.
    public static func servingAssignments(for size: PixelSize, product: Product) -> [SlotAssignment] {
        if product.hasAnchoredSlots, size.shape == .strip, product.recommendedUploads.contains(size) {
            return DevicePlan.anchoredAssignments(candidates: product.recommendedUploads, product: product)
                .filter { $0.artwork == size }
        }
        return DevicePlan.assignments(for: size, campaign: DevicePlan.recommendedCampaign(with: size, product: product),
                                      product: product)
    }

    /// `ceil(9 pt * artwork height / shown height in points)`, the largest over the serving slots.
    /// With no serving slot, the artwork is taken at its own slot: Retina artwork at the 1x size
    /// it is 3x of, a standard size at its own size in points.
    static func minTextPixels(for entry: CatalogEntry, assignments: [SlotAssignment]) -> Int {
        let artworkHeight = Double(entry.size.height)
        let shownPoints: [Double] = assignments.isEmpty
            ? [Double((entry.retinaOf ?? entry.size).height)]
            : assignments.map { Double($0.placement.content.height) / $0.deviceSlot.slot.scale }
        let needed = shownPoints.map { points in
            // The small tolerance keeps an exact quotient (9.0000000001) from rounding up to 10.
            Int((Double(minimumTextPoints) * artworkHeight / points - 1e-9).rounded(.up))
        }
        return max(1, needed.max() ?? minimumTextPoints)
    }

    /// `"iPhone 14 portrait 390x60 pt"` per serving slot; with none, the artwork's own slot.
    static func servedSlots(for entry: CatalogEntry, assignments: [SlotAssignment]) -> [String] {
        guard !assignments.isEmpty else {
            if let base = entry.retinaOf {
                return ["\(base) pt slots at \(entry.size.width / base.width)x"]
            }
            return ["\(entry.size) pt slots"]
        }
        return assignments.map { assignment in
            let slot = assignment.deviceSlot
            if slot.sizing == .fullScreen {
                return "\(slot.device.name) \(slot.orientation.rawValue) full screen \(slot.screenPoints) pt"
            }
            if slot.sizing == .standard { return "\(slot.device.name) \(slot.slot.points) pt" }
            let inline = slot.sizing == .inline ? " inline" : ""
            return "\(slot.device.name) \(slot.orientation.rawValue)\(inline) \(slot.slot.points) pt"
        }
    }

    /// Width / height with two decimals: `6.40:1`.
    public static func aspectText(_ size: PixelSize) -> String {
        let hundredths = (200 * size.width + size.height) / (2 * size.height)  // rounded half up
        let fraction = hundredths % 100
        return "\(hundredths / 100).\(fraction < 10 ? "0" : "")\(fraction):1"
    }

    /// Width : height in lowest terms: `32:5`.
    public static func ratioText(_ size: PixelSize) -> String {
        var (a, b) = (size.width, size.height)
        while b != 0 { (a, b) = (b, a % b) }
        return "\(size.width / a):\(size.height / a)"
    }

    /// The template's values for one size. User text is passed through unchanged; `nil` and
    /// text that is only spaces or line breaks count as not given (empty), which the
    /// template's sections turn into wording that still reads well.
    public static func values(for facts: BannerFacts, brand: String?, headline: String?,
                              cta: String?, colors: String?) -> [String: String] {
        func given(_ text: String?) -> String {
            guard let text, !text.allSatisfy(\.isWhitespace) else { return "" }
            return text
        }
        let headline = given(headline), cta = given(cta)
        let strip = facts.size.shape == .strip
        let interstitial = facts.product.isFullScreen
        let zone = facts.closeZone
        return [
            "size": facts.size.description,
            "width": String(facts.size.width),
            "height": String(facts.size.height),
            "aspect": facts.aspect,
            "ratio": facts.ratio,
            "safe_x": String(facts.safeArea.x),
            "safe_y": String(facts.safeArea.y),
            "safe_width": String(facts.safeArea.width),
            "safe_height": String(facts.safeArea.height),
            "min_text_px": String(facts.minTextPixels),
            "min_text_pt": String(minimumTextPoints),
            "slots": facts.servedSlots.joined(separator: ", "),
            "strip": strip ? "yes" : "",
            "rectangle": strip ? "" : "yes",
            "brand": given(brand),
            "headline": headline,
            "cta": cta,
            "colors": given(colors),
            "text": headline.isEmpty && cta.isEmpty ? "" : "yes",
            "kind": interstitial ? "interstitial ad" : "banner",
            "interstitial": interstitial ? "yes" : "",
            "close_zone": zone == nil ? "" : "yes",
            "close_x": zone.map { String($0.x) } ?? "",
            "close_y": zone.map { String($0.y) } ?? "",
            "close_width": zone.map { String($0.width) } ?? "",
            "close_height": zone.map { String($0.height) } ?? "",
        ]
    }

    /// The visible stand-ins a page puts in place of user text that was not given, so the prompt
    /// keeps its text sections and the reader sees what to replace: `[brand]`, `[headline]`,
    /// `[call to action]`, `[colours]`.
    public static let placeholders: [(name: String, text: String)] = [
        ("brand", "[brand]"), ("headline", "[headline]"), ("cta", "[call to action]"), ("colors", "[colours]"),
    ]

    /// The prompts for one size, or for every recommended size of the product (banners: the
    /// Retina sizes, ``Product/recommendedUploads``) when `size` is nil, in catalog order. With
    /// `placeholders`, brand, headline, call to action and colours that are not given are
    /// filled with ``placeholders`` (marked so in ``RenderedPrompt/pieces``) instead of being left out.
    /// - Throws: ``CoreError/sizeNotAllowed(_:product:)`` for a size outside the product's catalog;
    ///   ``CoreError/templateError(_:)`` for a broken template (a bug, caught by tests).
    public static func render(template: String, size: PixelSize?, brand: String?, headline: String?,
                              cta: String?, colors: String?, product: Product,
                              placeholders: Bool = false) throws(CoreError) -> [RenderedPrompt] {
        let parsed = try PromptTemplate(template)
        var prompts: [RenderedPrompt] = []
        for each in size.map({ [$0] }) ?? product.recommendedUploads {
            let numbers = try facts(for: each, product: product)
            var values = values(for: numbers, brand: brand, headline: headline, cta: cta, colors: colors)
            var standIns: Set<String> = []
            if placeholders {
                for (name, text) in Self.placeholders where values[name]?.isEmpty ?? true {
                    values[name] = text
                    standIns.insert(name)
                }
                values["text"] = "yes"
            }
            var pieces = try parsed.pieces(values)
            for index in pieces.indices where pieces[index].name.map(standIns.contains) ?? false {
                pieces[index].isPlaceholder = true
            }
            // The template's last line ends the prompt; its line break is the printer's business.
            while let last = pieces.last {
                if last.text.isEmpty { pieces.removeLast() }
                else if last.text.last?.isNewline == true { pieces[pieces.count - 1].text.removeLast() }
                else { break }
            }
            prompts.append(RenderedPrompt(facts: numbers, text: pieces.map(\.text).joined(), pieces: pieces))
        }
        return prompts
    }
}
