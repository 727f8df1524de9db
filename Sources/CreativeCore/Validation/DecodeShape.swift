/// Why a shape is not decoded, decided from the header (``Catalog/maxDecodedSide``,
/// ``Catalog/maxAspectRatio``): what a pixel cap alone lets through. A 1x2,000,000 strip is
/// within 50 MP, yet libvips spends seconds per million rows on it; a 2,000,000x25 strip holds
/// gigabytes in the resampling window, which grows with the width.
public enum DecodeShapeIssue: Sendable, Equatable {
    /// A side of 0 pixels, which no format allows (PNG's IHDR, JPEG's SOF and GIF's screen
    /// must say at least 1): code `corrupt_image`.
    case zeroSide
    /// A side is longer than ``Catalog/maxDecodedSide``: code `side_too_long`.
    case sideTooLong
    /// Long side over short side is more than ``Catalog/maxAspectRatio``: code `extreme_aspect_ratio`.
    case extremeAspectRatio

    /// The shape rule `size` breaks, or nil when it may be decoded. A zero side first, then the
    /// longest side, then the ratio.
    public static func check(_ size: PixelSize) -> DecodeShapeIssue? {
        let long = max(size.width, size.height), short = min(size.width, size.height)
        if short < 1 { return .zeroSide }
        if long > Catalog.maxDecodedSide { return .sideTooLong }
        // long / short > ratio, in integers (short >= 1 here).
        if long > short.multipliedReportingOverflow(by: Catalog.maxAspectRatio).partialValue {
            return .extremeAspectRatio
        }
        return nil
    }

    /// The stable code.
    public var code: ValidationCode {
        switch self {
        case .zeroSide: .corruptImage
        case .sideTooLong: .sideTooLong
        case .extremeAspectRatio: .extremeAspectRatio
        }
    }

    /// A sentence for people about `size`.
    public func message(for size: PixelSize) -> String {
        switch self {
        case .zeroSide:
            "the header claims \(size), a side of 0 pixels, which the format does not allow; nothing was decoded"
        case .sideTooLong:
            "the header claims \(size), a side longer than \(Catalog.maxDecodedSide) px; nothing was decoded"
        case .extremeAspectRatio:
            "the header claims \(size), more elongated than \(Catalog.maxAspectRatio):1 (the catalogs' sizes "
                + "are at most about 8:1); nothing was decoded"
        }
    }
}
