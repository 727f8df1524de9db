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
    /// Renders `source` for `settings` and returns the encoded file bytes.
    ///
    /// The source is decoded while the encoder pulls the render through, so a failure there is
    /// either damaged input or a processing fault: a strict decode of the source tells which.
    /// - Throws: ``ImagingError/corruptImage(_:)`` when decoding fails, else
    ///   ``ImagingError/operationFailed(_:)``.
    public static func render(_ source: ImageSource, settings: RenderSettings) throws(ImagingError) -> [UInt8] {
        do {
            let image = try renderImage(source, settings: settings)
            return try Encoder.encode(image, format: settings.format)
        } catch .operationFailed(let detail) {
            if let damage = source.structuralDamage() ?? source.strictDecode().damage { throw .corruptImage(damage) }
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
