/// How `process` writes a job's renders: one value that travels from the request a surface read
/// (``ProcessRequest``, a worker's job fields) through the operation and the job to each render.
public struct ProcessSettings: Sendable, Equatable {
    /// How every render is written: `auto` (the smallest encoding that keeps the quality target)
    /// or one format.
    public var format: FormatChoice
    /// For `auto`, the formats it chooses among (`formats`); nil for ``OutputFormat/autoDefault``.
    public var autoFormats: Set<OutputFormat>?
    /// Every render's weight budget: the budget asked and the profiles' weights for its size.
    public var weightBudget: RenderWeightBudget
    /// The campaign's other sizes (`with`): the creative is rendered only into the slots where the
    /// ad server serves it among them; empty when the creative is the whole campaign.
    public var campaign: [PixelSize]

    public init(format: FormatChoice = .auto, autoFormats: Set<OutputFormat>? = nil,
                weightBudget: RenderWeightBudget = RenderWeightBudget(), campaign: [PixelSize] = []) {
        self.format = format
        self.autoFormats = autoFormats
        self.weightBudget = weightBudget
        self.campaign = campaign
    }
}
