import CreativeCore

/// What `auto` may try for one canvas within a budget, decided before the render. On a canvas
/// of more than ``AutoEncoder/searchMaxPixels`` the search runs on a smaller render of the same
/// placement (the most detail per pixel, so what keeps the quality target there keeps it in the
/// larger render, as `process` decides on its smallest render), and the whole canvas is then
/// written with the recipe found. Only recipes whose search and encoder fit the budget are
/// tried; when none does, the render is lossless PNG without a search (held when it fits, else
/// streamed), and its encoding line says so. Narrowed to some formats (`allowed`: a file the
/// caller named `.webp`, or the formats it listed), only their recipes are tried, and without PNG
/// the render that would be lossless PNG is the allowed lossy format at its default quality.
/// AVIF is tried only where it is allowed by name (``OutputFormat/autoDefault`` leaves it out),
/// on canvases of at most ``AutoEncoder/avifMaxPixels``.
public struct AutoPlan: Sendable, Equatable {
    /// The encoders the search may choose among; empty when only lossless PNG fits.
    public let kinds: Set<JobCost.EncoderKind>
    /// The pixels the search runs on (the canvas, or the smaller render's).
    public let searchPixels: Int
    /// Bytes the plan holds at its peak: the search, then the final encoding.
    public let memory: Int

    /// - Parameter oneOfMany: `process` (near-lossless WebP is not tried for many renders).
    /// - Parameter allowed: the formats `auto` may write; nil for ``OutputFormat/autoDefault``.
    /// - Parameter alpha: the render's alpha band, which a lossy WebP of the canvas compresses.
    public init(canvas: PixelSize, memoryBudget: Int, oneOfMany: Bool, allowed: Set<OutputFormat>? = nil,
                alpha: JobCost.AlphaBand) {
        let allowed = allowed ?? OutputFormat.autoDefault
        let pixels = canvas.pixelCount ?? Int.max
        searchPixels = min(pixels, AutoEncoder.searchMaxPixels)
        let search = JobCost.autoSearchBytes(pixels: searchPixels)
        let sampled = searchPixels < pixels
        // Lossless PNG needs no search: held when it fits, else streamed (``Encoder``). Without
        // PNG, the allowed lossy format unsearched takes its place.
        let unsearched = allowed.contains(.png) ? JobCost.heldPNG(pixels, memoryBudget)
            : allowed.contains(.webp) ? .webp : allowed.contains(.avif) ? .avif : .jpeg
        var kinds: Set<JobCost.EncoderKind> = []
        var peak = unsearched == .webp ? JobCost.lossyWebPBytes(pixels: pixels, alpha: alpha, memoryBudget: memoryBudget)
            : unsearched == .avif ? JobCost.avifBytes(pixels: pixels, alpha: alpha)
            : JobCost.encoderBytes(unsearched, pixels: pixels)
        var candidates: [JobCost.EncoderKind] = [.palette, .webp, .jpeg]
        if AutoEncoder.triesAVIF(pixels: pixels) { candidates.append(.avif) }
        if !oneOfMany && pixels <= AutoEncoder.nearLosslessMaxPixels { candidates.append(.webpLossless) }
        candidates.removeAll { !allowed.contains($0.format) }
        for kind in candidates {
            // Tried on the search's pixels, and written once more over the canvas when sampled
            // (the search's buffers are given back by then).
            // The search charges a WebP candidate with transparent bars; the artwork's own alpha
            // band holds more (``JobCost/AlphaBand``).
            // AVIF is not in the search's own charge: its encoder is charged on the search's pixels.
            let candidate = kind == .webpLossless ? JobCost.encoderBytes(kind, pixels: searchPixels)
                : kind == .webp ? JobCost.multiplying(searchPixels, alpha.webpBytesPerPixel - JobCost.AlphaBand.bars.webpBytesPerPixel)
                : kind == .avif ? JobCost.avifBytes(pixels: searchPixels, alpha: alpha)
                : 0
            let trial = JobCost.adding(search, max(0, candidate))
            let final = !sampled ? 0 : kind == .webp ? JobCost.lossyWebPBytes(pixels: pixels, alpha: alpha, memoryBudget: memoryBudget)
                : kind == .avif ? JobCost.avifBytes(pixels: pixels, alpha: alpha)
                : JobCost.encoderBytes(kind, pixels: pixels)
            let needed = max(trial, final)
            if needed <= memoryBudget {
                kinds.insert(kind)
                peak = max(peak, needed)
            }
        }
        // A canvas decided lossless on a smaller render, over its weight budget: WebP, when it fits.
        if sampled, allowed.contains(.png), allowed.contains(.webp),
           let fallback = JobCost.budgetFallback(.webp, pixels: pixels, memoryBudget, alpha: alpha) {
            peak = max(peak, fallback)
        }
        // With a lossy candidate the search tries lossless PNG on its pixels too.
        if !kinds.isEmpty && allowed.contains(.png) { kinds.insert(.png) }
        self.kinds = kinds
        memory = peak
    }

    /// True when no lossy candidate fits: `auto` writes lossless PNG without searching (or,
    /// narrowed without PNG, the allowed lossy format).
    public var losslessOnly: Bool { kinds.isEmpty }
}
