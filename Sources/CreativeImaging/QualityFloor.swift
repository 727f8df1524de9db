import CreativeCore

/// The quality floor of a budgeted render: a weight budget may lower a render's quality, never
/// below what a person would reject. A render the budget search lowered (a lossy quality under
/// the one asked, a palette in place of lossless PNG) is measured by luma SSIM against the
/// lossless render over the artwork's area, as `auto` measures its candidates (``PerceptualScore``'s
/// luma term); under ``luma`` it is not written, and the render is refused
/// ``ImagingError/overWeightBudget(format:smallest:budget:shortfall:)``.
public enum QualityFloor {
    /// The lowest luma SSIM a budgeted render is written at. `auto`'s "looks the same" target
    /// (``AutoEncoder/lumaTarget``, 0.975) is a target, not a floor: a photograph's sensor grain
    /// counts as lost structure, and WebP quality 85 of a grainy photograph scores 0.958 and looks
    /// fine. Measured (docs/reference.md, "Weight budget"): posterised photographs score 0.865
    /// (an interstitial's 4-colour palette), 0.889 (its 16 colours) and 0.744 (a 960x150 banner's
    /// 16 colours); a smooth photograph's 59-colour palette 0.928, its WebP quality 10 0.940.
    public static let luma = 0.90

    /// Whether a score keeps the floor.
    static func keeps(_ luma: Double) -> Bool { luma >= Self.luma }

    /// `0.900`, as messages write it.
    static var text: String { TextFormat.decimal(luma, decimals: 3) }

    /// The luma SSIM of `bytes` (a file in `format`) against `reference` (the lossless render) over
    /// `area` (nil: the whole render).
    static func score(_ bytes: [UInt8], _ format: OutputFormat, against reference: VImage,
                      area: PixelRect?) throws(ImagingError) -> Double {
        try Similarity.lumaSSIM(reference, try format.readBack(bytes), area: area)
    }
}

extension Similarity {
    /// SSIM of Y' (BT.601, as ``PerceptualScore/luma``) of `candidate` against `reference`, over
    /// `area`. Unlike ``Perceptual``, which holds 6 bytes a pixel of the reference's planes for
    /// many candidates, the reference's plane is computed a strip at a time as it is read: one
    /// candidate scored on a full screen (3 million pixels) holds one float plane of it.
    static func lumaSSIM(_ reference: VImage, _ candidate: VImage, area: PixelRect?) throws(ImagingError) -> Double {
        guard candidate.size == reference.size else {
            throw .operationFailed("SSIM of images of different sizes (\(reference.size), \(candidate.size))")
        }
        // The reference streamed, a strip of rows at a time; the candidate's decode held once.
        return try mean(x: try lumaPlane(reference, area: area), y: try lumaPlane(candidate, area: area).materialized())
    }

    /// Y' as float, of the image as shown (flattened on white), cropped to `area`.
    private static func lumaPlane(_ image: VImage, area: PixelRect?) throws(ImagingError) -> VImage {
        let shown = try prepared(image, area: area)
        let rgb = shown.bands > 3
            ? try VipsOperation("extract_band").with("in", .image(shown)).with("band", .int(0)).with("n", .int(3)).image()
            : shown
        if rgb.bands == 1 { return rgb }
        return try VipsOperation("recomb").with("in", .image(rgb)).with("m", .image(try VImage.matrix([[0.299, 0.587, 0.114]])))
            .image()
    }
}
