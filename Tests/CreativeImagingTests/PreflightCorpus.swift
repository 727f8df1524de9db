import CreativeCore
import CreativeTestSupport
@testable import CreativeImaging

/// The calibration corpus of the pre-flight checks, generated with libvips: each case is an
/// accepted size, encoded as PNG, with the warnings it must (and must only) give.
struct PreflightCase {
    let name: String
    /// The set the case belongs to in the table in docs/validation.md (clean, bars, border, upscaled, empty).
    let group: String
    /// The encoded file (PNG, or JPEG or WebP where the name says so).
    let png: [UInt8]
    /// The pre-flight warnings it should give; every other pre-flight warning is a false positive.
    let expected: Set<ValidationCode>
}

enum PreflightCorpus {
    static let warnings: [ValidationCode] = [.bakedInBars, .edgeWithoutBorder, .upscaledArtwork, .mostlyEmpty]
    static let strips = [PixelSize(width: 960, height: 150), PixelSize(width: 2184, height: 270),
                         PixelSize(width: 1320, height: 204)]

    static func cases() throws -> [PreflightCase] {
        var list: [PreflightCase] = []
        func add(_ name: String, _ group: String, _ image: VImage, _ expected: Set<ValidationCode> = []) throws {
            list.append(PreflightCase(name: name, group: group, png: try Fixtures.png(image), expected: expected))
        }
        // Public test artwork.
        for size in TestArtwork.sizes {
            guard let bytes = TestArtwork.embedded(size) else { continue }
            list.append(PreflightCase(name: "public test artwork \(size)", group: "clean", png: bytes, expected: []))
        }
        // Clean photographic and flat art, every accepted size.
        for (index, size) in Product.banner.entries.map(\.size).enumerated() {
            try add("photo \(size)", "clean", photo(size, seed: index + 1))
            try add("flat art \(size)", "clean", flat(size, seed: index))
        }
        // JPEG at quality 85 and lossy WebP at 80, as art is often uploaded: compression takes
        // some fine detail. A two-colour split in lossy WebP: almost no detail at all.
        for (index, size) in strips.enumerated() {
            for (kind, image) in [("photo", try photo(size, seed: 90 + index)), ("flat art", try flat(size, seed: 3 + index))] {
                list.append(PreflightCase(name: "\(kind) \(size) JPEG q85", group: "clean",
                                          png: try Fixtures.jpeg(image, [("Q", .int(85))]), expected: []))
                list.append(PreflightCase(name: "\(kind) \(size) WebP q80", group: "clean",
                                          png: try Fixtures.webp(image, [("Q", .int(80))]), expected: []))
            }
            let split = try Fixtures.split(size.width, size.height, left: [230, 40, 40], right: [40, 40, 230])
            list.append(PreflightCase(name: "two colours \(size) WebP", group: "clean", png: try Fixtures.webp(split),
                                      expected: []))
        }
        try add("flat art on a gradient 728x90", "clean", flat(PixelSize(width: 728, height: 90), seed: 7, gradient: true))
        try add("white art with a grey border 960x150", "clean", whiteArt(PixelSize(width: 960, height: 150), border: true))
        try add("white art with a grey border 300x250", "clean", whiteArt(PixelSize(width: 300, height: 250), border: true))
        try add("dark art with a grey border 728x90", "clean", whiteArt(PixelSize(width: 728, height: 90), border: true, dark: true))
        // Baked-in bars: top and bottom, left and right, coloured, transparent.
        for (index, size) in strips.enumerated() {
            let content = PixelSize(width: size.width, height: Int(Double(size.height) * 0.8))
            // Black bars on both long edges are also a dark edge without a border.
            try add("photo letterboxed black \(size)", "bars", bars(photo(content, seed: 20 + index), in: size, [0, 0, 0]),
                    [.bakedInBars, .edgeWithoutBorder])
            // White bars on the short edges only: less than half the frame, no border warning.
            let narrow = PixelSize(width: size.height * 4, height: size.height)
            try add("photo pillarboxed white \(size)", "bars", bars(photo(narrow, seed: 30 + index), in: size, [255, 255, 255]),
                    [.bakedInBars])
            try add("flat art letterboxed blue \(size)", "bars",
                    bars(flat(PixelSize(width: size.width, height: size.height * 3 / 4), seed: 40 + index), in: size, [20, 60, 160]),
                    [.bakedInBars])
            try add("photo pillarboxed transparent \(size)", "bars",
                    bars(photo(PixelSize(width: size.width * 2 / 3, height: size.height), seed: 50 + index), in: size, nil),
                    [.bakedInBars])
        }
        try add("photo letterboxed black 300x250", "bars",
                bars(photo(PixelSize(width: 300, height: 170), seed: 60), in: PixelSize(width: 300, height: 250), [0, 0, 0]),
                [.bakedInBars, .edgeWithoutBorder])
        // White (and black) backgrounds without a border.
        for size in [PixelSize(width: 960, height: 150), PixelSize(width: 2184, height: 270), PixelSize(width: 320, height: 50),
                     PixelSize(width: 300, height: 250), PixelSize(width: 728, height: 90)] {
            try add("white art without a border \(size)", "border", whiteArt(size, border: false), [.edgeWithoutBorder])
        }
        try add("black art without a border 1320x204", "border", whiteArt(PixelSize(width: 1320, height: 204), border: false, dark: true),
                [.edgeWithoutBorder])
        try add("black art without a border 468x60", "border", whiteArt(PixelSize(width: 468, height: 60), border: false, dark: true),
                [.edgeWithoutBorder])
        // Enlarged from smaller originals: 2x, 3x, 4.5x; nearest, bilinear, Lanczos.
        for (index, size) in [PixelSize(width: 960, height: 150), PixelSize(width: 2184, height: 270)].enumerated() {
            for factor in [2.0, 3.0, 4.5] {
                for kernel in ["nearest", "linear", "lanczos3"] {
                    let small = PixelSize(width: Int((Double(size.width) / factor).rounded()),
                                          height: Int((Double(size.height) / factor).rounded()))
                    try add("photo enlarged \(factor)x \(kernel) from \(small) to \(size)", "upscaled",
                            enlarge(photo(small, seed: 70 + index), to: size, kernel: kernel), [.upscaledArtwork])
                }
                if factor < 4 {
                    let small = PixelSize(width: Int((Double(size.width) / factor).rounded()),
                                          height: Int((Double(size.height) / factor).rounded()))
                    try add("flat art enlarged \(factor)x lanczos3 to \(size)", "upscaled",
                            enlarge(flat(small, seed: 80 + index), to: size, kernel: "lanczos3"), [.upscaledArtwork])
                }
            }
        }
        // Mostly empty.
        try add("fully transparent 960x150", "empty", Fixtures.solid(960, 150, [0, 0, 0], alpha: 0), [.mostlyEmpty])
        try add("flat red 728x90", "empty", Fixtures.solid(728, 90, [200, 30, 40]), [.mostlyEmpty])
        try add("one word on blue 2184x270", "empty", word(PixelSize(width: 2184, height: 270), [30, 70, 160]), [.mostlyEmpty])
        try add("one word on beige 320x50", "empty", word(PixelSize(width: 320, height: 50), [240, 225, 200]), [.mostlyEmpty])
        try add("one word on grey 300x250", "empty", word(PixelSize(width: 300, height: 250), [120, 120, 120]), [.mostlyEmpty])
        return list
    }

    // MARK: Generators

    /// Photographic-looking texture: Gaussian noise blurred at several scales (large shapes,
    /// medium detail, fine grain), a diagonal light gradient, a different mix per band.
    static func photo(_ size: PixelSize, seed: Int) throws -> VImage {
        var bands: [VImage] = []
        for band in 0..<3 {
            var sum = try gradient(size, weight: 60 + Double(band) * 20)
            for (scale, amplitude) in [(32.0, 40.0), (8.0, 24.0), (2.0, 14.0), (1.0, 8.0)] {
                let small = PixelSize(width: max(2, Int(Double(size.width) / scale)), height: max(2, Int(Double(size.height) / scale)))
                var noise = try VipsOperation("gaussnoise").with("width", .int(small.width)).with("height", .int(small.height))
                    .with("sigma", .double(amplitude)).with("mean", .double(0))
                    .with("seed", .int(seed * 100 + band * 10 + Int(scale))).image()
                if scale > 1 {
                    noise = try VipsOperation("resize").with("in", .image(noise))
                        .with("scale", .double(Double(size.width) / Double(small.width)))
                        .with("vscale", .double(Double(size.height) / Double(small.height)))
                        .with("kernel", .enumeration("cubic")).image()
                    noise = try crop(noise, size)
                }
                sum = try VipsOperation("add").with("left", .image(sum)).with("right", .image(noise)).image()
            }
            bands.append(sum)
        }
        return try Fixtures.joinBands(bands)
    }

    /// Vector-like art: a coloured field, a few shapes, a headline and a button with text.
    static func flat(_ size: PixelSize, seed: Int, gradient withGradient: Bool = false) throws -> VImage {
        let palettes: [[Double]] = [[24, 80, 160], [230, 120, 30], [40, 140, 90], [120, 40, 140], [200, 50, 60], [60, 60, 70]]
        let field = palettes[seed % palettes.count]
        var image = try Fixtures.solid(size.width, size.height, field).materialized()
        if withGradient {
            let ramp = try gradient(size, weight: 80)
            image = try srgb(VipsOperation("add").with("left", .image(image)).with("right", .image(ramp)).image()).materialized()
        }
        let short = min(size.width, size.height)
        try draw("draw_circle", on: image, ink: [255, 210, 60],
                 [("cx", .int(short / 2)), ("cy", .int(size.height / 2)), ("radius", .int(short / 3)), ("fill", .bool(true))])
        try draw("draw_rect", on: image, ink: [250, 250, 250],
                 [("left", .int(size.width * 3 / 4)), ("top", .int(size.height / 3)), ("width", .int(size.width / 6)),
                  ("height", .int(size.height / 3)), ("fill", .bool(true))])
        image = try lettering("Summer sale <b>-30%</b>", on: image, size: size, ink: [255, 255, 255], x: short + 4,
                              height: size.height / 3)
        return image
    }

    /// A white (or black) field with dark (light) text and a coloured shape, with or without a
    /// 1 px grey border.
    static func whiteArt(_ size: PixelSize, border: Bool, dark: Bool = false) throws -> VImage {
        let field: [Double] = dark ? [0, 0, 0] : [255, 255, 255]
        var image = try Fixtures.solid(size.width, size.height, field).materialized()
        let short = min(size.width, size.height)
        try draw("draw_circle", on: image, ink: [220, 40, 60],
                 [("cx", .int(short / 2 + 4)), ("cy", .int(size.height / 2)), ("radius", .int(short / 3)), ("fill", .bool(true))])
        try draw("draw_rect", on: image, ink: [30, 110, 200],
                 [("left", .int(size.width * 2 / 3)), ("top", .int(size.height / 4)), ("width", .int(size.width / 5)),
                  ("height", .int(size.height / 2)), ("fill", .bool(true))])
        image = try lettering("Fresh coffee <b>daily</b>", on: image, size: size, ink: dark ? [240, 240, 240] : [20, 20, 30],
                              x: short + 8, height: size.height / 3)
        if border {
            image = try image.materialized()
            try draw("draw_rect", on: image, ink: [150, 150, 150],
                     [("left", .int(0)), ("top", .int(0)), ("width", .int(size.width)), ("height", .int(size.height))])
        }
        return image
    }

    /// A field of one colour with one small word.
    static func word(_ size: PixelSize, _ field: [Double]) throws -> VImage {
        let image = try Fixtures.solid(size.width, size.height, field).materialized()
        return try lettering("Hi", on: image, size: size, ink: [255, 255, 255], x: size.width / 2, height: size.height / 5)
    }

    /// `content` centred in `size` on bars of a colour (nil: transparent).
    static func bars(_ content: VImage, in size: PixelSize, _ colour: [Double]?) throws -> VImage {
        var image = content
        var background = colour ?? [0, 0, 0, 0]
        if colour == nil {
            image = try VipsOperation("bandjoin_const").with("in", .image(image)).with("c", .doubles([255])).image()
        } else {
            background = colour ?? []
        }
        return try VipsOperation("gravity").with("in", .image(image)).with("direction", .enumeration("centre"))
            .with("width", .int(size.width)).with("height", .int(size.height)).with("extend", .enumeration("background"))
            .with("background", .doubles(background)).image()
    }

    /// An image enlarged to exactly `size` with a libvips kernel.
    static func enlarge(_ image: VImage, to size: PixelSize, kernel: String) throws -> VImage {
        let enlarged = try VipsOperation("resize").with("in", .image(image))
            .with("scale", .double(Double(size.width) / Double(image.width)))
            .with("vscale", .double(Double(size.height) / Double(image.height)))
            .with("kernel", .enumeration(kernel)).image()
        return try crop(enlarged, size)
    }

    // MARK: Pieces

    private static func gradient(_ size: PixelSize, weight: Double) throws -> VImage {
        let x = try VipsOperation("xyz").with("width", .int(size.width)).with("height", .int(size.height)).image()
        let sum = try VipsOperation("bandmean").with("in", .image(x)).image()
        let scale = weight / Double(size.width + size.height) * 2
        return try VipsOperation("linear").with("in", .image(sum)).with("a", .doubles([scale]))
            .with("b", .doubles([128 - weight / 2])).image()
    }

    private static func srgb(_ image: VImage) throws -> VImage {
        let cast = try VipsOperation("cast").with("in", .image(image)).with("format", .enumeration("uchar")).image()
        return try VipsOperation("copy").with("in", .image(cast)).with("interpretation", .enumeration("srgb")).image()
    }

    private static func crop(_ image: VImage, _ size: PixelSize) throws -> VImage {
        if image.size == size { return image }
        let embedded = try VipsOperation("embed").with("in", .image(image)).with("x", .int(0)).with("y", .int(0))
            .with("width", .int(max(size.width, image.width))).with("height", .int(max(size.height, image.height)))
            .with("extend", .enumeration("copy")).image()
        return try VipsOperation("extract_area").with("input", .image(embedded)).with("left", .int(0)).with("top", .int(0))
            .with("width", .int(size.width)).with("height", .int(size.height)).image()
    }

    private static func draw(_ operation: String, on image: VImage, ink: [Double], _ arguments: [(String, VipsArgument)]) throws {
        var call = VipsOperation(operation).with("image", .image(image)).with("ink", .doubles(ink))
        for (name, value) in arguments { call = call.with(name, value) }
        try call.execute()
    }

    /// Antialiased text (Pango markup) of about `height` px in `ink` over an opaque image, at x,
    /// centred vertically (clipped to the image).
    private static func lettering(_ markup: String, on image: VImage, size: PixelSize, ink: [Double], x: Int,
                                  height: Int) throws -> VImage {
        var mask = try VipsOperation("text").with("text", .string(markup))
            .with("font", .string("DejaVu Sans \(max(6, height))px")).with("dpi", .int(72)).image()
        let y = max(0, (size.height - mask.height) / 2)
        let width = min(mask.width, size.width - x), tall = min(mask.height, size.height - y)
        mask = try VipsOperation("extract_area").with("input", .image(mask)).with("left", .int(0)).with("top", .int(0))
            .with("width", .int(width)).with("height", .int(tall)).image()
        let under = try VipsOperation("extract_area").with("input", .image(image)).with("left", .int(x)).with("top", .int(y))
            .with("width", .int(width)).with("height", .int(tall)).image()
        let inked = try VipsOperation("ifthenelse").with("cond", .image(mask))
            .with("in1", .image(Fixtures.solid(width, tall, ink))).with("in2", .image(under)).with("blend", .bool(true)).image()
        return try VipsOperation("insert").with("main", .image(image)).with("sub", .image(srgb(inked)))
            .with("x", .int(x)).with("y", .int(y)).image().materialized()
    }
}
