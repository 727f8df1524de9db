import CreativeCore

/// How `process` writes each of its renders: the format, the limits each encoder works within,
/// the weight budget; `auto` searched per render, from where an earlier render's search ended.
struct JobRenderer: Sendable {
    let format: FormatChoice
    /// For `auto`, the formats it may choose among (nil: ``OutputFormat/autoDefault``).
    let autoFormats: Set<OutputFormat>?
    let limits: JobLimits
    /// Each render's budget, from its canvas (``RenderWeightBudget/applied(to:)``).
    let weightBudget: RenderWeightBudget
    /// The renders' alpha band, as the job was charged for it (``ProcessPlan/alphaBand(_:)``).
    let alpha: JobCost.AlphaBand

    /// One render of `image` (the decoded creative, or already scaled to the placement's content)
    /// at `placement`, with the content where the placement puts it (centred in the canvas, or in
    /// a safe area) and transparent bars where the format keeps them. `auto` on a canvas over
    /// ``AutoEncoder/searchMaxPixels`` searches a smaller render of the placement, then writes the
    /// canvas with what it found; `start` is an earlier render's recipe, where the quality search starts.
    /// - Throws: ``ImagingError/overWeightBudget(format:smallest:budget:)`` when nothing fits.
    func render(_ image: VImage, at placement: Placement, start: AutoRecipe?) throws(ImagingError) -> EncodedRender {
        // Scaled to the content size first: fitted again into the content's rectangle, the whole
        // creative can round a pixel short (2184x270 into 640x79 is 639 wide: min(640/2184, 79/270)).
        let image = image.size == placement.content ? image : try ScaleStep.thumbnail(image, to: placement.content)
        guard var settings = try? RenderSettings(canvas: placement.canvas, format: format,
                                                 background: format.defaultBackground(among: autoFormats)) else {
            throw .operationFailed("no render settings for \(placement.canvas)")
        }
        settings.autoFormats = autoFormats
        settings.area = placement.contentRect
        let weightBudget = weightBudget.applied(to: placement.canvas).bytes
        // A canvas over the search's size: searched on a smaller render, among what the whole
        // canvas can afford (AVIF only up to AutoEncoder.avifMaxPixels), as `render` does.
        let whole = AutoPlan(canvas: placement.canvas, memoryBudget: limits.memoryBudget, oneOfMany: true,
                             allowed: autoFormats, alpha: alpha)
        if format == .auto, !whole.losslessOnly, let sample = settings.searchSample() {
            let searched = try Encoder.encode(try Renderer.renderImage(decoded: image, settings: sample), format: format,
                                              content: sample.area, memoryBudget: limits.memoryBudget, forOneOfMany: true,
                                              autoFormats: autoFormats, autoKinds: whole.kinds, startQuality: start?.quality,
                                              startFormat: start?.format, alpha: alpha, decidesForLarger: true)
            if let recipe = searched.recipe {
                let decision = SampledDecision(recipe: recipe, sample: sample.canvas, ssim: searched.ssim,
                                               plainYUVKept: searched.plainYUVKeepsTarget)
                var whole = try Encoder.encode(try Renderer.renderImage(decoded: image, settings: settings), format: format,
                                               memoryBudget: limits.memoryBudget, recipe: recipe, forOneOfMany: true,
                                               autoFormats: autoFormats, weightBudget: weightBudget, alpha: alpha,
                                               plainYUVKept: decision.plainYUVKept)
                if whole.recipe == recipe { whole.detail = decision.detail(for: whole) }
                return whole
            }
        }
        return try Encoder.encode(try Renderer.renderImage(decoded: image, settings: settings), format: format,
                                  content: placement.contentRect, memoryBudget: limits.memoryBudget, forOneOfMany: true,
                                  autoFormats: autoFormats, weightBudget: weightBudget, startQuality: start?.quality,
                                  startFormat: start?.format, alpha: alpha)
    }
}
