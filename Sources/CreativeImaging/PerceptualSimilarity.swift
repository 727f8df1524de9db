import CVips
import CreativeCore

/// What `auto` measures a candidate encoding by: SSIM (``Similarity``'s settings) on luma at
/// full resolution, and SSIM on chroma at half resolution, each against the lossless render as
/// it is shown (flattened on white where it is transparent; its bars are the slot's background).
///
/// Luma is where the eye sees detail; chroma it sees at a fraction of the resolution, which is why
/// JPEG and WebP subsample it. The mean SSIM over R, G and B that `auto` used before counted a
/// colour edge softened by 4:2:0 as a loss on R and B where nobody sees one, and a gradient
/// exported from JPEG never reached its target below lossless. Luma and chroma are Y'CbCr of
/// BT.601 (the matrix JPEG and WebP code with). Chroma is compared after a 2x2 box shrink, so it is
/// scored at the resolution the eye and the encoders give it, and at a quarter of the cost.
struct PerceptualScore: Sendable, Equatable {
    /// SSIM of Y' (1 means identical).
    let luma: Double
    /// SSIM of Cb and Cr, averaged, at half resolution.
    let chroma: Double

    /// Whether both terms keep their targets.
    func keeps(luma lumaTarget: Double, chroma chromaTarget: Double) -> Bool {
        luma >= lumaTarget && chroma >= chromaTarget
    }

    /// `SSIM luma 0.991, chroma 0.984`.
    var description: String {
        "SSIM luma \(TextFormat.decimal(luma, decimals: 3)), chroma \(TextFormat.decimal(chroma, decimals: 3))"
    }
}

extension Similarity {
    /// A lossless render's luma and chroma planes, computed once for every candidate
    /// (``AutoEncoder``). Holds 6 bytes a pixel of float planes (luma 4, chroma 2); each
    /// candidate adds about as much while it is scored, and gives it back.
    struct Perceptual {
        let size: PixelSize
        let area: PixelRect?
        private let luma: Planes
        private let chroma: Planes

        init(_ image: VImage, area: PixelRect?) throws(ImagingError) {
            size = image.size
            self.area = area
            let (y, cbcr) = try Self.split(image, area: area)
            luma = try Planes(y)
            chroma = try Planes(cbcr)
        }

        /// The candidate's score (same size as the reference, 8-bit sRGB).
        func score(_ candidate: VImage) throws(ImagingError) -> PerceptualScore {
            guard candidate.size == size else {
                throw .operationFailed("SSIM of images of different sizes (\(size), \(candidate.size))")
            }
            let (y, cbcr) = try Self.split(candidate, area: area)
            return PerceptualScore(luma: try luma.ssim(y), chroma: try chroma.ssim(cbcr))
        }

        /// Y' at full size and CbCr at half size, as float, of the image as shown.
        private static func split(_ image: VImage, area: PixelRect?) throws(ImagingError) -> (VImage, VImage) {
            let shown = try prepared(image, area: area)
            // Renders are RGB or RGBA (``PixelBuffer``); flattened, they are RGB.
            let rgb = shown.bands > 3
                ? try VipsOperation("extract_band").with("in", .image(shown)).with("band", .int(0)).with("n", .int(3)).image()
                : shown
            let ycbcr = try VipsOperation("recomb").with("in", .image(rgb)).with("m", .image(try VImage.matrix(bt601)))
                .image()
            let y = try VipsOperation("extract_band").with("in", .image(ycbcr)).with("band", .int(0)).image()
            var cbcr = try VipsOperation("extract_band").with("in", .image(ycbcr)).with("band", .int(1))
                .with("n", .int(2)).image()
            cbcr = try VipsOperation("linear").with("in", .image(cbcr)).with("a", .doubles([1]))
                .with("b", .doubles([128])).image()
            if cbcr.width >= 2 * (2 * border + 1), cbcr.height >= 2 * (2 * border + 1) {
                cbcr = try VipsOperation("shrink").with("in", .image(cbcr)).with("hshrink", .double(2))
                    .with("vshrink", .double(2)).image()
            }
            return (try y.materialized(), try cbcr.materialized())
        }

        /// RGB to Y'CbCr (BT.601, full range, without Cb and Cr's offset of 128).
        private static let bt601: [[Double]] = [
            [0.299, 0.587, 0.114],
            [-0.168736, -0.331264, 0.5],
            [0.5, -0.418688, -0.081312],
        ]
    }

    /// One reference plane (luma or chroma), float, in memory.
    private struct Planes {
        let x: VImage

        init(_ x: VImage) throws(ImagingError) {
            self.x = x
        }

        /// SSIM of `y` (the same plane of a candidate) against this, averaged over bands and pixels.
        func ssim(_ y: VImage) throws(ImagingError) -> Double {
            try Similarity.mean(x: x, y: y)
        }
    }
}
