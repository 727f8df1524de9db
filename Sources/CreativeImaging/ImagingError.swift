import CreativeCore

/// Errors of the imaging layer. Each carries the stable code a caller switches on.
public enum ImagingError: Error, Equatable, Sendable, CustomStringConvertible {
    /// The input has no bytes.
    case emptyFile
    /// The bytes are not any image format.
    case notAnImage
    /// A recognised format that is not accepted (SVG, PDF, BMP, TIFF, HEIF, ...).
    case unsupportedFormat(String)
    /// An output format the libvips loaded cannot write (AVIF without an AV1 encoder): the
    /// sentence says which and what to ask for instead; code `unsupported_format`.
    case unwritableFormat(String)
    /// The header claims more pixels than the cap; nothing was decoded.
    case tooManyPixels(width: Int, height: Int, cap: Int)
    /// The header claims a shape that is never decoded (``DecodeShapeIssue``): a side of 0
    /// (`corrupt_image`), a side over ``Catalog/maxDecodedSide`` or an aspect ratio over
    /// ``Catalog/maxAspectRatio``.
    case extremeShape(PixelSize, DecodeShapeIssue)
    /// Decoding would produce more sample bytes than the job may decode (``JobLimits/maxDecodedBytes``):
    /// the decoder's time grows with them; nothing was decoded.
    case tooMuchToDecode(needed: Int, limit: Int)
    /// The job would hold more memory at its peak than its budget (``JobCost``, decided from
    /// the header); nothing was decoded.
    case overMemoryBudget(needed: Int, budget: Int)
    /// The job ran past its deadline and libvips stopped it; its memory is freed.
    case timeout(seconds: Double)
    /// The job was cancelled from outside (the reason says why, for example `client_gone` or
    /// `shutdown`) and libvips stopped it; its memory is freed.
    case cancelled(String)
    /// Truncated, bad checksum, or a decoder error: the message says which.
    case corruptImage(String)
    /// A libvips operation failed for a reason other than damaged input.
    case operationFailed(String)
    /// Reading or writing a file failed.
    case io(String)
    /// No encoding of the render in `format` fits its weight budget above the quality floor
    /// (``WeightBudgetSearch``, ``QualityFloor``): `smallest` is the smallest file the search wrote
    /// (its lowest quality, or its smallest palette); when a file fitted only under the floor,
    /// the smallest that keeps the floor, where measured, else that file's. `shortfall`, where the
    /// search gave it: what was tried, the file under the floor, and what would fit. Nothing was
    /// written.
    case overWeightBudget(format: OutputFormat, smallest: Int, budget: Int, shortfall: BudgetShortfall? = nil)
    /// An HTML5 bundle that does not validate, so it has no static version to render: its
    /// first error (the bundle's report names them all).
    case rejectedBundle(ValidationIssue)
    /// `fix` found a change it cannot make safely (``FixRefusal``); nothing was written.
    case unfixable(FixRefusal)
    /// A campaign's second valid creative of a size: the ad server serves one creative per size, so the
    /// first given of that size (`kept`, its file as named) is served and this one is not rendered.
    case duplicateSize(PixelSize, kept: String)

    /// The stable error code of docs/validation.md, "Codes".
    public var code: String {
        switch self {
        case .emptyFile: "empty_file"
        case .notAnImage: "not_an_image"
        case .unsupportedFormat, .unwritableFormat: "unsupported_format"
        case .tooManyPixels, .overMemoryBudget, .tooMuchToDecode: "too_many_pixels"
        case .extremeShape(_, let issue): issue.code.rawValue
        case .timeout: "timeout"
        case .cancelled: "cancelled"
        case .corruptImage: "corrupt_image"
        case .operationFailed: "render_failed"
        case .io: "io_error"
        case .overWeightBudget: Self.overWeightBudgetCode
        case .rejectedBundle(let issue): issue.code.rawValue
        case .unfixable(let refusal): refusal.code
        case .duplicateSize: "duplicate_size"
        }
    }

    /// What `not_an_image` says, here and in the validation report (one sentence for one code).
    public static let notAnImageMessage = "the bytes are not an image; upload a PNG, JPEG, GIF or WebP file"

    /// A sentence for people.
    public var message: String {
        switch self {
        case .emptyFile: "the file is empty"
        case .notAnImage: Self.notAnImageMessage
        case .unsupportedFormat(let name): "\(name) is not accepted; upload PNG, JPEG, GIF or WebP"
        case .unwritableFormat(let sentence): sentence
        case .tooManyPixels(let width, let height, let cap):
            "the header claims \(width)x\(height) (\(PixelSize(width: width, height: height).pixelCount.map(String.init) ?? "more than \(Int.max)") pixels), over the cap of \(cap)"
        case .extremeShape(let size, let issue): issue.message(for: size)
        case .tooMuchToDecode(let needed, let limit):
            "decoding it would produce \(Self.mebibytes(needed)) of samples, over the limit of \(Self.mebibytes(limit)) "
                + "one job may decode; nothing was decoded"
        case .overMemoryBudget(let needed, let budget):
            "the job would hold \(Self.mebibytes(needed)) at its peak (decode, resampling, canvas and encoders, "
                + "counted from the header), over the budget of \(Self.mebibytes(budget)) (\(needed) > \(budget) bytes); "
                + "nothing was decoded"
        case .timeout(let seconds): "the job ran past its deadline of \(seconds) s and was stopped"
        case .cancelled(let reason): "the job was cancelled (\(reason)) and stopped"
        case .corruptImage(let detail): "the image is damaged: \(detail)"
        case .operationFailed(let detail): "image processing failed: \(detail)"
        case .io(let detail): detail
        case .overWeightBudget(let format, let smallest, let budget, let shortfall?):
            shortfall.message(format, smallest: smallest, budget: budget)
        case .overWeightBudget(let format, let smallest, let budget, nil):
            "no \(format.displayName) of this render fits the weight budget of \(budget) bytes: the smallest it "
                + "reaches is \(smallest) bytes; raise the budget or choose another format; nothing was written"
        case .rejectedBundle(let issue): "the HTML5 bundle is rejected (\(issue.message)), so it has no static version to render"
        case .unfixable(let refusal): refusal.message
        case .duplicateSize(let size, let kept):
            "\(size) is also the size of \(kept), which is kept (given first): the ad server serves one creative per "
                + "size, so this one is not rendered; give the campaign one creative per size"
        }
    }

    /// An ``overWeightBudget(format:smallest:budget:shortfall:)``'s shortfall: what was tried, the
    /// file under the quality floor, what would fit; nil for other errors or where none was given.
    public var shortfall: BudgetShortfall? {
        if case .overWeightBudget(_, _, _, let shortfall) = self { return shortfall }
        return nil
    }

    /// ``overWeightBudget(format:smallest:budget:shortfall:)``'s code, for the lines that name it.
    public static let overWeightBudgetCode = "over_weight_budget"

    static func mebibytes(_ bytes: Int) -> String {
        let tenths = (bytes * 10 + (1 << 19)) >> 20
        return "\(tenths / 10).\(tenths % 10) MiB"
    }

    public var description: String { "\(code): \(message)" }
}
