/// The close button of a full-screen ad and the part of each artwork it covers.
///
/// The SDK draws the button after 2 seconds (`002`) in the top-right corner of the safe area: a
/// square of ``sizePoints``, the close-event region of the IAB's MRAID 3.0 ("a 50x50
/// density-independent pixel area in the top right corner of the ad container"), flush with the
/// safe area's top and right edges (``insetPoints``), as the SDK draws it.
public enum CloseButton {
    /// Side of the button's square, in points (MRAID's close-event region).
    public static let sizePoints = 50
    /// Gap between the square and the safe area's top and right edges, in points.
    public static let insetPoints = 0

    /// The button's square in a full-screen slot, in screen pixels (at the device's scale, or
    /// at `scale`): each edge is its point position x scale, rounded, as the safe area's.
    public static func square(in deviceSlot: DeviceSlot, scale: Double? = nil) -> PixelRect {
        let screen = deviceSlot.screenPoints, insets = deviceSlot.insets
        let right = screen.width - insets.right - insetPoints
        let top = insets.top + insetPoints
        return PixelRect(edgesInPoints: (right - sizePoints, top, right, top + sizePoints),
                         scale: scale ?? deviceSlot.slot.scale)
    }

    /// The part of the artwork the button covers in one slot, in artwork pixels (rounded outwards,
    /// so every artwork pixel under the button is inside), or nil when the button sits over the bars.
    public static func covered(in assignment: SlotAssignment) -> PixelRect? {
        let button = square(in: assignment.deviceSlot)
        let content = assignment.placement.contentRect
        let left = max(button.x, content.x), top = max(button.y, content.y)
        let right = min(button.x + button.width, content.x + content.width)
        let bottom = min(button.y + button.height, content.y + content.height)
        guard left < right, top < bottom else { return nil }
        let artwork = assignment.artwork
        let scaleX = Double(artwork.width) / Double(content.width)
        let scaleY = Double(artwork.height) / Double(content.height)
        // The small tolerance keeps an exact product (12.0000000001) from rounding outwards.
        let x0 = max(0, Int((Double(left - content.x) * scaleX + 1e-9).rounded(.down)))
        let y0 = max(0, Int((Double(top - content.y) * scaleY + 1e-9).rounded(.down)))
        let x1 = min(artwork.width, Int((Double(right - content.x) * scaleX - 1e-9).rounded(.up)))
        let y1 = min(artwork.height, Int((Double(bottom - content.y) * scaleY - 1e-9).rounded(.up)))
        return PixelRect(x: x0, y: y0, width: x1 - x0, height: y1 - y0)
    }

    /// The close zone of an artwork size: the union of what the button covers over every device
    /// and orientation where the size is picked (the product's recommended sizes counting as
    /// uploaded), in artwork pixels; nil when the button covers it nowhere.
    public static func zone(for size: PixelSize, product: Product) -> PixelRect? {
        zone(over: DevicePlan.assignments(for: size, campaign: DevicePlan.recommendedCampaign(with: size, product: product),
                                          product: product))
    }

    /// The union of what the button covers over some assignments of one artwork.
    public static func zone(over assignments: [SlotAssignment]) -> PixelRect? {
        assignments.compactMap(covered(in:)).reduce(nil) { union, rect in union.map { $0.union(rect) } ?? rect }
    }
}
