import CVips
import CreativeCore

/// `fix`: an upload-ready file from one that almost passes (docs/reference.md, "fix"). Every change is
/// one the file's pixels allow without a judgement call, and the result is validated before it is
/// handed back; anything else is refused with a ``FixRefusal`` and nothing is written.
///
/// The steps: one frame of an animation (the last by default) -> EXIF orientation -> CMYK or another
/// profile to sRGB (libvips `thumbnail`, `export_profile`) -> a near-miss size resized to the accepted
/// size (exact output size, within 1% of the aspect ratio) -> 8-bit sRGB -> encoded in the input's
/// format (or the one asked for) within the weight (``WeightFit``), metadata stripped -> validated.
public enum Fixer {
    /// Fixes `source` as `request` asks, written as `format`, under the name `outputName` (for the
    /// validator's extension check), within the weight `maxBytes` (nil: ``FixRequest/weightLimit(for:)``,
    /// 150 KB or the profiles').
    /// The job is charged like a render of the target size (``JobCost``), and a frame past the first
    /// for the frames decoded before it; the deadline of `limits` stops libvips.
    /// - Throws: ``ImagingError/unfixable(_:)`` for a change that is not safe or a result that would not
    ///   validate cleanly; the opening, budget, deadline and damage errors of a render.
    public static func fix(_ source: ImageSource, request: FixRequest, format: ImageFormat, outputName: String,
                           maxBytes: Int? = nil, limits: JobLimits = JobLimits()) throws(ImagingError) -> FixedUpload {
        let limits = limits.started()
        let deadline = limits.startDeadline()
        let animation = try Animation(source, frame: request.frame)
        let target: PixelSize
        switch request.target(for: source.displayedSize) {
        case .success(let size): target = size
        case .failure(let refusal): throw .unfixable(.sizeTooFar(refusal))
        }
        let maxBytes = maxBytes ?? request.weightLimit(for: target)
        let cost = self.cost(source, target: target, animation: animation, memoryBudget: limits.memoryBudget)
        try limits.charge(cost)
        if let damage = try source.structuralDamage(deadline: deadline) { throw .corruptImage(damage) }
        if (try? limits.charge(JobCost.strictDecode(source))) != nil,
           let damage = try source.strictDecode(deadline: deadline, keepingPixels: animation.page == nil).damage {
            throw .corruptImage(damage)
        }
        let image = try pixels(source, target: target, animation: animation, deadline: deadline)
        if format == .jpeg, image.hasAlpha, try !isOpaque(image) { throw .unfixable(.transparencyLost) }
        let encoderBudget = JobCost.encoderBudget(limits.memoryBudget, decode: cost.decode, canvas: target)
        let encoding: WeightFit.Encoding
        let fit = try DeadlineWatch.run(image, deadline: deadline) { () throws(ImagingError) in
            try WeightFit.best(image, format: format, maxBytes: maxBytes, memoryBudget: encoderBudget)
        }
        switch fit {
        case .success(let found): encoding = found
        case .failure(let over): throw .unfixable(.weightUnreachable(over))
        }
        var validation = ValidationLimits(job: limits, product: request.product)
        validation.maxBytes = max(Catalog.defaultMaxBytes, maxBytes)
        validation.profiles = request.profiles
        let report = Validator.validate(encoding.bytes, fileName: outputName, limits: validation)
        guard report.valid, report.warnings.isEmpty else { throw .unfixable(.incomplete(report.errors + report.warnings)) }
        var changes = FixChanges.before(source, animation: animation, target: target)
        changes += FixChanges.encoding(source, format: format, encoding: encoding, maxBytes: maxBytes)
        return FixedUpload(bytes: encoding.bytes, format: format, size: target, inputSize: source.displayedSize,
                           inputBytes: source.bytes.count, changes: changes, encoding: encoding.detail, report: report)
    }

    /// Opens an upload for `fix` (its header only, once: ``Upload/source(maxPixels:)``): one image;
    /// an HTML5 bundle is refused (`unsupported_format`: its static image can be fixed alone).
    public static func open(_ upload: Upload, maxPixels: Int = Catalog.defaultMaxPixels) -> Result<ImageSource, ImagingError> {
        if Validator.isBundle(upload.bytes) {
            return .failure(.unsupportedFormat("an HTML5 bundle (zip): fix takes one image (fix its static image alone)"))
        }
        return upload.source(maxPixels: maxPixels)
    }

    /// What a fix of `source` will be charged (``fix(_:request:format:outputName:maxBytes:limits:)`` charges
    /// it first): for the service's process-wide budget, from the header alone. Nil when the fix is
    /// refused before anything is decoded (a size too far, a frame the animation lacks).
    public static func plannedCost(_ source: ImageSource, request: FixRequest, memoryBudget: Int) -> JobCost? {
        guard let animation = try? Animation(source, frame: request.frame),
              case .success(let target) = request.target(for: source.displayedSize) else { return nil }
        return cost(source, target: target, animation: animation, memoryBudget: memoryBudget)
    }

    /// The animation a source holds, and the page kept.
    struct Animation {
        /// Frames of an animated GIF or WebP; 1 for a still image (and an animated PNG, whose default image is read).
        let frames: Int
        /// The 0-based page loaded, nil for a still image.
        let page: Int?
        /// An animated PNG: its default image is the still image.
        let animatedPNG: Bool

        init(_ source: ImageSource, frame: Int?) throws(ImagingError) {
            switch source.format {
            case .gif: frames = max(1, AnimationProbe.gifFrames(source.bytes))
            case .webp: frames = AnimationProbe.isAnimatedWebP(source.bytes) ? max(1, source.header.pageCount) : 1
            case .png, .jpeg: frames = 1
            }
            animatedPNG = source.format == .png && AnimationProbe.isAnimatedPNG(source.bytes)
            guard frames > 1 else {
                if frame != nil { throw .unfixable(.notAnimated(source.format)) }
                page = nil
                return
            }
            if let frame, !(1...frames).contains(frame) { throw .unfixable(.frameOutOfRange(given: frame, frames: frames)) }
            page = (frame ?? frames) - 1
        }
    }

    /// A render's cost at the target size (`auto`'s, the most encoders side by side, for the weight search);
    /// a frame of an animation is decoded whole, after every frame before it.
    static func cost(_ source: ImageSource, target: PixelSize, animation: Animation, memoryBudget: Int) -> JobCost {
        guard let settings = try? RenderSettings(slot: target, scale: 1, format: .auto) else { return JobCost(decode: .max) }
        var cost = JobCost.render(source, settings: settings, memoryBudget: memoryBudget)
        if let page = animation.page {
            let whole = JobCost.decode(source, content: nil)
            cost.decode = max(cost.decode, JobCost.adding(whole.decode, whole.decode))
            cost.decodedSamples = JobCost.multiplying(whole.decodedSamples, page + 1)
        }
        return cost
    }

    /// The fixed pixels, 8-bit sRGB at exactly `target`, in memory.
    private static func pixels(_ source: ImageSource, target: PixelSize, animation: Animation,
                               deadline: Deadline?) throws(ImagingError) -> VImage {
        let convertProfile = source.header.hasICCProfile || source.header.interpretation == VIPS_INTERPRETATION_CMYK
        return try DeadlineWatch.run(source.header, deadline: deadline) { (scope: WatchScope?) throws(ImagingError) in
            let scaled: VImage
            if let page = animation.page {
                let frame = try VipsOperation(ImageSource.loader(for: source.format)).with("buffer", .bytes(source.bytes))
                    .with("page", .int(page)).with("n", .int(1)).with("fail_on", .enumeration(ImageSource.failOn)).image()
                scope?.watch(frame)
                scaled = try ScaleStep.thumbnail(frame, to: target, rotate: source.orientation != 1,
                                                 convertProfile: convertProfile)
            } else {
                scaled = try ScaleStep.thumbnail(source, to: target, checked: true, scope: scope)
            }
            let image = try ColourStep.srgb8(scaled)
            return try DeadlineWatch.run(image, deadline: deadline) { () throws(ImagingError) in try image.materialized() }
        }
    }

    /// Whether the alpha band is 255 everywhere.
    private static func isOpaque(_ image: VImage) throws(ImagingError) -> Bool {
        let alpha = try VipsOperation("extract_band").with("in", .image(image)).with("band", .int(image.bands - 1)).image()
        return try VipsOperation("min").with("in", .image(alpha)).number() >= 255
    }
}
