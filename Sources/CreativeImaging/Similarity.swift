import CreativeCore

/// SSIM, the structural similarity index (Wang, Bovik, Sheikh and Simoncelli, "Image quality
/// assessment: from error visibility to structural similarity", IEEE TIP 2004), computed with
/// libvips operations: Gaussian-weighted local means, variances and covariance (sigma 1.5, the
/// window cut at 3.5 sigma: 11x11), constants C1 = (0.01 x 255)^2 and C2 = (0.03 x 255)^2,
/// population (not sample) statistics, averaged over the R, G and B bands and over the pixels,
/// the 5-pixel border left out. These are the paper's settings and scikit-image's
/// `structural_similarity(..., gaussian_weights=True, sigma=1.5, use_sample_covariance=False,
/// data_range=255, channel_axis=2)`, which `make bench` computes beside it.
///
/// Images with alpha are compared as shown on white (alpha composited), so a difference in
/// transparency counts as a difference in colour.
public enum Similarity {
    /// The Gaussian's standard deviation, in pixels.
    static let sigma = 1.5
    /// libvips cuts its Gaussian mask where the amplitude falls below this: exp(-3.5^2 / 2),
    /// the 3.5 sigma radius of scikit-image's window.
    static let minimumAmplitude = 0.0022
    /// Pixels at each edge left out of the mean: half the 11-pixel window.
    static let border = 5

    /// SSIM of `candidate` against `reference` (same size, 8-bit sRGB), over `area` (the whole
    /// image when nil). 1 means identical.
    /// - Throws: ``ImagingError/operationFailed(_:)`` when the sizes differ or libvips fails.
    public static func ssim(_ reference: VImage, _ candidate: VImage, area: PixelRect? = nil) throws(ImagingError) -> Double {
        try Reference(reference, area: area).ssim(candidate)
    }

    /// A reference image with its own local statistics computed once, for comparing several
    /// candidates against it (``AutoEncoder`` tries several encodings of one render).
    struct Reference {
        let size: PixelSize
        let area: PixelRect?
        /// The reference as float, its local means, and the local means of its square.
        let x: VImage, meanX: VImage, meanXX: VImage

        init(_ image: VImage, area: PixelRect?) throws(ImagingError) {
            size = image.size
            self.area = area
            // What several terms read is computed once, into memory: libvips would otherwise
            // compute it again for each reader.
            x = try prepared(image, area: area).materialized()
            meanX = try blur(x).materialized()
            meanXX = try blur(try multiply(x, x)).materialized()
        }

        func ssim(_ candidate: VImage) throws(ImagingError) -> Double {
            guard candidate.size == size else {
                throw .operationFailed("SSIM of images of different sizes (\(size), \(candidate.size))")
            }
            let y = try prepared(candidate, area: area).materialized()
            return try ssimMap(x: x, meanX: meanX, meanXX: meanXX, y: y)
        }
    }

    /// The mean of the SSIM map of `y` against `x` (float, the same size and bands), whose local
    /// means and means of squares are given; the border left out. Averaged over bands.
    static func ssimMap(x: VImage, meanX: VImage, meanXX: VImage, y: VImage) throws(ImagingError) -> Double {
        let c1 = pow2(0.01 * 255), c2 = pow2(0.03 * 255)
        let meanY = try blur(y).materialized()
        let meanXSquared = try multiply(meanX, meanX), meanYSquared = try multiply(meanY, meanY)
        let meanXTimesY = try multiply(meanX, meanY)
        let varianceX = try subtract(meanXX, meanXSquared)
        let varianceY = try subtract(try blur(try multiply(y, y)), meanYSquared)
        let covariance = try subtract(try blur(try multiply(x, y)), meanXTimesY)
        let numerator = try multiply(try linear(meanXTimesY, scale: 2, offset: c1),
                                     try linear(covariance, scale: 2, offset: c2))
        let denominator = try multiply(try linear(try add(meanXSquared, meanYSquared), scale: 1, offset: c1),
                                       try linear(try add(varianceX, varianceY), scale: 1, offset: c2))
        var map = try VipsOperation("divide").with("left", .image(numerator)).with("right", .image(denominator)).image()
        if map.width > 2 * border, map.height > 2 * border {
            map = try VipsOperation("extract_area").with("input", .image(map))
                .with("left", .int(border)).with("top", .int(border))
                .with("width", .int(map.width - 2 * border)).with("height", .int(map.height - 2 * border)).image()
        }
        return try VipsOperation("avg").with("in", .image(map)).number()
    }

    /// Flattened onto white, cropped to `area`, as float.
    static func prepared(_ image: VImage, area: PixelRect?) throws(ImagingError) -> VImage {
        var result = image
        if let area, area.size != image.size {
            result = try VipsOperation("extract_area").with("input", .image(result))
                .with("left", .int(area.x)).with("top", .int(area.y))
                .with("width", .int(area.width)).with("height", .int(area.height)).image()
        }
        if result.hasAlpha {
            result = try VipsOperation("flatten").with("in", .image(result)).with("background", .doubles([255, 255, 255])).image()
        }
        return try VipsOperation("cast").with("in", .image(result)).with("format", .enumeration("float")).image()
    }

    static func blur(_ image: VImage) throws(ImagingError) -> VImage {
        try VipsOperation("gaussblur").with("in", .image(image)).with("sigma", .double(sigma))
            .with("min_ampl", .double(minimumAmplitude)).with("precision", .enumeration("float")).image()
    }

    static func multiply(_ left: VImage, _ right: VImage) throws(ImagingError) -> VImage {
        try VipsOperation("multiply").with("left", .image(left)).with("right", .image(right)).image()
    }

    private static func add(_ left: VImage, _ right: VImage) throws(ImagingError) -> VImage {
        try VipsOperation("add").with("left", .image(left)).with("right", .image(right)).image()
    }

    private static func subtract(_ left: VImage, _ right: VImage) throws(ImagingError) -> VImage {
        try VipsOperation("subtract").with("left", .image(left)).with("right", .image(right)).image()
    }

    private static func linear(_ image: VImage, scale: Double, offset: Double) throws(ImagingError) -> VImage {
        try VipsOperation("linear").with("in", .image(image)).with("a", .doubles([scale]))
            .with("b", .doubles([offset])).image()
    }

    private static func pow2(_ value: Double) -> Double { value * value }
}
