import CreativeCore

/// What ``Encoder/encode(_:_:)`` is asked: the format and everything that decides how one render
/// is written, built by its callers (the render pipeline, a job's renderer, the encoder itself).
public struct EncodeRequest: Sendable {
    /// The format asked for, or `auto`.
    public var format: FormatChoice
    /// A lossy format's quality; nil for ``Encoder/defaultQuality``.
    public var quality: Int?
    /// Where the artwork sits in the canvas; `auto` measures quality there (bars are the same in
    /// every encoding), a weight budget's quality floor too. Nil for the whole canvas.
    public var content: PixelRect?
    /// What the job's budget leaves for the output (``JobCost``): a PNG render that needs more is
    /// written by libvips' streaming PNG saver (lossless) instead of being held in memory, and
    /// `auto` tries only what fits (``AutoPlan``).
    public var memoryBudget: Int
    /// The largest file, in bytes (nil: none): the best encoding that fits (``WeightBudgetSearch``).
    public var weightBudget: Int?
    /// The render's alpha band as the job was charged for it (``JobCost/AlphaBand``); nil:
    /// transparent bars when the image has an alpha band.
    public var alpha: JobCost.AlphaBand?
    /// How a fixed `webp` render is saved (lossless, effort).
    public var webp: Encoder.WebPChoice
    /// What only `auto` reads.
    public var auto: AutoOptions

    /// A request for `format`; every other field has the value a render without options takes.
    public init(format: FormatChoice, quality: Int? = nil, content: PixelRect? = nil,
                memoryBudget: Int = JobLimits.defaultMemoryBudget, weightBudget: Int? = nil,
                alpha: JobCost.AlphaBand? = nil, webp: Encoder.WebPChoice = Encoder.WebPChoice(),
                auto: AutoOptions = AutoOptions()) {
        self.format = format
        self.quality = quality
        self.content = content
        self.memoryBudget = memoryBudget
        self.weightBudget = weightBudget
        self.alpha = alpha
        self.webp = webp
        self.auto = auto
    }

    /// The request for a render of `settings` (its format, quality, weight budget, WebP options
    /// and `auto`'s formats), its artwork at `content`, within `memoryBudget`.
    public init(_ settings: RenderSettings, content: PixelRect?, memoryBudget: Int, alpha: JobCost.AlphaBand?) {
        self.init(format: settings.format, quality: settings.quality, content: content, memoryBudget: memoryBudget,
                  weightBudget: settings.weightBudget, alpha: alpha,
                  webp: Encoder.WebPChoice(lossless: settings.webpLossless, effort: settings.webpEffort),
                  auto: AutoOptions(formats: settings.autoFormats))
    }

    /// What `auto` reads besides the rest: the formats and encoders it may choose among, and
    /// what an earlier render of the same creative decided.
    public struct AutoOptions: Sendable {
        /// Write the render this way instead of searching (what the search decided on a smaller
        /// render of the same placement).
        public var recipe: AutoRecipe?
        /// `auto` decides for many renders (`process`): near-lossless WebP, slow and
        /// memory-hungry, is left out.
        public var forOneOfMany: Bool
        /// The formats `auto` may choose among (nil: ``OutputFormat/autoDefault``, ``AutoPlan``);
        /// without PNG, what would be lossless PNG is the allowed lossy format. JPEG needs an
        /// opaque render.
        public var formats: Set<OutputFormat>?
        /// For a smaller render of a large canvas, the encoders the large canvas can afford
        /// (``AutoPlan/kinds``): the search chooses among those only.
        public var kinds: Set<JobCost.EncoderKind>?
        /// Where the quality search starts (an earlier render's).
        public var startQuality: Int?
        /// The format of that render (nil: JPEG or WebP).
        public var startFormat: OutputFormat?
        /// The image is a smaller render of a larger canvas (``RenderSettings/searchSample()``): a
        /// lossy WebP chosen is also measured with the plain RGB to YUV conversion
        /// (``EncodedRender/plainYUVKeepsTarget``).
        public var decidesForLarger: Bool
        /// With ``recipe``, the plain conversion kept the target on the smaller render: a lossy
        /// WebP is written with it.
        public var plainYUVKept: Bool

        /// `auto`'s options; by default it searches among its default formats, for one render.
        public init(recipe: AutoRecipe? = nil, forOneOfMany: Bool = false, formats: Set<OutputFormat>? = nil,
                    kinds: Set<JobCost.EncoderKind>? = nil, startQuality: Int? = nil, startFormat: OutputFormat? = nil,
                    decidesForLarger: Bool = false, plainYUVKept: Bool = false) {
            self.recipe = recipe
            self.forOneOfMany = forOneOfMany
            self.formats = formats
            self.kinds = kinds
            self.startQuality = startQuality
            self.startFormat = startFormat
            self.decidesForLarger = decidesForLarger
            self.plainYUVKept = plainYUVKept
        }
    }
}
