import CreativeCore

/// `auto`'s quality walk in one lossy format (``AutoEncoder/smallest()`` calls it for WebP, AVIF
/// and JPEG): where it starts, and the lowest quality of ``AutoEncoder/qualities`` that keeps the
/// target, each trial encoded, decoded and scored.
extension AutoEncoder {
    /// Where a search with no earlier render starts: flat art keeps the target from the lowest
    /// quality (the test artwork and gradients: WebP 40), photographs need high ones (the bench
    /// photo: 94), so each starts at or near its own answer: one trial for flat art, two for
    /// most photographs.
    static func firstQuality(flat: Bool) -> Int { flat ? 40 : 91 }

    /// AVIF's first quality where nothing earlier says: its scale runs lower than WebP's for the
    /// same look (the bench photo keeps the target at AVIF 82 where WebP needs 94).
    static let avifFirstQuality = 76

    /// Where the search in `format` starts: the earlier render's quality when it is on the same
    /// scale (AVIF's, or JPEG's and WebP's, which are close), else ``firstQuality(flat:)`` (or
    /// ``avifFirstQuality``; flat art starts at the lowest quality in every format).
    private func searchStart(_ format: OutputFormat, flat: Bool) -> Int {
        if let start, (startFormat == .avif) == (format == .avif) { return start }
        return format == .avif && !flat ? Self.avifFirstQuality : Self.firstQuality(flat: flat)
    }

    /// The lowest quality of ``qualities`` that qualifies (the score grows with quality), walked
    /// from ``start`` (the quality an earlier render of the creative took) or from
    /// ``firstQuality(flat:)``: down while it qualifies, else up until it does. A quality whose
    /// file is already no smaller than `limit` is not measured, nor any above it.
    func search(_ format: OutputFormat, under limit: Int?,
                        _ similarity: Similarity.Perceptual) throws(ImagingError) -> EncodedRender? {
        var found: EncodedRender?
        var tooLarge = false
        // The last trial kept luma and fell short on chroma alone; by more than the qualities
        // left can gain (``webpChromaOutOfReach``).
        var chromaAlone = false, chromaOutOfReach = false
        // Trials use WebP's plain RGB to YUV conversion, and a trial that keeps the target is the
        // file written: the sharp conversion takes 2-10 times the rest of the encode and, where
        // plain keeps the target, writes larger files (the flat test artwork's 28 renders: 4%).
        // It is tried only where it measurably keeps colour: a plain trial that keeps luma and
        // falls short on chroma by at most ``webpChromaOutOfReach`` (small coloured text) is
        // encoded again the sharp way at the same quality; once that kept the target, the
        // search's later trials are sharp from the start.
        let flat = analysis.repeats >= PNGWriter.unfilteredRepeatShare
        let canSharpen = format == .webp && EncoderFeatures.webpSharpYUV
        var sharp = false
        var lastScore: PerceptualScore?
        // Whether quality index `index` qualifies; an encoding at or over the limit does not (nor
        // will any higher quality: `tooLarge`).
        func tries(_ index: Int) throws(ImagingError) -> Bool {
            let recipe = AutoRecipe.lossy(format, Self.qualities[index])
            func trial(sharpYUV: Bool) throws(ImagingError) -> EncodedRender? {
                let bytes = try recipe.encode(reference, draft: !sharpYUV)
                if let limit = found?.bytes.count ?? limit, bytes.count >= limit {
                    tooLarge = true
                    return nil
                }
                let (kept, score) = try scored(recipe, bytes: bytes, similarity)
                lastScore = score
                chromaAlone = score.luma >= Self.lumaTarget && score.chroma < Self.chromaTarget
                chromaOutOfReach = chromaAlone && format == .webp && Self.qualities[index] >= Self.fullChromaQuality
                    && score.chroma < Self.chromaTarget - Self.webpChromaOutOfReach
                guard var candidate = kept else { return nil }
                candidate.plainYUVKeepsTarget = !sharpYUV || !EncoderFeatures.webpSharpYUV
                return candidate
            }
            var candidate = try trial(sharpYUV: sharp)
            if candidate == nil, canSharpen, !sharp, !tooLarge, chromaAlone,
               let last = lastScore, last.chroma >= Self.chromaTarget - Self.webpChromaOutOfReach {
                candidate = try trial(sharpYUV: true)
                // Later trials go sharp at once, but where the choice decides for a larger canvas,
                // which is written plain wherever plain keeps the target there.
                if candidate != nil, !decidesForLarger { sharp = true }
            }
            guard let candidate else { return false }
            found = candidate
            return true
        }
        let from = searchStart(format, flat: flat)
        var index = Self.qualities.lastIndex(where: { $0 <= from }) ?? 0
        if try tries(index) {
            while index > 0, try tries(index - 1) { index -= 1 }
        } else {
            while !tooLarge, !chromaOutOfReach, index < Self.qualities.count - 1 {
                index += 1
                // AVIF short on chroma alone under 4:2:0: the qualities below full chroma rarely
                // reach it (text-heavy art in `process` walked 70, 76, 82, 88 to keep it at 91,
                // chroma 0.992), so the walk goes to the first full-chroma one.
                if format == .avif, chromaAlone, Self.qualities[index] < Self.fullChromaQuality,
                   let full = Self.qualities.firstIndex(where: { $0 >= Self.fullChromaQuality }) {
                    index = full
                }
                if try tries(index) { break }
            }
        }
        return found
    }
}
