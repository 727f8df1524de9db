import CVips
import CreativeCore

/// Decodes and scales to the content size: shrink-on-load where the format allows,
/// EXIF orientation applied, embedded or CMYK profiles converted to sRGB, alpha
/// resampled premultiplied (libvips `thumbnail` does all of these).
///
/// The result is lazy: pixels are decoded strip by strip while the render pulls them through,
/// so a decoding failure surfaces when the render is computed (``Renderer`` sorts it out).
enum ScaleStep {
    /// - Parameter checked: true when the caller already read the container to its end
    ///   (the validator does), so ``ImageSource/structuralDamage()`` is not run twice.
    /// - Parameter scope: where the streamed source is watched, so that the deadline stops its
    ///   decode (``DeadlineWatchdog``); nil without a deadline.
    static func thumbnail(_ source: ImageSource, to content: PixelSize,
                          checked: Bool = false, scope: WatchScope? = nil) throws(ImagingError) -> VImage {
        if !checked, let damage = try source.structuralDamage() { throw .corruptImage(damage) }
        let rotate = source.orientation != 1
        let convertProfile = source.header.hasICCProfile || source.header.interpretation == VIPS_INTERPRETATION_CMYK
        // Already decoded by the strict check: scaled from memory, never decoded again.
        if let kept = source.keptPixels {
            return try thumbnail(kept, to: content, rotate: rotate, convertProfile: convertProfile)
        }
        // Only JPEG and WebP can shrink while loading.
        let shrinksOnLoad = (source.format == .jpeg || source.format == .webp) && content != source.displayedSize
        guard shrinksOnLoad else {
            // Rotating reads the image out of order, so an oriented image is decoded whole first;
            // every other one streams from a one-pass load: never held whole in memory.
            let decoded = rotate ? try source.wholeImage() : try source.streamingImage()
            scope?.watch(decoded)
            return try thumbnail(decoded, to: content, rotate: rotate, convertProfile: convertProfile)
        }
        DecodeLedger.noteDecode()
        var operation = VipsOperation("thumbnail_buffer")
            .with("buffer", .bytes(source.decoderBytes))
            .with("width", .int(content.width))
            .with("height", .int(content.height))
            .with("size", .enumeration("force"))
            .with("fail_on", .enumeration(ImageSource.failOn))
            .with("option_string", .string("fail_on=\(ImageSource.failOn)"))
        // libvips converts CMYK to sRGB by itself; an embedded RGB profile is converted only
        // when an export profile is named (naming one for untagged sRGB would shift its colours).
        if source.header.hasICCProfile {
            operation = operation.with("export_profile", .string("srgb"))
        }
        let scaled = try operation.image()
        scope?.watch(scaled)
        return scaled
    }

    /// Scales an image already in memory; `rotate` applies its EXIF orientation first.
    static func thumbnail(_ decoded: VImage, to content: PixelSize, rotate: Bool = false,
                          convertProfile: Bool = false) throws(ImagingError) -> VImage {
        if decoded.size == content && !rotate && !convertProfile { return decoded }
        var operation = VipsOperation("thumbnail_image")
            .with("in", .image(decoded))
            .with("width", .int(content.width))
            .with("height", .int(content.height))
            .with("size", .enumeration("force"))
            .with("no_rotate", .bool(!rotate))
        if convertProfile { operation = operation.with("export_profile", .string("srgb")) }
        return try operation.image()
    }
}

/// Brings any colour space and depth (grey, 16-bit, CMYK left over) to 8-bit sRGB.
enum ColourStep {
    static func toSRGB8(_ context: inout RenderContext) throws(ImagingError) {
        context.image = try srgb8(context.image)
    }

    /// `image` in 8-bit sRGB (alpha kept).
    static func srgb8(_ input: VImage) throws(ImagingError) -> VImage {
        var image = input
        if image.interpretation != VIPS_INTERPRETATION_sRGB || image.bands < 3 || !image.isEightBit {
            image = try VipsOperation("colourspace")
                .with("in", .image(image))
                .with("space", .enumeration("srgb"))
                .image()
        }
        if !image.isEightBit {
            image = try VipsOperation("cast").with("in", .image(image)).with("format", .enumeration("uchar")).image()
        }
        return image
    }
}

/// Gives transparent output an alpha band, or flattens alpha onto an opaque background.
enum AlphaStep {
    static func apply(_ context: inout RenderContext) throws(ImagingError) {
        switch context.settings.background {
        case .transparent:
            guard !context.image.hasAlpha else { return }
            context.image = try VipsOperation("bandjoin_const")
                .with("in", .image(context.image))
                .with("c", .doubles([255]))
                .image()
        case .color(let red, let green, let blue):
            guard context.image.hasAlpha else { return }
            context.image = try VipsOperation("flatten")
                .with("in", .image(context.image))
                .with("background", .doubles([Double(red), Double(green), Double(blue)]))
                .image()
            if !context.image.isEightBit {
                context.image = try VipsOperation("cast").with("in", .image(context.image))
                    .with("format", .enumeration("uchar")).image()
            }
        }
    }
}

/// Places the content at the placement's offset inside bars of the background colour.
enum EmbedStep {
    static func apply(_ context: inout RenderContext) throws(ImagingError) {
        let placement = context.placement
        guard context.image.size != placement.canvas else { return }
        let bars: [Double]
        switch context.settings.background {
        case .transparent: bars = [0, 0, 0, 0]
        case .color(let red, let green, let blue): bars = [Double(red), Double(green), Double(blue)]
        }
        context.image = try VipsOperation("embed")
            .with("in", .image(context.image))
            .with("x", .int(placement.x))
            .with("y", .int(placement.y))
            .with("width", .int(placement.canvas.width))
            .with("height", .int(placement.canvas.height))
            .with("extend", .enumeration("background"))
            .with("background", .doubles(bars))
            .image()
    }
}
