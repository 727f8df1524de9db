#if canImport(Glibc)
import Glibc
#elseif canImport(Darwin)
import Darwin
#endif

/// How an anchored slot's height is computed from its width.
public enum AnchoredRule: String, Sendable, CaseIterable {
    /// The SDK's own rule: `floor(w * 50 / 320)`, 50...90, 15% screen-height cap.
    case qartvelo
    /// An estimate of Google's anchored adaptive height, fitted to published measurements.
    case google

    /// True when the rule is an estimate rather than an exact published formula.
    public var isEstimate: Bool { self == .google }
}

/// A banner slot: its size in points, its scale, and so its size in pixels.
public struct Slot: Sendable, Hashable {
    /// Size in points.
    public let points: PixelSize
    /// Pixels per point.
    public let scale: Double

    public init(points: PixelSize, scale: Double) {
        self.points = points
        self.scale = scale
    }

    /// Size in pixels: points x scale, rounded to the nearest pixel.
    public var pixels: PixelSize {
        PixelSize(width: SlotMath.pixels(points.width, scale: scale),
                  height: SlotMath.pixels(points.height, scale: scale))
    }
}

/// The sizing rules of the banner specification (docs/reference.md, "render", "slot" and "select").
public enum SlotMath {
    /// Smallest and largest anchored banner height, in points.
    public static let anchoredHeightRange = 50...90
    /// Share of the screen height an anchored banner may take.
    public static let screenHeightCap = 0.15
    /// Default and minimum inline max height, in points.
    public static let defaultInlineMaxHeight = 250
    public static let minimumInlineMaxHeight = 32
    /// Accepted scales.
    public static let scaleRange = 1.0...4.0

    /// Points x scale, rounded to the nearest pixel.
    public static func pixels(_ points: Int, scale: Double) -> Int {
        Int((Double(points) * scale).rounded())
    }

    /// Validates a scale argument.
    public static func checkScale(_ scale: Double) throws(CoreError) {
        guard scale.isFinite, scaleRange.contains(scale) else {
            throw .invalidScale("scale must be a number from 1 to 4 (for example 3 or 2.625)")
        }
    }

    /// The anchored banner height in points for a width, by a rule, optionally capped by the screen height.
    public static func anchoredHeight(width: Int, screenHeight: Int? = nil, rule: AnchoredRule) -> Int {
        let raw: Int
        switch rule {
        case .qartvelo:
            raw = width * 50 / 320
        case .google:
            let w = Double(width)
            if width < 468 {
                raw = Int((w * 50 / 320).rounded())
            } else if width < 728 {
                raw = Int((w * 60 / 468).rounded())
            } else {
                raw = Int((w * 90 / 728).rounded())
            }
        }
        var height = min(max(raw, anchoredHeightRange.lowerBound), anchoredHeightRange.upperBound)
        if let screenHeight {
            let cap = Int(floor(screenHeightCap * Double(screenHeight)))
            height = max(min(height, cap), anchoredHeightRange.lowerBound)
        }
        return height
    }

    /// The anchored slot for a width in points.
    public static func anchoredSlot(width: Int, screenHeight: Int? = nil,
                                    rule: AnchoredRule, scale: Double) -> Slot {
        Slot(points: PixelSize(width: width,
                               height: anchoredHeight(width: width, screenHeight: screenHeight, rule: rule)),
             scale: scale)
    }

    /// The inline max height actually used: the default when absent, never below the minimum.
    public static func inlineMaxHeight(_ requested: Int?) -> Int {
        max(requested ?? defaultInlineMaxHeight, minimumInlineMaxHeight)
    }

    /// The biggest size that fits `box` keeping `content`'s proportions (scaling up or down).
    public static func fit(_ content: PixelSize, into box: PixelSize) -> PixelSize {
        let scale = min(Double(box.width) / Double(content.width),
                        Double(box.height) / Double(content.height))
        return PixelSize(width: min(box.width, max(1, Int((Double(content.width) * scale).rounded()))),
                         height: min(box.height, max(1, Int((Double(content.height) * scale).rounded()))))
    }
}
