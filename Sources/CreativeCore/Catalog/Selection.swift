/// The three ways the ad server picks a creative for a request.
public enum SelectionMode: String, Sendable, CaseIterable {
    /// Width + banner height (an anchored adaptive banner): the strip with the closest aspect ratio.
    case anchored
    /// Width + max height: every candidate fitted; the one shown biggest.
    case inline
    /// Width only: the widest strip that fits, else the narrowest.
    case legacy
    /// A full-screen safe area (interstitials): artwork of the screen's orientation first, then
    /// the closest aspect ratio; the other orientation is letterboxed when it is all there is.
    case fullScreen = "full_screen"
    /// A fixed standard slot (companions): the closest aspect ratio, then the sharpest artwork
    /// that needs no upscaling, else the largest.
    case standardSlot = "standard_slot"

    /// The modes a product's selection rule uses.
    public static func modes(for product: Product) -> [SelectionMode] {
        switch product.selectionRule {
        case .aspectRatio: [.anchored, .inline, .legacy]
        case .orientationThenAspectRatio: [.fullScreen]
        case .aspectRatioThenSharpest: [.standardSlot]
        }
    }
}

/// One candidate of a selection and how it scored.
public struct RankedCandidate: Sendable {
    /// Index of the candidate in the caller's list.
    public let index: Int
    /// Its pixel size.
    public let size: PixelSize
    /// Whether the mode may pick it at all (anchored modes exclude rectangles).
    public let eligible: Bool
    /// The mode's score: `|ln(ratio / slot ratio)|` (anchored, full screen, standard slot; lower wins),
    /// the fitted area in pixels (inline, higher wins), or the width (legacy).
    public let score: Double
    /// Why it was excluded, when it was.
    public let note: String?
}

/// The outcome of a selection: the winner and every candidate ranked, best first.
public struct SelectionResult: Sendable {
    public let mode: SelectionMode
    /// The request, in pixels (height is the banner height or max height; nil in legacy mode).
    public let width: Int
    public let height: Int?
    /// Index (into the caller's list) of the winner.
    public let winner: Int
    /// Eligible candidates best first, then the excluded ones in input order.
    public let ranking: [RankedCandidate]
}

/// The ad server's selection rules (docs/reference.md, "render", "slot" and "select").
public enum Selection {
    /// Picks among `candidates` (pixel sizes) for a request of `width` x `height` pixels.
    /// - Parameters:
    ///   - height: the banner height (anchored) or max height (inline); ignored in legacy mode.
    /// - Throws: ``CoreError/noEligibleCandidate(_:)`` when the mode can pick none of them,
    ///   ``CoreError/invalidNumber(_:)`` for a missing or non-positive request size.
    ///   - product: whose catalog order breaks ties.
    public static func select(_ candidates: [PixelSize], mode: SelectionMode,
                              width: Int, height: Int?, product: Product) throws(CoreError) -> SelectionResult {
        guard width > 0 else { throw .invalidNumber("width must be at least 1 pixel") }
        if mode != .legacy {
            guard let height, height > 0 else {
                throw .invalidNumber("\(mode.rawValue) selection needs a height of at least 1 pixel")
            }
        }
        guard !candidates.isEmpty else { throw .noEligibleCandidate("no candidates given") }
        let ranked: [RankedCandidate]
        let tieBreak = { (a: RankedCandidate, b: RankedCandidate) in Self.tieBreak(a, b, product: product) }
        switch mode {
        case .anchored: ranked = adaptive(candidates, slot: PixelSize(width: width, height: height ?? 1), tieBreak)
        case .inline: ranked = inline(candidates, box: PixelSize(width: width, height: height ?? 1), tieBreak)
        case .legacy: ranked = legacy(candidates, width: width, tieBreak)
        case .fullScreen:
            ranked = fullScreen(candidates, area: PixelSize(width: width, height: height ?? 1), product: product)
        case .standardSlot:
            ranked = standardSlot(candidates, slot: PixelSize(width: width, height: height ?? 1), product: product)
        }
        guard let best = ranked.first, best.eligible else {
            throw .noEligibleCandidate("no candidate is a strip (width/height >= 2); rectangles serve inline slots only")
        }
        return SelectionResult(mode: mode, width: width, height: mode == .legacy ? nil : height,
                               winner: best.index, ranking: ranked)
    }

    /// Tie-break shared by the modes: larger pixel width, then catalog order, then input order.
    private static func tieBreak(_ a: RankedCandidate, _ b: RankedCandidate, product: Product) -> Bool {
        if a.size.width != b.size.width { return a.size.width > b.size.width }
        return catalogOrder(a, b, product: product)
    }

    /// Catalog order of the product, then input order.
    private static func catalogOrder(_ a: RankedCandidate, _ b: RankedCandidate, product: Product) -> Bool {
        let orderA = product.order(of: a.size) ?? Int.max
        let orderB = product.order(of: b.size) ?? Int.max
        if orderA != orderB { return orderA < orderB }
        return a.index < b.index
    }

    /// Portrait (taller than wide), landscape, or nil for a square (matching both).
    private static func orientation(of size: PixelSize) -> Orientation? {
        size.height > size.width ? .portrait : size.width > size.height ? .landscape : nil
    }

    private static func fullScreen(_ candidates: [PixelSize], area: PixelSize, product: Product) -> [RankedCandidate] {
        let wanted = orientation(of: area)
        let ranked = candidates.enumerated().map { index, size in
            let matches = wanted == nil || orientation(of: size) == nil || orientation(of: size) == wanted
            return RankedCandidate(index: index, size: size, eligible: true,
                                   score: aspectDistance(size, area),
                                   note: matches ? nil : "other orientation: letterboxed")
        }
        return ranked.sorted { a, b in
            if (a.note == nil) != (b.note == nil) { return a.note == nil }
            if abs(a.score - b.score) > epsilon { return a.score < b.score }
            return catalogOrder(a, b, product: product)
        }
    }

    private static let epsilon = 1e-9

    /// `|ln(ratio / slot ratio)|`: 0 for the same proportions, the same for too wide and too tall.
    private static func aspectDistance(_ size: PixelSize, _ slot: PixelSize) -> Double {
        abs(logarithm(size.aspectRatio / slot.aspectRatio))
    }

    /// The fixed standard slot rule: closest aspect ratio first. Among equally close (within
    /// 1e-9), artwork whose aspect-fit scale into the slot is at most 1 (no upscaling) comes
    /// before artwork that must be enlarged; among the first the least downscaled (the smallest)
    /// wins, among the second the least enlarged (the largest); then catalog order, input order.
    private static func standardSlot(_ candidates: [PixelSize], slot: PixelSize, product: Product) -> [RankedCandidate] {
        func scale(_ size: PixelSize) -> Double {
            min(Double(slot.width) / Double(size.width), Double(slot.height) / Double(size.height))
        }
        let ranked = candidates.enumerated().map { index, size in
            RankedCandidate(index: index, size: size, eligible: true, score: aspectDistance(size, slot),
                            note: scale(size) > 1 ? "needs upscaling" : nil)
        }
        return ranked.sorted { a, b in
            if abs(a.score - b.score) > epsilon { return a.score < b.score }
            let scaleA = scale(a.size), scaleB = scale(b.size)
            if (scaleA <= 1) != (scaleB <= 1) { return scaleA <= 1 }
            if scaleA != scaleB { return scaleA <= 1 ? scaleA > scaleB : scaleA < scaleB }
            return catalogOrder(a, b, product: product)
        }
    }

    private static func excludedRectangles(_ candidates: [PixelSize]) -> [RankedCandidate] {
        candidates.enumerated().filter { $0.element.shape == .rectangle }.map {
            RankedCandidate(index: $0.offset, size: $0.element, eligible: false, score: .nan,
                            note: "rectangle: inline slots only")
        }
    }

    private typealias TieBreak = (RankedCandidate, RankedCandidate) -> Bool

    private static func adaptive(_ candidates: [PixelSize], slot: PixelSize, _ tieBreak: TieBreak) -> [RankedCandidate] {
        let strips = candidates.enumerated().filter { $0.element.shape == .strip }.map {
            RankedCandidate(index: $0.offset, size: $0.element, eligible: true,
                            score: aspectDistance($0.element, slot), note: nil)
        }
        let sorted = strips.sorted { a, b in
            if abs(a.score - b.score) > epsilon { return a.score < b.score }
            return tieBreak(a, b)
        }
        return sorted + excludedRectangles(candidates)
    }

    private static func inline(_ candidates: [PixelSize], box: PixelSize, _ tieBreak: TieBreak) -> [RankedCandidate] {
        let fitted = candidates.enumerated().map {
            RankedCandidate(index: $0.offset, size: $0.element, eligible: true,
                            score: Double(SlotMath.fit($0.element, into: box).area), note: nil)
        }
        return fitted.sorted { a, b in
            if a.score != b.score { return a.score > b.score }
            return tieBreak(a, b)
        }
    }

    private static func legacy(_ candidates: [PixelSize], width: Int, _ tieBreak: TieBreak) -> [RankedCandidate] {
        let strips = candidates.enumerated().filter { $0.element.shape == .strip }.map {
            RankedCandidate(index: $0.offset, size: $0.element, eligible: true,
                            score: Double($0.element.width),
                            note: $0.element.width <= width ? nil : "wider than the screen")
        }
        let fitting = strips.filter { $0.size.width <= width }.sorted { a, b in
            if a.size.width != b.size.width { return a.size.width > b.size.width }
            return tieBreak(a, b)
        }
        let tooWide = strips.filter { $0.size.width > width }.sorted { a, b in
            if a.size.width != b.size.width { return a.size.width < b.size.width }
            return tieBreak(a, b)
        }
        return fitting + tooWide + excludedRectangles(candidates)
    }
}
