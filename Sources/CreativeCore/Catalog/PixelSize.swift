/// A width and height in whole units (pixels or points, as the caller says).
public struct PixelSize: Hashable, Sendable, CustomStringConvertible, Comparable {
    public let width: Int
    public let height: Int

    public init(width: Int, height: Int) {
        self.width = width
        self.height = height
    }

    /// Width divided by height.
    public var aspectRatio: Double { Double(width) / Double(height) }

    /// Width times height.
    public var area: Int { width * height }

    /// Width x height, or nil when it does not fit in an Int (a header's two 32-bit sides can overflow).
    public var pixelCount: Int? {
        let pixels = width.multipliedReportingOverflow(by: height)
        return pixels.overflow ? nil : pixels.partialValue
    }

    /// True when width x height is over `cap` (or too large to count): the pixel cap.
    public func exceeds(pixelCap cap: Int) -> Bool { pixelCount.map { $0 > cap } ?? true }

    /// `"WxH"`, the form every command and JSON field uses.
    public var description: String { "\(width)x\(height)" }

    /// A strip (width/height >= 2) or a rectangle.
    public var shape: Shape { aspectRatio >= 2 ? .strip : .rectangle }

    /// The largest accepted side of a `WxH` argument.
    public static let maximumSide = 16_384

    /// Parses `"WxH"` (both positive integers, at most ``maximumSide``).
    /// - Throws: ``CoreError/invalidSize(_:)`` naming what is wrong.
    public init(parsing text: String) throws(CoreError) {
        for unit in ["px", "pt"] where text.lowercased().hasSuffix(unit) && text.count > unit.count {
            let bare = String(text.dropLast(unit.count))
            if (try? PixelSize(parsing: bare)) != nil {
                throw .invalidSize("'\(TextFormat.clipped(text))': drop the unit, write \(bare) (the option says "
                                   + "whether it counts points or pixels)")
            }
        }
        let parts = text.lowercased().split(separator: "x", omittingEmptySubsequences: false)
        guard parts.count == 2 else {
            throw .invalidSize("'\(text)' is not WxH (for example 390x61)")
        }
        let isWholeNumber = { (part: Substring) in !part.isEmpty && part.allSatisfy { $0.isASCII && $0.isNumber } }
        guard parts.allSatisfy(isWholeNumber), let width = Int(parts[0]), let height = Int(parts[1]) else {
            throw .invalidSize("'\(text)' is not WxH with whole numbers (for example 390x61)")
        }
        guard width > 0, height > 0 else {
            throw .invalidSize("'\(text)': width and height must be at least 1")
        }
        guard width <= Self.maximumSide, height <= Self.maximumSide else {
            throw .invalidSize("'\(text)': width and height must be at most \(Self.maximumSide)")
        }
        self.init(width: width, height: height)
    }

    public static func < (lhs: PixelSize, rhs: PixelSize) -> Bool {
        (lhs.width, lhs.height) < (rhs.width, rhs.height)
    }
}

/// A creative's proportions class: strips serve anchored slots, rectangles only inline ones.
public enum Shape: String, Sendable {
    /// width / height >= 2.
    case strip
    /// width / height < 2 (300x250, for example).
    case rectangle
}
