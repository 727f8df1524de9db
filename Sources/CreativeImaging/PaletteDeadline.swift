import CreativeCore

/// libimagequant, which libvips' palette PNG saver runs, cannot be stopped once it has started:
/// it reads no region libvips could kill, and libvips passes it no progress callback. A 2186x270
/// render of noise quantised with dithering took 2.96 s, so `fix --timeout 1` stopped at 3 s of
/// CPU. So a palette that might not finish before its job's deadline is first tried on a stripe
/// of the image (``stripeShare`` of its rows, across its middle); where the whole would take
/// longer than is left, the job stops there with its deadline's error (`timeout`, or
/// `cancelled`), before the quantiser starts.
enum PaletteDeadline {
    /// The most libimagequant took a pixel, measured (noise, dithered: 5.0 microseconds): a
    /// palette that takes at most this long in the time left runs without a trial.
    static let slowestSecondsPerPixel = 6e-6
    /// The trial stripe: a this-th of the rows.
    static let stripeShare = 8

    /// Throws the bound deadline's error when `saving` (a palette save of `image`) would not
    /// finish before it; returns at once where there is no deadline or time enough for the slowest.
    static func check(_ image: VImage, saving: VipsOperation) throws(ImagingError) {
        guard let deadline = JobDeadline.current.get() else { return }
        let left = deadline.remainingSeconds
        let pixels = Double(image.width) * Double(image.height)
        guard pixels * slowestSecondsPerPixel > left, image.height >= 2 * stripeShare else { return }
        let rows = image.height / stripeShare
        let stripe = try VipsOperation("extract_area").with("input", .image(image)).with("left", .int(0))
            .with("top", .int((image.height - rows) / 2)).with("width", .int(image.width)).with("height", .int(rows))
            .image().materialized()
        let started = Deadline.now()
        // The stripe's own save is the trial: it is not tried on a stripe of its own.
        _ = try saving.replacing("in", .image(stripe)).withoutPaletteTrial().bytes()
        let seconds = Double(Deadline.now() - started) / 1e9
        if seconds * Double(image.height) / Double(rows) > deadline.remainingSeconds { throw deadline.expiry }
    }
}
