import CVips
import CreativeCore

/// The state one render passes through its steps: the current image and what it is for.
struct RenderContext {
    var image: VImage
    let settings: RenderSettings
    let placement: Placement
}

/// Renders a source aspect-fit and letterboxed into a slot (DESIGN section 3 "Render").
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
        let deadline = limits.startDeadline()
        let placement = settings.placement(of: source.displayedSize)
        try limits.charge(source.decodeMemory(content: placement.content))
        if let damage = try source.structuralDamage(deadline: deadline) { throw .corruptImage(damage) }
        do throws(ImagingError) {
            // The outer watch covers a whole-image decode (EXIF-rotated sources), the inner one the
            // render pulled through the encoder.
            let encoded = try DeadlineWatch.run(source.header, deadline: deadline) { () throws(ImagingError) in
                let scaled = try ScaleStep.thumbnail(source, to: placement.content, checked: true)
                let image = try finish(scaled, settings: settings, placement: placement)
                return try DeadlineWatch.run(image, deadline: deadline) { () throws(ImagingError) in
                    try Encoder.encode(image, format: settings.format, quality: settings.quality,
                                       content: placement.contentRect, memoryBudget: limits.memoryBudget)
                }
            }
            // libjpeg's warning for damaged entropy-coded data does not always stop a shrink-on-load
            // render (6 of 40 runs on a busy machine rendered a scrambled JPEG, 0 of 40 with this): a
            // JPEG is decoded strictly once more, when the budget allows, before its render counts.
            if source.format == .jpeg, (try? limits.charge(source.strictDecodeMemory)) != nil,
               let damage = try source.strictDecode(deadline: deadline).damage {
                throw .corruptImage(damage)
            }
            return encoded
        } catch .operationFailed(let detail) {
            // A strict decode tells damage from a processing fault, when the budget allows one;
            // without it the decoder's failure is taken for damage.
            guard (try? limits.charge(source.strictDecodeMemory)) != nil else { throw .corruptImage(detail) }
            if let damage = try source.strictDecode(deadline: deadline).damage { throw .corruptImage(damage) }
            throw .operationFailed(detail)
        }
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

    private static func finish(_ scaled: VImage, settings: RenderSettings,
                               placement: Placement) throws(ImagingError) -> VImage {
        var context = RenderContext(image: scaled, settings: settings, placement: placement)
        try ColourStep.toSRGB8(&context)
        try AlphaStep.apply(&context)
        try EmbedStep.apply(&context)
        return context.image
    }
}
