import CreativeCore

/// One way of writing `fix`'s pixels, judged (``Fixer``): encoded within the weight in the first
/// format that can be, validated, and its warnings told apart: the artwork's own (the source shows
/// them too, at its own size) from those the fix caused (a resample that blurred crisp edges).
struct FixAttempt {
    /// What came of an attempt.
    enum Outcome {
        /// A file to write: no error, and no warning but the artwork's own (`remaining`).
        case written(Written)
        /// Warnings the fix itself caused: another way to resize may avoid them.
        case causedWarnings([ValidationIssue])
    }

    /// A file to write and how it was made.
    struct Written {
        let encoding: WeightFit.Encoding
        let format: ImageFormat
        let report: ValidationReport
        /// The artwork's own warnings, left for the designer.
        let remaining: [ValidationIssue]
        /// How the size was changed, nil when it was right.
        let resize: String?
    }

    let source: ImageSource
    let request: FixRequest
    let maxBytes: Int
    let limits: JobLimits
    let deadline: Deadline?
    /// The encoders' share of the job's memory.
    let encoderBudget: Int
    /// The name the file is validated under (its extension checked); nil: `fixed.` and the format's.
    let outputName: String?
    /// The source's pixels at its own size, upright, 8-bit sRGB, in memory (asked for once, when needed).
    let upright: () throws(ImagingError) -> VImage
    private var uprightImage: VImage?
    private var sourceWarnings: Set<ValidationCode>?

    init(source: ImageSource, request: FixRequest, maxBytes: Int, limits: JobLimits, deadline: Deadline?,
         encoderBudget: Int, outputName: String?, upright: @escaping () throws(ImagingError) -> VImage) {
        self.source = source
        self.request = request
        self.maxBytes = maxBytes
        self.limits = limits
        self.deadline = deadline
        self.encoderBudget = encoderBudget
        self.outputName = outputName
        self.upright = upright
    }

    /// The same attempt within another weight (a file fixed to another size), the source's pixels
    /// and warnings kept.
    func weighing(_ maxBytes: Int) -> FixAttempt {
        var copy = FixAttempt(source: source, request: request, maxBytes: maxBytes, limits: limits, deadline: deadline,
                              encoderBudget: encoderBudget, outputName: outputName, upright: upright)
        copy.uprightImage = uprightImage
        copy.sourceWarnings = sourceWarnings
        return copy
    }

    /// The source's pixels at its own size (``upright``), decoded once.
    mutating func uprightPixels() throws(ImagingError) -> VImage {
        if let uprightImage { return uprightImage }
        let image = try upright()
        uprightImage = image
        return image
    }

    /// The pre-flight warnings the source has at its own size: the artwork's, whatever the fix does.
    mutating func ownWarnings() throws(ImagingError) -> Set<ValidationCode> {
        if let sourceWarnings { return sourceWarnings }
        let lossless = source.format == .png || source.format == .gif
        let findings = try Preflight.check(try uprightPixels(), lossless: lossless, job: limits, deadline: deadline)
        let codes = Set(findings.issues.map(\.code))
        sourceWarnings = codes
        return codes
    }

    /// `image` (the fixed pixels at the target size) encoded in the first of `formats` within the
    /// weight, validated and judged.
    /// - Throws: ``ImagingError/unfixable(_:)``: no format fits (`weight_unreachable`), JPEG asked for
    ///   transparent pixels, or the file would still have an error (`fix_incomplete`).
    mutating func judge(_ image: VImage, resize: String?, formats: [ImageFormat]) throws(ImagingError) -> Outcome {
        let (encoding, format) = try encode(image, formats: formats)
        var validation = ValidationLimits(job: limits, product: request.product)
        validation.maxBytes = max(Catalog.defaultMaxBytes, maxBytes)
        validation.profiles = request.profiles
        let report = Validator.validate(encoding.bytes, fileName: outputName ?? "fixed.\(format.extensions[0])",
                                        limits: validation)
        guard report.valid, report.warnings.allSatisfy({ $0.code.isPreflight }) else {
            throw .unfixable(.incomplete(report.errors + report.warnings))
        }
        let own = report.warnings.isEmpty ? [] : try ownWarnings()
        let caused = report.warnings.filter { !own.contains($0.code) }
        guard caused.isEmpty else { return .causedWarnings(caused) }
        return .written(Written(encoding: encoding, format: format, report: report, remaining: report.warnings,
                                resize: resize))
    }

    /// A JPEG written as JPEG: the source's quality (``JPEGQuality``), which caps the
    /// qualities tried; nil otherwise.
    private func sourceQuality(_ format: ImageFormat) -> Int? {
        format == .jpeg && source.format == .jpeg ? JPEGQuality.estimate(source.bytes) : nil
    }

    /// The best encoding within the weight in the first of `formats` that has one (JPEG is passed over
    /// for transparent pixels, or refused when it was asked for).
    private func encode(_ image: VImage, formats: [ImageFormat]) throws(ImagingError) -> (WeightFit.Encoding, ImageFormat) {
        var first: FixRefusal.WeightMiss?
        for (index, format) in formats.enumerated() {
            if format == .jpeg, image.hasAlpha, try !Fixer.isOpaque(image) {
                if index == 0 { throw .unfixable(.transparencyLost) }
                continue
            }
            do throws(ImagingError) {
                let found = try DeadlineWatch.run(image, deadline: deadline) { () throws(ImagingError) in
                    try WeightFit.best(image, format: format, maxBytes: maxBytes, highestQuality: sourceQuality(format),
                                       memoryBudget: encoderBudget)
                }
                return (found, format)
            } catch .unfixable(.weightUnreachable(let miss)) {
                first = first ?? miss
            }
        }
        throw .unfixable(.weightUnreachable(first ?? FixRefusal.WeightMiss(format: formats.first ?? .png, smallest: 0,
                                                                           maxBytes: maxBytes, shortfall: nil)))
    }
}
