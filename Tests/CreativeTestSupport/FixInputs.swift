import CreativeCore
import CreativeImaging

/// Inputs that almost pass validate, for `fix` and the validator's warnings: animations and a
/// photograph, made in the tests with libvips (a CMYK JPEG: ``cmykJPEG(_:)``).
extension Fixtures {
    /// Frames of `width` x `height` stacked vertically, each a solid ``frameColour(_:)``, with `page-height`
    /// set: savers write it as an animation.
    public static func frames(_ width: Int, _ height: Int, count: Int = 2) throws -> VImage {
        try animation((0..<count).map { index in try solid(width, height, frameColour(index)) })
    }

    /// Frames of the same size stacked vertically, with `page-height` set: savers write an animation.
    public static func animation(_ frames: [VImage]) throws -> VImage {
        guard var stack = frames.first else { throw ImagingError.operationFailed("no frames") }
        for frame in frames.dropFirst() {
            stack = try VipsOperation("join").with("in1", .image(stack)).with("in2", .image(frame))
                .with("direction", .enumeration("vertical")).image()
        }
        return try stack.settingInt("page-height", frames[0].height)
    }

    /// The colour of frame `index` (0-based) of ``frames(_:_:count:)``.
    public static func frameColour(_ index: Int) -> [Double] {
        index == 0 ? [255, 0, 0] : [0, Double(100 + index * 50 % 150), 255]
    }

    /// A photograph's statistics at `width` x `height`: detail at several scales (smooth noise whose
    /// amplitude falls with its frequency), tinted bands, and sensor grain, which is what makes a photo
    /// heavy for every encoder. The same pixels every run (libvips' noise is seeded).
    public static func photograph(_ width: Int, _ height: Int, grain: Double = 6) throws -> VImage {
        var texture = try VipsOperation("black").with("width", .int(width)).with("height", .int(height)).image()
        for (index, (cell, amplitude)) in [(64, 34.0), (16, 16.0), (4, 10.0)].enumerated() {
            let small = try VipsOperation("gaussnoise").with("width", .int(width / cell + 2))
                .with("height", .int(height / cell + 2)).with("sigma", .double(amplitude)).with("mean", .double(0))
                .with("seed", .int(index + 1)).image()
            let large = try VipsOperation("resize").with("in", .image(small)).with("scale", .double(Double(cell)))
                .with("kernel", .enumeration("cubic")).image()
            let cropped = try VipsOperation("extract_area").with("input", .image(large)).with("left", .int(0))
                .with("top", .int(0)).with("width", .int(width)).with("height", .int(height)).image()
            texture = try VipsOperation("add").with("left", .image(texture)).with("right", .image(cropped)).image()
        }
        let tinted = try VipsOperation("linear").with("in", .image(texture)).with("a", .doubles([1, 0.9, 0.75]))
            .with("b", .doubles([120, 135, 160])).image()
        let grainImage = try colourNoise(width, height, mean: 0, sigma: grain, seed: 10)
        let summed = try VipsOperation("add").with("left", .image(tinted)).with("right", .image(grainImage)).image()
        let pixels = try VipsOperation("cast").with("in", .image(summed)).with("format", .enumeration("uchar")).image()
        return try VipsOperation("copy").with("in", .image(pixels)).with("interpretation", .enumeration("srgb")).image()
    }

    /// Gaussian noise in three bands, each drawn on its own (float; seeded, so the same every run):
    /// one band three times as wide, folded into bands.
    public static func colourNoise(_ width: Int, _ height: Int, mean: Double, sigma: Double, seed: Int) throws -> VImage {
        let wide = try VipsOperation("gaussnoise").with("width", .int(width * 3)).with("height", .int(height))
            .with("sigma", .double(sigma)).with("mean", .double(mean)).with("seed", .int(seed)).image()
        return try VipsOperation("bandfold").with("in", .image(wide)).with("factor", .int(3)).image()
    }

    /// 8-bit sRGB noise of `width` x `height` (``colourNoise(_:_:mean:sigma:seed:)``): heavy for
    /// every encoder, so that `auto`, a weight budget and `fix` search to the end. Gaussian about
    /// mid-grey (clipped), or with `uniform` every byte value about as likely (a wide Gaussian
    /// folded into 0-255): an incompressible file, 3 bytes a pixel as PNG.
    public static func noiseImage(_ width: Int, _ height: Int, seed: Int = 7, uniform: Bool = false) throws -> VImage {
        var noise = try colourNoise(width, height, mean: uniform ? 0 : 128, sigma: uniform ? 1000 : 70, seed: seed)
        if uniform {
            let folded = try VipsOperation("abs").with("in", .image(noise)).image()
            noise = try VipsOperation("remainder_const").with("in", .image(folded)).with("c", .doubles([256])).image()
        }
        let pixels = try VipsOperation("cast").with("in", .image(noise)).with("format", .enumeration("uchar")).image()
        return try VipsOperation("copy").with("in", .image(pixels)).with("interpretation", .enumeration("srgb")).image()
    }

    /// The test artwork drawn at any size (``TestArtwork/generate(_:)``): a banner that passes the
    /// pre-flight checks, whatever its size.
    public static func artwork(_ width: Int, _ height: Int) throws -> VImage {
        try decode(try TestArtwork.generate(PixelSize(width: width, height: height)))
    }

    /// An animated GIF of three frames of the test artwork at `width` x `height`: as drawn, mirrored,
    /// then in negative (its paper, near white, becomes near black).
    public static func animatedArtworkGIF(_ width: Int, _ height: Int) throws -> [UInt8] {
        let still = try artwork(width, height)
        let mirrored = try VipsOperation("flip").with("in", .image(still)).with("direction", .enumeration("horizontal")).image()
        return try save("gifsave_buffer", try animation([still, mirrored, try negative(still)]))
    }

    /// An 8-bit image in negative (255 minus each sample).
    public static func negative(_ image: VImage) throws -> VImage {
        try VipsOperation("cast").with("in", .image(try VipsOperation("invert").with("in", .image(image)).image()))
            .with("format", .enumeration("uchar")).image()
    }

    /// A 2184x270 photograph as a camera's export at JPEG quality 100: 1.3 MB (1,301,550 bytes with
    /// libvips 8.18), nine times the 150 KB weight.
    public static func heavyPhotographJPEG() throws -> [UInt8] {
        try save("jpegsave_buffer", try photograph(2184, 270, grain: 8), [("Q", .int(100))])
    }

    /// Flat art as a designer draws it at `width` x `height`: a coloured field, a row of shapes, a
    /// button and a headline, the shapes' edges crisp (no antialiasing), with a plain margin of the field
    /// at least 4 px wide on every side.
    public static func flatArt(_ width: Int, _ height: Int) throws -> VImage {
        let image = try solid(width, height, [24, 80, 160]).materialized()
        func rect(_ ink: [Double], _ left: Int, _ top: Int, _ wide: Int, _ tall: Int) throws {
            try VipsOperation("draw_rect").with("image", .image(image)).with("ink", .doubles(ink))
                .with("left", .int(left)).with("top", .int(top)).with("width", .int(wide)).with("height", .int(tall))
                .with("fill", .bool(true)).execute()
        }
        for (index, x) in stride(from: 8, to: width / 2 - 40, by: 24).enumerated() {
            try rect([250, 210, 60], x, 6 + index % 3, 12 + index % 5, 12)
            try rect([230, 60, 60], x + 4, height - 26 + index % 4, 6 + index % 3, 14)
        }
        try rect([250, 250, 250], width * 3 / 4, height / 3, width / 6, height / 3)
        let text = try VipsOperation("text").with("text", .string("<b>Summer sale -30%</b> on everything"))
            .with("font", .string("DejaVu Sans \(max(8, height / 5))px")).with("dpi", .int(72)).image()
        let placed = try VipsOperation("embed").with("in", .image(text)).with("x", .int(width / 12))
            .with("y", .int(height / 3)).with("width", .int(width)).with("height", .int(height)).image()
        return try VipsOperation("ifthenelse").with("cond", .image(placed))
            .with("in1", .image(try solid(width, height, [255, 255, 255]))).with("in2", .image(image))
            .with("blend", .bool(true)).image()
    }

    /// A photograph saved as PNG at 2184x270, as designers export one: over a megabyte, far over the
    /// 150 KB weight that a JPEG of it meets.
    public static func photographPNG() throws -> [UInt8] {
        try save("pngsave_buffer", try photograph(2184, 270))
    }
}
