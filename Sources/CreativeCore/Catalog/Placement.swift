/// A rectangle in whole pixels: its top-left corner and its size.
public struct PixelRect: Sendable, Hashable, CustomStringConvertible {
    public let x: Int
    public let y: Int
    public let width: Int
    public let height: Int

    public init(x: Int, y: Int, width: Int, height: Int) {
        self.x = x
        self.y = y
        self.width = width
        self.height = height
    }

    /// The rectangle between edges given in points (left, top, right, bottom), each edge at
    /// `points x scale` rounded to the nearest pixel, so neighbouring rectangles share edges.
    public init(edgesInPoints edges: (left: Int, top: Int, right: Int, bottom: Int), scale: Double) {
        let left = SlotMath.pixels(edges.left, scale: scale), top = SlotMath.pixels(edges.top, scale: scale)
        self.init(x: left, y: top, width: SlotMath.pixels(edges.right, scale: scale) - left,
                  height: SlotMath.pixels(edges.bottom, scale: scale) - top)
    }

    /// The whole of a size, from (0, 0).
    public init(_ size: PixelSize) { self.init(x: 0, y: 0, width: size.width, height: size.height) }

    /// The size of the rectangle.
    public var size: PixelSize { PixelSize(width: width, height: height) }

    /// The smallest rectangle holding both.
    public func union(_ other: PixelRect) -> PixelRect {
        let left = min(x, other.x), top = min(y, other.y)
        let right = max(x + width, other.x + other.width), bottom = max(y + height, other.y + other.height)
        return PixelRect(x: left, y: top, width: right - left, height: bottom - top)
    }

    /// `x,y WxH`.
    public var description: String { "\(x),\(y) \(width)x\(height)" }

    /// `{"x": ..., "y": ..., "width": ..., "height": ...}`.
    public var json: JSONValue {
        .object([("x", .int(x)), ("y", .int(y)), ("width", .int(width)), ("height", .int(height))])
    }
}

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

    /// Aspect fit, letterboxed (docs/reference.md, "render"): scale `min(W/w, H/h)`,
    /// never above 1 when `enlarge` is false; content rounded to the nearest pixel
    /// (at least 1); centred with `floor((W - w') / 2)`, `floor((H - h') / 2)`.
    public init(source: PixelSize, canvas: PixelSize, enlarge: Bool = true) {
        self.init(source: source, canvas: canvas, area: PixelRect(canvas), enlarge: enlarge)
    }

    /// Aspect fit into `area`, a part of the canvas (an interstitial's safe area), centred in it
    /// by the same rule; the rest of the canvas is letterbox.
    public init(source: PixelSize, canvas: PixelSize, area: PixelRect, enlarge: Bool = true) {
        var scale = min(Double(area.width) / Double(source.width),
                        Double(area.height) / Double(source.height))
        if !enlarge { scale = min(scale, 1) }
        let width = min(area.width, max(1, Int((Double(source.width) * scale).rounded())))
        let height = min(area.height, max(1, Int((Double(source.height) * scale).rounded())))
        self.canvas = canvas
        self.content = PixelSize(width: width, height: height)
        self.x = area.x + (area.width - width) / 2
        self.y = area.y + (area.height - height) / 2
    }

    /// Where the content lands, as a rectangle of the canvas.
    public var contentRect: PixelRect { PixelRect(x: x, y: y, width: content.width, height: content.height) }

    /// Share of the slot's pixels that show the content, 0...1.
    public var fillShare: Double { Double(content.area) / Double(canvas.area) }
}
