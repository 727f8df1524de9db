import CreativeCore

/// What a decode holds in memory, decided from the header before decoding (docs/cost-model.md):
/// the figure a job's budget (``JobLimits``) and the process' budget (``MemoryBudget``) are charged.
extension ImageSource {
    /// Bytes the decode needs held at once, from the header, before decoding: width x height x
    /// bands x bytes per band of whatever cannot stream. Streams (non-interlaced PNG, baseline
    /// JPEG in one scan) count nothing. Counted: an interlaced PNG whole; the DCT coefficients
    /// (2 bytes a sample) of the whole image of a progressive JPEG, or of any JPEG one of whose
    /// scans lacks a component (``HeaderProbe/jpegHoldsCoefficients(_:walk:)``); a GIF frame (4 bytes a pixel); a
    /// WebP's output at `content` size (it is decoded whole), plus the full-size image for a
    /// lossless one and the alpha plane of a lossy one; an EXIF-rotated image decoded whole.
    /// - Parameter content: the size the render scales to (shrink-on-load for JPEG and WebP);
    ///   nil for a full-size decode (the validator's strict decode, `process`).
    public func decodeMemory(content: PixelSize? = nil) -> Int {
        let stored = storedSize.pixelCount ?? Int.max / 64
        let bands = header.bands, sample = header.isSixteenBit ? 2 : 1
        var bytes: Int
        switch format {
        case .png:
            bytes = HeaderProbe.isInterlacedPNG(self.bytes) ? stored * bands * sample : 0
        case .jpeg:
            bytes = holdsCoefficients ? stored * bands * 2 : 0
        case .gif:
            bytes = stored * 4
        case .webp:
            let output = content.flatMap(\.pixelCount) ?? stored
            bytes = output * 4
            if HeaderProbe.isLosslessWebP(self.bytes) { bytes += stored * 4 }
            else if HeaderProbe.webpHasAlpha(self.bytes) { bytes += stored }
        }
        if orientation != 1 || content == nil { bytes += stored * bands * sample }
        return bytes
    }

    /// True for a JPEG whose decoder keeps the whole image's coefficients until its last scan.
    public var holdsCoefficients: Bool {
        format == .jpeg && HeaderProbe.jpegHoldsCoefficients(bytes, walk: jpegWalk)
    }

    /// Sample bytes charged for a JPEG's scans, beyond the samples it decodes: the coefficients
    /// its scans cover (``JPEGWalk/scanCoefficients``) over ``JobCost/scanCoefficientsPerByte``,
    /// for a JPEG decoded scan by scan (``holdsCoefficients``); 0 otherwise.
    public var scanDecodeCharge: Int {
        guard holdsCoefficients, let walk = jpegWalk else { return 0 }
        return walk.scanCoefficients / JobCost.scanCoefficientsPerByte
    }

    /// Bytes ``strictDecode(deadline:)`` holds at once: none for PNG (libpng reads row by row,
    /// interlaced or not), the whole image for the rest (``decodeMemory(content:)`` with no content).
    public var strictDecodeMemory: Int { format == .png ? 0 : decodeMemory() }
}
