import CVips
import CreativeCore

/// The lines `fix` says: what it changed, read from the source's header and the encoding chosen.
enum FixChanges {
    /// The changes to the pixels, in the order they are made: frame, orientation, colour, depth, size, metadata.
    static func before(_ source: ImageSource, animation: Fixer.Animation, target: PixelSize,
                       resize: String? = nil) -> [FixChange] {
        var changes: [FixChange] = []
        let header = source.header
        if let page = animation.page {
            let which = page == 0 ? " (the first, as render shows it)" : page + 1 == animation.frames ? " (the last)" : ""
            changes.append(FixChange(.frameKept, "animated \(source.format.rawValue.uppercased()) of \(animation.frames) "
                                     + "frames: frame \(page + 1)\(which) kept as the still image"))
        } else if animation.animatedPNG {
            changes.append(FixChange(.frameKept, "animated PNG: its default image kept as the still image"))
        }
        if source.orientation != 1 {
            changes.append(FixChange(.rotated, "EXIF orientation \(source.orientation) applied: the pixels are stored "
                                     + "upright as \(source.displayedSize)"))
        }
        if header.interpretation == VIPS_INTERPRETATION_CMYK {
            changes.append(FixChange(.convertedToSRGB, "CMYK converted to sRGB"
                                     + (header.hasICCProfile ? " through its embedded profile" : "")))
        } else if let profile = header.iccProfile, !Validator.isSRGBProfile(profile) {
            changes.append(FixChange(.convertedToSRGB, "the embedded colour profile converted to sRGB"))
        } else if header.interpretation == VIPS_INTERPRETATION_B_W || header.interpretation == VIPS_INTERPRETATION_GREY16 {
            changes.append(FixChange(.convertedToSRGB, "greyscale written as sRGB"))
        }
        if header.isSixteenBit { changes.append(FixChange(.depthReduced, "16 bits a sample written as 8")) }
        if target != source.displayedSize {
            let off = FixRequest.aspectDifference(source.displayedSize, target)
            changes.append(FixChange(.resized, "\(source.displayedSize) resized to \(target), the accepted size "
                                     + "(aspect ratio \(TextFormat.percent(off)) off)" + (resize.map { ": " + $0 } ?? "")))
        }
        let stripped = metadata(source)
        if !stripped.isEmpty {
            changes.append(FixChange(.metadataStripped, "metadata stripped: " + stripped.joined(separator: ", ")))
        }
        return changes
    }

    /// The metadata the source carries that the fixed file leaves out, for people (`EXIF`, `XMP`).
    static func metadata(_ source: ImageSource) -> [String] {
        let fields = Set(source.header.fieldNames)
        var found: [String] = []
        if fields.contains("exif-data") { found.append("EXIF") }
        if fields.contains("xmp-data") { found.append("XMP") }
        if fields.contains("iptc-data") { found.append("IPTC") }
        if let profile = source.header.iccProfile, Validator.isSRGBProfile(profile) { found.append("an sRGB colour profile") }
        if fields.contains(where: { $0.hasSuffix("-comment") || $0.hasPrefix("png-comment-") })
            || !source.droppedMetadata.isEmpty {
            found.append("comments and text")
        }
        return found
    }

    /// The encoding's line: the format change, and the weight reduced or the file written again.
    static func encoding(_ source: ImageSource, format: ImageFormat, encoding: WeightFit.Encoding,
                         maxBytes: Int, reason: String? = nil) -> [FixChange] {
        var changes: [FixChange] = []
        if format != source.format {
            changes.append(FixChange(.formatChanged, "\(source.format.rawValue.uppercased()) written as "
                                     + "\(format.rawValue.uppercased())" + (reason.map { " (\($0))" } ?? "")))
        }
        let sizes = "\(source.bytes.count) -> \(encoding.bytes.count) bytes"
        var detail = encoding.detail
        // A JPEG kept at its own quality (WeightFit's cap) says so.
        if format == .jpeg, source.format == .jpeg, let quality = JPEGQuality.estimate(source.bytes),
           quality < WeightFit.highestQuality, detail == "JPEG quality \(quality)" {
            detail += " (the source's quality)"
        }
        if source.bytes.count > maxBytes {
            changes.append(FixChange(.weightReduced, "\(sizes), within the weight of \(maxBytes) bytes: \(detail)"))
        } else {
            changes.append(FixChange(.reencoded, "\(sizes): \(detail)"))
        }
        return changes
    }
}
