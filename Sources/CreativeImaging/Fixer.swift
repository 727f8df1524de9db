import CVips
import CreativeCore

/// `fix`: an upload-ready file from one that almost passes (docs/reference.md, "fix"). Every change is
/// one the file's pixels allow without a judgement call, and the result is validated before it is
/// handed back; a result with an error is refused with a ``FixRefusal`` and nothing is written.
///
/// The steps: one frame of an animation (the first by default, the one `render` shows) -> EXIF orientation -> CMYK or another
/// profile to sRGB (libvips `thumbnail`, `export_profile`) -> a near-miss size brought to the accepted
/// size (``NearMissResize``: a few pixels by lines of a uniform edge, else by nearest pixels, else
/// resampled; exact output size, within 1% of the aspect ratio; bars baked into the artwork cropped
/// first where the artwork inside has an accepted shape, ``FixBars``) -> 8-bit sRGB -> encoded in the format
/// asked for, or the input's, or a fallback that fits the weight (``WeightFit``), metadata stripped ->
/// a 1 px border where the edges blend into an app's background (``FixBorder``) ->
/// validated. A pre-flight warning the fix caused (the source has none such) makes it try the next
/// way to resize; one the source has too is the artwork's own, kept in ``FixedUpload/remaining``.
public enum Fixer {
    /// Fixes `source` as `request` asks, written as `format` (or, when that cannot be within the weight,
    /// the first of `fallbacks` that can), under the name `outputName` (for the validator's extension
    /// check; nil: `fixed.` and the format's extension), within the weight `maxBytes` (nil:
    /// ``FixRequest/weightLimit(for:)``, 150 KB or the profiles').
    /// The job is charged like a render of the target size (``JobCost``), and a frame past the first
    /// for the frames decoded before it; the deadline of `limits` stops libvips.
    /// - Parameter formatReason: why `format` differs from the input's (`the output name asks for it`), for the line.
    /// - Throws: ``ImagingError/unfixable(_:)`` for a change that is not safe or a result that would not
    ///   validate; the opening, budget, deadline and damage errors of a render.
    public static func fix(_ source: ImageSource, request: FixRequest, format: ImageFormat, fallbacks: [ImageFormat] = [],
                           formatReason: String? = nil, outputName: String?, maxBytes: Int? = nil,
                           limits: JobLimits = JobLimits()) throws(ImagingError) -> FixedUpload {
        // The job's deadline bound for the whole fix: the weight's search and the checks stop between encodes.
        try limits.asJob { (limits) throws(ImagingError) in
            try fixing(source, request: request, format: format, fallbacks: fallbacks, formatReason: formatReason,
                       outputName: outputName, maxBytes: maxBytes, limits: limits)
        }
    }

    /// ``fix(_:request:format:fallbacks:formatReason:outputName:maxBytes:limits:)`` with the limits'
    /// deadline started and bound.
    private static func fixing(_ source: ImageSource, request: FixRequest, format: ImageFormat, fallbacks: [ImageFormat],
                               formatReason: String?, outputName: String?, maxBytes: Int?,
                               limits: JobLimits) throws(ImagingError) -> FixedUpload {
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
        var attempt = FixAttempt(
            source: source, request: request, maxBytes: maxBytes, limits: limits, deadline: deadline,
            encoderBudget: JobCost.encoderBudget(limits.memoryBudget, decode: cost.decode, canvas: target),
            outputName: outputName) { () throws(ImagingError) in
                try pixels(source, target: source.displayedSize, animation: animation, deadline: deadline)
            }
        let formats = [format] + fallbacks.filter { $0 != format }
        // The file written at `size` within `weight`, with the changes to its pixels before its encoding's.
        func upload(_ written: FixAttempt.Written, size: PixelSize, weight: Int, changes: [FixChange]) -> FixedUpload {
            let encoding = FixChanges.encoding(source, format: written.format, encoding: written.encoding, maxBytes: weight,
                                               reason: written.format == format ? formatReason
                                                   : "\(format.rawValue.uppercased()) cannot be within the weight")
            return FixedUpload(bytes: written.encoding.bytes, format: written.format, size: size,
                               inputSize: source.displayedSize, inputBytes: source.bytes.count, changes: changes + encoding,
                               encoding: written.encoding.detail, report: written.report, remaining: written.remaining)
        }
        // Bars baked into the artwork: cropped first, where the artwork inside has an accepted shape.
        if let (written, content, croppedTarget, crop) = try withoutBars(&attempt, request: request, formats: formats) {
            var changes = FixChanges.before(source, animation: animation, target: source.displayedSize) + [crop]
            if content != croppedTarget {
                let off = FixRequest.aspectDifference(content, croppedTarget)
                changes.append(FixChange(.resized, "the \(content) artwork resized to \(croppedTarget), the accepted size "
                                         + "(aspect ratio \(TextFormat.percent(off)) off)" + (written.resize.map { ": " + $0 } ?? "")))
            }
            return upload(written, size: croppedTarget, weight: request.weightLimit(for: croppedTarget), changes: changes)
        }
        let methods = NearMissResize.methods(from: source.displayedSize, to: target)
        var outcome: FixAttempt.Outcome?
        var border: String?
        if methods.count <= 1 {
            // The size is right, or far enough to resample straight from the source (shrink-on-load).
            let image = try pixels(source, target: target, animation: animation, deadline: deadline)
            (outcome, border) = try judge(&attempt, image, resize: methods.isEmpty ? nil : "resampled (Lanczos)",
                                          formats: formats)
        } else {
            for method in methods {
                guard let resized = try NearMissResize.resize(try attempt.uprightPixels(), to: target, method: method) else {
                    continue
                }
                (outcome, border) = try judge(&attempt, resized.image, resize: resized.how, formats: formats)
                if case .written = outcome { break }
            }
        }
        guard case .written(let written) = outcome else {
            // Every way of resizing left a warning the source does not have: nothing is written.
            if case .causedWarnings(let issues) = outcome { throw .unfixable(.incomplete(issues)) }
            throw .unfixable(.incomplete([]))
        }
        var changes = FixChanges.before(source, animation: animation, target: target, resize: written.resize)
        if let border {
            changes.append(FixChange(.borderAdded, "a 1 px \(border) border drawn on the outermost line: the edges "
                                     + "blended into an app's background (edge_without_border)"))
        }
        return upload(written, size: target, weight: maxBytes, changes: changes)
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
            // The first frame by default: the one `render` and `process` decode (libvips' page 0).
            page = (frame ?? 1) - 1
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
    static func pixels(_ source: ImageSource, target: PixelSize, animation: Animation,
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
    static func isOpaque(_ image: VImage) throws(ImagingError) -> Bool {
        let alpha = try VipsOperation("extract_band").with("in", .image(image)).with("band", .int(image.bands - 1)).image()
        return try VipsOperation("min").with("in", .image(alpha)).number() >= 255
    }
}
