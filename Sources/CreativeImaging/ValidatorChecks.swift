import CVips
import CreativeCore

/// The validator's checks past the header: animation, the strict decode, the pre-flight checks,
/// and the colour, depth, orientation and weight warnings (``Validator``).
extension Validator {
    static func checkAnimation(_ source: ImageSource, bytes: [UInt8], report: inout ValidationReport) {
        let animated: Bool
        switch source.format {
        case .png: animated = AnimationProbe.isAnimatedPNG(bytes)
        case .webp: animated = AnimationProbe.isAnimatedWebP(bytes) || source.header.pageCount > 1
        case .gif: animated = AnimationProbe.isAnimatedGIF(bytes)
        case .jpeg: animated = false
        }
        if animated { addAnimated(source.format, to: &report) }
    }

    static func addAnimated(_ format: ImageFormat, to report: inout ValidationReport) {
        report.add(.animated, "animated \(format.rawValue.uppercased()) is not accepted; "
                   + "upload one still frame (HTML5 ads are made in the ad editor)")
    }

    /// Decodes every pixel strictly, within the budget and the deadline; returns whether the
    /// samples are 16-bit, and a sound 8-bit RGB or RGBA PNG's rows (a palette PNG's indices) when
    /// asked to keep them.
    static func checkDecodes(_ source: ImageSource, job: JobLimits, deadline: Deadline?, keepingPNGPixels: Bool,
                                     report: inout ValidationReport) -> (Bool, PreflightPixels?) {
        do throws(ImagingError) {
            try job.charge(source.strictDecodeMemory)
            // A sound image of another format stays decoded for the pre-flight checks and the renders.
            let decode = try source.strictDecode(deadline: deadline, keepingPNGPixels: keepingPNGPixels,
                                                 keepingPixels: true)
            report.decoded = true
            if let damage = decode.damage {
                report.add(.corruptImage, "the \(source.format.rawValue.uppercased()) is damaged (\(damage)); export it again")
            }
            return (decode.sixteenBit, decode.pngPixels)
        } catch {
            report.add(ValidationCode(rawValue: error.code) ?? .corruptImage, error.message)
            return (source.header.isSixteenBit, nil)
        }
    }

    /// The pre-flight warnings (``Preflight``) on the upright image: an 8-bit RGB(A) PNG's rows (a
    /// palette PNG's indices) as libpng's strict decode kept them, else the decoded image (held by
    /// the header image; rotated when EXIF says so; a PNG whose pixels were not kept is decoded
    /// again in one sequential pass).
    /// Past the deadline the job fails (`timeout`); a budget too small for the checks, or a
    /// libvips failure, only skips them.
    static func checkPreflight(_ source: ImageSource, pngPixels: PreflightPixels?, job: JobLimits, deadline: Deadline?,
                                       report: inout ValidationReport) {
        do throws(ImagingError) {
            let findings: Preflight.Findings
            if let pngPixels {
                findings = try Preflight.check(pngPixels, deadline: deadline)
            } else {
                let image: VImage
                if source.orientation != 1 {
                    image = try VipsOperation("autorot").with("in", .image(source.randomAccessImage())).image()
                } else {
                    // The strict decode's pixels (a PNG's were libpng's: decoded again, in one pass).
                    image = source.format == .png ? try source.streamingImage() : source.randomAccessImage()
                }
                findings = try Preflight.check(image, lossless: source.format == .png || source.format == .gif, job: job,
                                               deadline: deadline)
            }
            for issue in findings.issues {
                report.add(issue.code, issue.message, regions: issue.regions)
            }
        } catch .timeout(let seconds) {
            report.add(.timeout, ImagingError.timeout(seconds: seconds).message)
        } catch {
            vips_error_clear()
        }
    }

    /// Why a PNG whose header libvips could not read is damaged: CRCs, then libpng over the
    /// decoder's copy (text chunks are never inflated).
    static func pngDamage(_ bytes: [UInt8], limits: ValidationLimits) -> String? {
        PNGStructure.check(PNGStructure.decoderCopy(bytes).0, maxPixels: limits.maxPixels).damage
            ?? PNGChunks.damage(bytes)
    }

    static func addWarnings(_ source: ImageSource, highBitDepth: Bool, report: inout ValidationReport) {
        let header = source.header
        let interpretation = header.interpretation
        if interpretation == VIPS_INTERPRETATION_CMYK {
            report.add(.notSRGB, "CMYK colour; renders are converted to sRGB, export in sRGB to control the result")
            for profile in report.profiles {
                if let issue = ProfileChecks.cmykIssue(profile: profile) { report.add(issue) }
            }
        } else if interpretation == VIPS_INTERPRETATION_B_W || interpretation == VIPS_INTERPRETATION_GREY16 {
            report.add(.notSRGB, "greyscale image; renders are converted to sRGB")
        } else if let profile = header.iccProfile, !isSRGBProfile(profile) {
            report.add(.notSRGB, "the embedded colour profile is not sRGB; renders are converted, "
                       + "export in sRGB to control the colours")
        }
        if highBitDepth {
            report.add(.highBitDepth, "16 bits per sample; renders are 8-bit, export 8-bit to save weight")
        }
        if source.orientation != 1 {
            report.add(.exifOrientation, "EXIF orientation \(source.orientation): the image is shown rotated or "
                       + "mirrored as \(source.displayedSize); export it upright")
        }
        if let bytes = report.bytes {
            if report.profiles.isEmpty {
                if let issue = ValidationRules.weightIssue(bytes: bytes) { report.add(issue.code, issue.message) }
            } else {
                for profile in report.profiles {
                    if let issue = ProfileChecks.guidelineIssue(bytes: bytes, profile: profile) { report.add(issue) }
                }
            }
        }
        for note in source.droppedMetadata {
            report.add(.metadataDropped, note)
        }
    }

    /// True when the profile's description names sRGB (ASCII or UTF-16).
    static func isSRGBProfile(_ profile: [UInt8]) -> Bool {
        let ascii = Array("sRGB".utf8)
        let utf16: [UInt8] = ascii.flatMap { byte -> [UInt8] in [0, byte] }
        return contains(profile, ascii) || contains(profile, utf16)
    }

    static func contains(_ haystack: [UInt8], _ needle: [UInt8]) -> Bool {
        guard haystack.count >= needle.count else { return false }
        for start in 0...(haystack.count - needle.count) where haystack[start] == needle[0] {
            if Array(haystack[start..<start + needle.count]) == needle { return true }
        }
        return false
    }
}
