import CreativeCore

/// Why a render was refused ``ImagingError/overWeightBudget(format:smallest:budget:shortfall:)``:
/// what its search tried, whether a file fitted the budget only under the quality floor
/// (``QualityFloor``), and what else would fit, each measured.
public struct BudgetShortfall: Sendable, Equatable {
    /// What the search wrote: `WebP qualities 85 down to 1`, `PNG lossless and palettes of 256
    /// down to 2 colours`; under `auto`, each format's joined.
    public var tried: String
    /// The best file that fitted the budget, refused as under the quality floor; nil when no file fitted.
    public var underFloor: Measured?
    /// A file of another format that fits the budget and keeps the floor; nil when none was
    /// found (``searchedOthers`` says whether any was tried).
    public var fits: Measured?
    /// Whether other formats were searched for ``fits``.
    public var searchedOthers: Bool

    /// One measured encoding.
    public struct Measured: Sendable, Equatable {
        /// `WebP quality 62`, `PNG, palette of 64 colours`.
        public var detail: String
        public var format: OutputFormat
        public var bytes: Int
        /// Luma SSIM against the lossless render.
        public var luma: Double

        /// `WebP fits at 61 KB (61233 bytes: WebP quality 62, luma SSIM 0.951)`.
        var fitsSentence: String {
            "\(format.displayName) fits at \(TextFormat.kilobytes(bytes)) (\(bytes) bytes: \(detail), "
                + "luma SSIM \(TextFormat.decimal(luma, decimals: 3)))"
        }
    }

    public init(tried: String, underFloor: Measured? = nil, fits: Measured? = nil, searchedOthers: Bool = false) {
        self.tried = tried
        self.underFloor = underFloor
        self.fits = fits
        self.searchedOthers = searchedOthers
    }

    /// The message of a refusal of `format`: the smallest file it reaches (`smallest`) or the one
    /// under the floor, then what would fit.
    func message(_ format: OutputFormat, smallest: Int, budget: Int) -> String {
        var sentence: String
        if let underFloor {
            sentence = "the best \(format.displayName) of this render that fits the weight budget of \(budget) bytes "
                + "(\(underFloor.detail), \(underFloor.bytes) bytes) has luma SSIM "
                + "\(TextFormat.decimal(underFloor.luma, decimals: 3)) against the lossless render, under the quality floor "
                + "of \(QualityFloor.text) (tried: \(tried))"
        } else {
            sentence = "no \(format.displayName) of this render fits the weight budget of \(budget) bytes: the smallest "
                + "of those tried (\(tried)) is \(smallest) bytes"
        }
        if let fits {
            sentence += "; \(fits.fitsSentence)"
        } else if searchedOthers {
            sentence += "; no other format fits it above the quality floor either: raise the budget"
        } else {
            sentence += "; raise the budget"
        }
        return sentence + "; nothing was written"
    }
}
