import CVips
import CreativeCore

/// The state one render passes through its steps: the current image and what it is for.
struct RenderContext {
    var image: VImage
    let settings: RenderSettings
    let placement: Placement
}

/// Renders a source aspect-fit and letterboxed into a slot (docs/reference.md, "render").
///
/// The steps run in order, each small and each returning early when it has nothing to do:
/// scale (decode, orient, colour-manage, premultiplied resample) -> sRGB 8-bit ->
/// alpha or flatten -> embed in the bars -> encode without metadata.
public enum Renderer {
    /// Renders `source` for `settings` and returns the encoded file (``Encoder``).
    ///
    /// The source is decoded while the encoder pulls the render through, so a failure there is
    /// either damaged input or a processing fault: a strict decode of the source tells which.
    /// Before anything is decoded, the memory the decode needs (``ImageSource/decodeMemory(content:)``)
    /// is charged against `limits.memoryBudget`; the deadline (`limits.timeout`, from the call)
    /// stops libvips while it computes the render.
    /// - Throws: ``ImagingError/overMemoryBudget(needed:budget:)`` over the budget,
    ///   ``ImagingError/timeout(seconds:)`` past the deadline, ``ImagingError/corruptImage(_:)``
    ///   when decoding fails, else ``ImagingError/operationFailed(_:)``.
    public static func render(_ source: ImageSource, settings: RenderSettings,
                              limits: JobLimits = JobLimits()) throws(ImagingError) -> EncodedRender {
        // The job's deadline bound for the whole render: a weight budget's search stops between encodes.
        try limits.asJob { (limits) throws(ImagingError) in try rendering(source, settings: settings, limits: limits) }
    }

    /// ``render(_:settings:limits:)`` with the limits' deadline started and bound.
    private static func rendering(_ source: ImageSource, settings: RenderSettings,
                                  limits: JobLimits) throws(ImagingError) -> EncodedRender {
        let deadline = limits.startDeadline()
        let placement = settings.placement(of: source.displayedSize)
        let (cost, strictFirst) = JobCost.renderPlan(source, settings: settings, memoryBudget: limits.memoryBudget)
        try limits.charge(cost)
        // What the budget leaves the encoder once the decode, overhead and pipeline are held (JobCost).
        let outputBudget = JobCost.encoderBudget(limits.memoryBudget, decode: cost.decode, canvas: settings.canvas)
        if let damage = try source.structuralDamage(deadline: deadline) { throw .corruptImage(damage) }
        // libjpeg's warning for damaged entropy-coded data does not always stop a shrink-on-load
        // render (6 of 40 runs on a busy machine rendered a scrambled JPEG, 0 of 40 after a strict
        // decode): a JPEG is decoded strictly, first when the limits hold its pixels beside the
        // render (which then scales from them: one decode), else after the render.
        if strictFirst, let damage = try source.strictDecode(deadline: deadline, keepingPixels: true).damage {
            throw .corruptImage(damage)
        }
        // `auto` on a large canvas decides on a smaller render of the same placement first.
        let recipe = try sampledRecipe(source, settings: settings, outputBudget: outputBudget, deadline: deadline)
        do throws(ImagingError) {
            // The outer watch covers a whole-image decode (EXIF-rotated sources), the inner one the
            // render pulled through the encoder; the watchdog kills the streamed source too.
            var encoded = try DeadlineWatch.run(source.header, deadline: deadline) { (scope: WatchScope?) throws(ImagingError) in
                let scaled = try ScaleStep.thumbnail(source, to: placement.content, checked: true, scope: scope)
                let image = try finish(scaled, settings: settings, placement: placement)
                return try DeadlineWatch.run(image, deadline: deadline) { () throws(ImagingError) in
                    var request = EncodeRequest(settings, content: placement.contentRect, memoryBudget: outputBudget,
                                                alpha: settings.alphaBand(of: source))
                    request.auto.recipe = recipe?.recipe
                    request.auto.plainYUVKept = recipe?.plainYUVKept ?? false
                    return try Encoder.encode(image, request)
                }
            }
            // Written as decided (not lossless or a lower quality for the weight budget): said so.
            if let recipe, encoded.recipe == recipe.recipe { encoded.detail = recipe.detail(for: encoded) }
            if !strictFirst, source.format == .jpeg, (try? limits.charge(JobCost.strictDecode(source))) != nil,
               let damage = try source.strictDecode(deadline: deadline).damage {
                throw .corruptImage(damage)
            }
            return encoded
        } catch .operationFailed(let detail) {
            // A strict decode tells damage from a processing fault, when the limits allow one;
            // without it the decoder's failure is taken for damage.
            guard (try? limits.charge(JobCost.strictDecode(source))) != nil else { throw .corruptImage(detail) }
            if let damage = try source.strictDecode(deadline: deadline).damage { throw .corruptImage(damage) }
            throw .operationFailed(detail)
        }
    }

    /// What `auto` decided on a smaller render, for a canvas over ``AutoEncoder/searchMaxPixels``;
    /// nil for any other render (it searches itself, or is not `auto`).
    private static func sampledRecipe(_ source: ImageSource, settings: RenderSettings, outputBudget: Int,
                                      deadline: Deadline?) throws(ImagingError) -> SampledDecision? {
        guard settings.format == .auto, let sample = settings.searchSample() else { return nil }
        // What the whole canvas can afford; with nothing lossy, it is lossless PNG without a search.
        let whole = AutoPlan(canvas: settings.canvas, memoryBudget: outputBudget, oneOfMany: false,
                             allowed: settings.autoFormats, alpha: settings.alphaBand(of: source))
        guard !whole.losslessOnly else { return nil }
        let placement = sample.placement(of: source.displayedSize)
        let decided = try DeadlineWatch.run(source.header, deadline: deadline) { (scope: WatchScope?) throws(ImagingError) in
            let scaled = try ScaleStep.thumbnail(source, to: placement.content, checked: true, scope: scope)
            let image = try finish(scaled, settings: sample, placement: placement)
            return try DeadlineWatch.run(image, deadline: deadline) { () throws(ImagingError) in
                try Encoder.encode(image, EncodeRequest(
                    format: .auto, content: placement.contentRect, memoryBudget: outputBudget, alpha: settings.alphaBand(of: source),
                    auto: .init(formats: settings.autoFormats, kinds: whole.kinds, decidesForLarger: true)))
            }
        }
        guard let recipe = decided.recipe else { return nil }
        return SampledDecision(recipe: recipe, sample: sample.canvas, ssim: decided.ssim,
                               plainYUVKept: decided.plainYUVKeepsTarget)
    }

    /// Renders into an image (not yet encoded): exactly `settings.canvas` in size. The image is
    /// lazy; the source's pixels are decoded when it is computed.
    public static func renderImage(_ source: ImageSource, settings: RenderSettings) throws(ImagingError) -> VImage {
        let placement = settings.placement(of: source.displayedSize)
        let scaled = try ScaleStep.thumbnail(source, to: placement.content)
        return try finish(scaled, settings: settings, placement: placement)
    }

    /// Renders an image already decoded in memory (upright, as displayed) into a slot.
    /// Used when one source feeds many renders, so it is decoded once.
    public static func renderImage(decoded: VImage, settings: RenderSettings) throws(ImagingError) -> VImage {
        let placement = settings.placement(of: decoded.size)
        let scaled = try ScaleStep.thumbnail(decoded, to: placement.content)
        return try finish(scaled, settings: settings, placement: placement)
    }

    static func finish(_ scaled: VImage, settings: RenderSettings,
                               placement: Placement) throws(ImagingError) -> VImage {
        var context = RenderContext(image: scaled, settings: settings, placement: placement)
        try ColourStep.toSRGB8(&context)
        try AlphaStep.apply(&context)
        try EmbedStep.apply(&context)
        return context.image
    }
}

/// What `auto` decided on a smaller render of a large canvas (``AutoPlan``).
struct SampledDecision {
    let recipe: AutoRecipe
    /// The smaller render's canvas.
    let sample: PixelSize
    /// Its SSIM, for a lossy recipe.
    let ssim: Double?
    /// A lossy WebP kept the target there with the plain RGB to YUV conversion
    /// (``EncodedRender/plainYUVKeepsTarget``): the canvas is written with it.
    var plainYUVKept = false

    /// The encoding line of the large render: the recipe, and where it was decided.
    func detail(for render: EncodedRender) -> String {
        let measured = ssim.map { ", SSIM \(TextFormat.decimal($0, decimals: 3))" } ?? ""
        return render.detail.replacingSuffix(AutoEncoder.decidedNote, with: "")
            + " (auto: decided on a \(sample) render\(measured))"
    }
}

extension RenderSettings {
    /// The alpha band a render of `source` carries (``JobCost/AlphaBand``): the upload's own on
    /// transparent bars when it may be translucent (``ImageSource/mayBeTranslucent``).
    func alphaBand(of source: ImageSource) -> JobCost.AlphaBand {
        JobCost.AlphaBand(source, background: background)
    }

    /// The same placement on a canvas of at most ``AutoEncoder/searchMaxPixels``, scaled down
    /// evenly (the area too); nil when the canvas is already no larger.
    func searchSample() -> RenderSettings? {
        guard let pixels = canvas.pixelCount, pixels > AutoEncoder.searchMaxPixels else { return nil }
        let factor = (Double(AutoEncoder.searchMaxPixels) / Double(pixels)).squareRoot()
        func scaled(_ value: Int) -> Int { max(1, Int(Double(value) * factor)) }
        var sample = self
        sample.canvas = PixelSize(width: scaled(canvas.width), height: scaled(canvas.height))
        if let area {
            sample.area = PixelRect(x: Int(Double(area.x) * factor), y: Int(Double(area.y) * factor),
                                    width: scaled(area.width), height: scaled(area.height))
        }
        return sample
    }
}

extension String {
    /// The string without `suffix` at its end, and `replacement` there instead.
    func replacingSuffix(_ suffix: String, with replacement: String) -> String {
        hasSuffix(suffix) ? String(dropLast(suffix.count)) + replacement : self
    }
}
