import CreativeCore

/// Why `fix` wrote nothing (``ImagingError/unfixable(_:)``): a change that would not be safe, or a
/// result that would still not validate cleanly. Each case has a stable code (docs/reference.md, "fix").
public enum FixRefusal: Sendable, Equatable {
    /// `size_too_far`: no accepted size is within 1% of the file's aspect ratio; resizing would distort it.
    case sizeTooFar(FixRequest.SizeRefusal)
    /// `weight_unreachable`: no encoding of the format is within the weight above the quality floor
    /// (the weight search's ``ImagingError/overWeightBudget(format:smallest:budget:shortfall:)``, for `fix`).
    case weightUnreachable(WeightMiss)
    /// `transparency_lost`: JPEG was asked for an image with transparent pixels (JPEG has none).
    case transparencyLost
    /// `frame_out_of_range`: `frame` names no frame of the animation (a usage error).
    case frameOutOfRange(given: Int, frames: Int)
    /// `not_animated`: `frame` was given for a still image, or an animated PNG (whose default image is kept).
    case notAnimated(ImageFormat)
    /// `fix_incomplete`: the fixed file would still have these errors, or warnings the fix itself caused
    /// (whatever way it resized); the artwork's own warnings are written with the file instead.
    case incomplete([ValidationIssue])

    /// The stable code.
    public var code: String {
        switch self {
        case .sizeTooFar: "size_too_far"
        case .weightUnreachable: "weight_unreachable"
        case .transparencyLost: "transparency_lost"
        case .frameOutOfRange: "frame_out_of_range"
        case .notAnimated: "not_animated"
        case .incomplete: "fix_incomplete"
        }
    }

    /// Whether the refusal is the caller's mistake (a frame that does not exist): a usage error on the
    /// command line (exit 64), 400 over HTTP.
    public var isUsage: Bool {
        switch self {
        case .frameOutOfRange, .notAnimated: true
        case .sizeTooFar, .weightUnreachable, .transparencyLost, .incomplete: false
        }
    }

    /// A sentence for people, with what to do instead.
    public var message: String {
        switch self {
        case .sizeTooFar(let refusal): refusal.message
        case .weightUnreachable(let miss): miss.message
        case .transparencyLost:
            "the image has transparent pixels and JPEG has none; keep PNG or WebP, or flatten it yourself"
        case .frameOutOfRange(let given, let frames):
            "frame \(given) is not a frame of this animation: give 1 to \(frames)"
        case .notAnimated(let format):
            "a frame is chosen only from an animated GIF or WebP; this \(format.rawValue.uppercased()) is a still image"
                + (format == .png ? " (an animated PNG keeps its default image)" : "")
        case .incomplete(let issues):
            "the fixed file would still not validate cleanly: "
                + issues.map { "\($0.code.rawValue): \($0.message)" }.joined(separator: "; ")
        }
    }
}

extension FixRefusal {
    /// What the weight search reached when no encoding of a format fits: the smallest file, or the one
    /// that fitted under the quality floor, and what was tried.
    public struct WeightMiss: Sendable, Equatable {
        public let format: ImageFormat
        /// The smallest file written.
        public let smallest: Int
        public let maxBytes: Int
        /// What was tried, and the file under the floor (nil: nothing was tried).
        public let shortfall: BudgetShortfall?

        var message: String {
            let name = format.rawValue.uppercased()
            var sentence: String
            if let under = shortfall?.underFloor {
                sentence = "the best \(name) within the weight of \(maxBytes) bytes (\(under.detail), \(under.bytes) bytes) has "
                    + "luma SSIM \(TextFormat.decimal(under.luma, decimals: 3)) against the image, under the quality floor "
                    + "of \(QualityFloor.text)"
            } else {
                sentence = "the smallest \(name) written was \(smallest) bytes, over the weight of \(maxBytes) bytes"
            }
            if let tried = shortfall?.tried { sentence += " (tried: \(tried))" }
            return sentence + (format == .jpeg || format == .webp
                ? "; export the artwork simpler or lighter"
                : "; write a photograph as JPEG or WebP (name the output .jpg or .webp, or give format jpeg or webp)")
        }
    }
}
