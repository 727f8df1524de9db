/// How large a render each output format can hold (``OutputFormat/Entry/maxSide``), checked when
/// a request or command line is read, before any work: the CLI (`render`) and the service
/// (`/v1/render`) read this one rule.
extension FormatChoice {
    /// The largest side a render in this choice can have: the format's, or for `auto`, which
    /// may write any of them, the smallest of theirs (WebP's).
    public var maxSide: Int {
        fixed?.maxSide ?? OutputFormat.autoChoices.map(\.maxSide).min() ?? PixelSize.maximumSide
    }

    /// Why a render of `canvas` pixels cannot be written in this choice (a sentence, without
    /// the flag or parameter that named the format: the CLI and the service add their own), or
    /// nil when it fits.
    public func canvasRefusal(_ canvas: PixelSize) -> String? {
        let limit = maxSide
        guard canvas.width > limit || canvas.height > limit else { return nil }
        if let fixed {
            return "\(canvas) pixels is over \(limit) pixels a side, the most \(fixed.displayName) holds"
        }
        let fitting = OutputFormat.allCases.filter { canvas.width <= $0.maxSide && canvas.height <= $0.maxSide }
        let smallest = OutputFormat.autoChoices.filter { $0.maxSide == limit }.map(\.displayName)
        return "\(canvas) pixels is over \(limit) pixels a side, the most auto can write (it may pick "
            + "\(TextFormat.listed(smallest)))"
            + (fitting.isEmpty ? "" : "; " + fitting.map(\.rawValue).joined(separator: " or ") + " can hold it")
    }
}
