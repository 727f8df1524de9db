/// Where aspect-fit content lands inside a slot: its size and top-left corner, in pixels.
public struct Placement: Sendable, Hashable {
    /// The slot (output) size.
    public let canvas: PixelSize
    /// The content size after scaling.
    public let content: PixelSize
    /// Left offset of the content.
    public let x: Int
    /// Top offset of the content.
    public let y: Int

    /// Aspect fit, letterboxed (DESIGN section 3 "Render"): scale `min(W/w, H/h)`,
    /// never above 1 when `enlarge` is false; content rounded to the nearest pixel
    /// (at least 1); centred with `floor((W - w') / 2)`, `floor((H - h') / 2)`.
    public init(source: PixelSize, canvas: PixelSize, enlarge: Bool = true) {
        var scale = min(Double(canvas.width) / Double(source.width),
                        Double(canvas.height) / Double(source.height))
        if !enlarge { scale = min(scale, 1) }
        let width = min(canvas.width, max(1, Int((Double(source.width) * scale).rounded())))
        let height = min(canvas.height, max(1, Int((Double(source.height) * scale).rounded())))
        self.canvas = canvas
        self.content = PixelSize(width: width, height: height)
        self.x = (canvas.width - width) / 2
        self.y = (canvas.height - height) / 2
    }

    /// Share of the slot's pixels that show the content, 0...1.
    public var fillShare: Double { Double(content.area) / Double(canvas.area) }
}
