/// Errors of the pure rules: every case is a caller mistake that the CLI maps to a usage error.
public enum CoreError: Error, Equatable, Sendable, CustomStringConvertible {
    /// A `WxH` text that is malformed, zero, negative or too large.
    case invalidSize(String)
    /// A size that is well formed but not one of the product's accepted sizes.
    case sizeNotAllowed(PixelSize, product: Product)
    /// A scale that is not a finite number between 1 and 4.
    case invalidScale(String)
    /// A width, height or other number that is malformed or out of range.
    case invalidNumber(String)
    /// A value an option does not take: a colour, a name not in its list (a device, a profile, a
    /// format, a choice), a word that is not true or false, a text over its length.
    case invalidValue(String)
    /// A selection with no candidate that the mode may pick (say, only rectangles for an anchored slot).
    case noEligibleCandidate(String)
    /// A prompt template that is malformed, or uses a placeholder no value was supplied for.
    /// Templates ship with the tool, so this is a bug caught by tests, never a user's mistake.
    case templateError(String)
    /// Options that do not go together, or one an operation needs and was not given.
    case invalidRequest(String)
    /// A canvas over the output format's own limit (WebP 16383 pixels a side) or a caller's cap.
    case canvasTooLarge(String)
    /// An embedded platform profile (`Profiles/*.json`) that does not read strictly. The files
    /// ship in the binary, so this is a bug caught by tests, never a user's mistake.
    case profileData(String)

    public var description: String {
        switch self {
        case .invalidSize(let text), .invalidScale(let text), .invalidNumber(let text), .invalidValue(let text),
             .noEligibleCandidate(let text), .templateError(let text), .invalidRequest(let text),
             .canvasTooLarge(let text), .profileData(let text):
            return text
        case .sizeNotAllowed(let size, let product):
            let allowed = product.sizes.map(\.description).joined(separator: ", ")
            let what = product.isDefault ? "" : " \(product)"
            return "\(size) is not an accepted\(what) size\(ValidationRules.otherProduct(size, product)); accepted: \(allowed)"
        }
    }
}
