import CSimilarity
import CreativeCore

/// SSIM, the structural similarity index (Wang, Bovik, Sheikh and Simoncelli, "Image quality
/// assessment: from error visibility to structural similarity", IEEE TIP 2004): Gaussian-weighted
/// local means, variances and covariance (sigma 1.5, the window cut at 3.5 sigma: 11x11, the mask
/// libvips' `gaussmat` makes at a minimum amplitude of 0.0022), constants C1 = (0.01 x 255)^2 and
/// C2 = (0.03 x 255)^2, population (not sample) statistics, averaged over the bands and over the
/// pixels, the 5-pixel border left out. These are the paper's settings and scikit-image's
/// `structural_similarity(..., gaussian_weights=True, sigma=1.5, use_sample_covariance=False,
/// data_range=255, channel_axis=2)`, which `make bench` computes beside it (SimilarityTests hold
/// its values).
///
/// libvips prepares the planes (cropped, flattened, Y'CbCr, as float); the map is summed in double
/// by one C loop (CSimilarity), a strip of rows at a time, which reads each plane once for every
/// term: the same statistics as a graph of libvips operations cost 4-8 times more CPU a trial.
///
/// Images with alpha are compared as shown on white (alpha composited), so a difference in
/// transparency counts as a difference in colour.
public enum Similarity {
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
        /// The reference as float, in memory.
        let x: VImage

        init(_ image: VImage, area: PixelRect?) throws(ImagingError) {
            size = image.size
            self.area = area
            x = try prepared(image, area: area).materialized()
        }

        func ssim(_ candidate: VImage) throws(ImagingError) -> Double {
            guard candidate.size == size else {
                throw .operationFailed("SSIM of images of different sizes (\(size), \(candidate.size))")
            }
            return try mean(x: x, y: try prepared(candidate, area: area).materialized())
        }
    }

    /// The mean of the SSIM map of `y` against `x` (float planes of the same size and bands), the
    /// border left out (where the plane is larger than it each way), averaged over bands: summed
    /// a strip of rows at a time (``stripSamples``), so that a full screen's planes are never read
    /// whole into memory beside libvips' own.
    static func mean(x: VImage, y: VImage, stripSamples: Int = stripSamples) throws(ImagingError) -> Double {
        guard x.size == y.size, x.bands == y.bands else {
            throw .operationFailed("SSIM of planes of different sizes (\(x.size), \(y.size))")
        }
        let (width, height, bands) = (x.width, x.height, x.bands)
        let cut = width > 2 * border && height > 2 * border ? border : 0
        let (left, right, top, bottom) = (cut, width - cut, cut, height - cut)
        let radius = Int(csim_radius())
        let rowsPerStrip = max(16, stripSamples / max(1, width * bands))
        var total = csim_sum(sum: 0, count: 0)
        var outTop = top
        while outTop < bottom {
            let outBottom = min(bottom, outTop + rowsPerStrip)
            let stripTop = max(0, outTop - radius), stripEnd = min(height, outBottom + radius)
            let xs = try floats(x, top: stripTop, rows: stripEnd - stripTop)
            let ys = try floats(y, top: stripTop, rows: stripEnd - stripTop)
            let status = xs.withUnsafeBufferPointer { xp in
                ys.withUnsafeBufferPointer { yp in
                    csim_ssim_strip(xp.baseAddress, yp.baseAddress, Int32(width), Int32(bands), Int32(height),
                                    Int32(stripTop), Int32(stripEnd - stripTop), Int32(outTop), Int32(outBottom),
                                    Int32(left), Int32(right), &total)
                }
            }
            guard status == 0 else { throw .operationFailed("SSIM of a \(width)x\(height) plane: out of memory") }
            outTop = outBottom
        }
        guard total.count > 0 else { throw .operationFailed("SSIM of an empty plane") }
        return total.sum / Double(total.count)
    }

    /// Samples (pixels times bands) of each plane read at once: 4 MB of floats.
    static let stripSamples = 1 << 20

    /// Rows `top..<top + rows` of a float image, as floats.
    private static func floats(_ image: VImage, top: Int, rows: Int) throws(ImagingError) -> [Float] {
        let strip = top == 0 && rows == image.height ? image
            : try VipsOperation("extract_area").with("input", .image(image)).with("left", .int(0)).with("top", .int(top))
                .with("width", .int(image.width)).with("height", .int(rows)).image()
        let bytes = try strip.pixelBytes()
        let count = image.width * image.bands * rows
        guard bytes.count == count * MemoryLayout<Float>.size else {
            throw .operationFailed("a float plane of \(bytes.count) bytes where \(count) samples were expected")
        }
        return [Float](unsafeUninitializedCapacity: count) { buffer, initialized in
            bytes.withUnsafeBytes { raw in UnsafeMutableRawBufferPointer(buffer).copyMemory(from: raw) }
            initialized = count
        }
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
}
