import CVips
import CreativeCore

/// Uploaded bytes whose format is sniffed and whose header is read, with nothing decoded yet.
///
/// Opening checks, cheapest first: empty input, the format from the first bytes, then the
/// header's pixel count against the cap. Pixels are decoded only by a render or a strict check.
public final class ImageSource: @unchecked Sendable {
    /// The bytes as given.
    public let bytes: [UInt8]
    /// What decoders see: the bytes as given, except a PNG's unused chunks (text, unknown
    /// ancillary ones, an over-large colour profile), which are left out so nothing inflates them.
    let decoderBytes: [UInt8]
    /// Sentences naming the metadata left out for the decoder, for the `metadata_dropped`
    /// warning; empty when nothing the user could miss was dropped.
    public let droppedMetadata: [String]
    /// Bytes of the colour profile decoders see (0 without one): Little CMS holds it parsed
    /// while a render converts (charged, ``JobCost``).
    public let profileBytes: Int
    /// A JPEG's segments as walked before decoding (its scans and what they carry); nil for
    /// the other formats.
    public let jpegWalk: JPEGWalk?
    /// The format the bytes say they are.
    public let format: ImageFormat
    /// The lazily loaded image: header fields are read, pixels are not.
    public let header: VImage
    private let lock = Lock()
    private var kept: VImage?
    private var alphaSeenOpaque = false

    /// The whole image as the strict decode left it in memory (not PNG, whose strict check is
    /// libpng's): decoded once, then used by the pre-flight checks and the renders instead of a
    /// decode of their own. Nil until ``strictDecode(deadline:keepingPNGPixels:keepingPixels:)`` kept it.
    public var keptPixels: VImage? { lock.locked { kept } }

    /// Lets the kept pixels go (a job that holds what it made of them).
    public func releasePixels() { lock.locked { kept = nil } }

    /// Whether the upload's alpha channel may hide anything: its header has one, and no check
    /// has seen every pixel's alpha at 255 (``markAlphaOpaque()``). A render's alpha band is
    /// charged by it (``JobCost/AlphaBand``).
    public var mayBeTranslucent: Bool { header.hasAlpha && !lock.locked { alphaSeenOpaque } }

    /// Records that every pixel's alpha was read and is 255: the validator's decode of a PNG.
    func markAlphaOpaque() { lock.locked { alphaSeenOpaque = true } }

    /// Stored size (before EXIF orientation).
    public var storedSize: PixelSize { header.size }
    /// EXIF orientation, 1...8, as libvips read it (JPEG, WebP and PNG eXIf): the same value
    /// its `thumbnail` rotates by, so the displayed size and the render always agree.
    public var orientation: Int { header.orientation }
    /// Size as displayed, after EXIF orientation.
    public var displayedSize: PixelSize {
        orientation >= 5 ? PixelSize(width: storedSize.height, height: storedSize.width) : storedSize
    }

    /// Sniffs, reads the header, and enforces the pixel cap.
    /// - Throws: ``ImagingError/emptyFile``, ``ImagingError/notAnImage``,
    ///   ``ImagingError/unsupportedFormat(_:)``, ``ImagingError/tooManyPixels(width:height:cap:)``,
    ///   ``ImagingError/extremeShape(_:_:)`` (a side or an aspect ratio never decoded),
    ///   or ``ImagingError/corruptImage(_:)`` when the header cannot be read.
    ///   The pixel cap is checked on the header bytes themselves before libvips reads them.
    public init(bytes: [UInt8], maxPixels: Int = Catalog.defaultMaxPixels) throws(ImagingError) {
        guard !bytes.isEmpty else { throw .emptyFile }
        let format: ImageFormat
        switch ImageFormat.sniff(bytes) {
        case .accepted(let accepted): format = accepted
        case .unsupported(let name): throw .unsupportedFormat(name)
        case .notAnImage: throw .notAnImage
        }
        if let claimed = HeaderProbe.dimensions(bytes, format: format) {
            if claimed.exceeds(pixelCap: maxPixels) {
                throw .tooManyPixels(width: claimed.width, height: claimed.height, cap: maxPixels)
            }
            if let issue = DecodeShapeIssue.check(claimed) { throw .extremeShape(claimed, issue) }
        }
        // libpng 1.6.39, as libvips runs it (over-long chunks are only warnings), allocates an
        // eXIf chunk's declared length, up to 2 GiB, before reading it: refuse any chunk that
        // claims more bytes than the file has left.
        if format == .png, let overrun = PNGChunks.overrun(bytes) { throw .corruptImage(overrun) }
        // Each scan of a progressive JPEG is a pass over the whole image (its time is charged,
        // ``JobCost``; the count is a bound besides).
        let walk = format == .jpeg ? JPEGWalk(bytes) : nil
        if let scans = walk?.scans, scans > HeaderProbe.maxJPEGScans {
            throw .corruptImage("\(scans) scans, over the limit of \(HeaderProbe.maxJPEGScans) a JPEG may have "
                                + "(encoders write about 10); nothing was decoded")
        }
        jpegWalk = walk
        var (decoderBytes, droppedMetadata) = format == .png ? PNGStructure.decoderCopy(bytes) : (bytes, [])
        DecodeLedger.noteOpen()
        var header = try Self.load(decoderBytes, format: format, sequential: false)
        // The header load only attaches the profile (libvips assembles a JPEG's APP2 segments);
        // Little CMS reads it when a render builds its transform. One over the bounds is left
        // out of what decoders see, and the header read again without it.
        var profile = header.iccProfile
        if let embedded = profile, case .refused(let reason) = ICCProfileProbe.verdict(embedded) {
            decoderBytes = EmbeddedProfile.removed(from: decoderBytes, format: format)
            droppedMetadata.append("the colour profile \(reason); it was ignored and the image is taken as sRGB")
            header = try Self.load(decoderBytes, format: format, sequential: false)
            if header.hasICCProfile { throw .corruptImage("the colour profile \(reason), and it could not be left out") }
            profile = nil
        }
        self.decoderBytes = decoderBytes
        self.droppedMetadata = droppedMetadata
        self.profileBytes = profile?.count ?? 0
        if header.size.exceeds(pixelCap: maxPixels) {
            throw .tooManyPixels(width: header.width, height: header.height, cap: maxPixels)
        }
        if let issue = DecodeShapeIssue.check(header.size) { throw .extremeShape(header.size, issue) }
        self.bytes = bytes
        self.format = format
        self.header = header
    }

    /// Damage found by walking the container to its end without decompressing anything: every
    /// PNG chunk's CRC, the JPEG EOI, the GIF trailer, and data after the end (after IEND, EOI
    /// or the trailer, or past a WebP's RIFF size). Cheap, so it applies also to a file that is
    /// never decoded (a size the catalog does not accept). Nil when sound.
    public func containerDamage() -> String? {
        switch format {
        case .png: PNGChunks.damage(bytes)
        case .jpeg, .gif, .webp: HeaderProbe.endDamage(bytes, format: format)
        }
    }

    /// ``containerDamage()``, and for PNG what libpng's strict read (the validator's) refuses
    /// that libvips renders anyway: the chunks before the image data read strictly (a garbage
    /// colour profile), then the IDAT stream inflated once into a small buffer (its Adler-32,
    /// which libvips before 8.15.3 skips; data after its end or more than the image holds,
    /// which libvips never reads). libvips reports container damage only as warnings after the
    /// last row, which can come after the pixels were already taken, so renders check this
    /// first (decoding errors proper are libvips errors). No pixel is unfiltered or kept.
    /// - Throws: ``ImagingError/timeout(seconds:)`` when the deadline passes during the inflate.
    public func structuralDamage(deadline: Deadline? = nil) throws(ImagingError) -> String? {
        if let damage = containerDamage() { return damage }
        guard format == .png else { return nil }
        if let damage = PNGStructure.headerDamage(decoderBytes) { return damage }
        return try PNGStructure.idatStreamDamage(decoderBytes, deadline: deadline)
    }

    /// The image loaded again for one top-to-bottom pass (libvips' sequential access): a
    /// pipeline decodes it strip by strip as it pulls, and the whole image is never held in
    /// memory. Decoding errors surface when the pipeline is computed.
    /// - Throws: ``ImagingError/corruptImage(_:)`` when the header cannot be read.
    public func streamingImage() throws(ImagingError) -> VImage {
        DecodeLedger.noteDecode()
        return try Self.load(decoderBytes, format: format, sequential: true)
    }

    /// The whole image decoded in memory: the kept pixels, else the header's pixels decoded
    /// whole (random access: what an EXIF rotation and the pre-flight checks read).
    /// - Throws: ``ImagingError/corruptImage(_:)`` (or another libvips failure) when decoding fails.
    public func wholeImage() throws(ImagingError) -> VImage {
        if let kept = keptPixels { return kept }
        return try randomAccessImage().materialized()
    }

    /// The image a whole-image reader pulls: the kept pixels, else the header, whose pixels are
    /// then decoded whole on first use.
    public func randomAccessImage() -> VImage {
        if let kept = keptPixels { return kept }
        DecodeLedger.noteDecode()
        return header
    }

    /// The format's strict buffer loader over `bytes`: random access (pixels decoded whole on
    /// first use) or sequential (one top-to-bottom pass). Only the header is read here.
    /// - Throws: ``ImagingError/corruptImage(_:)`` when the header cannot be read.
    private static func load(_ bytes: [UInt8], format: ImageFormat, sequential: Bool) throws(ImagingError) -> VImage {
        var operation = VipsOperation(loader(for: format)).with("buffer", .bytes(bytes))
            .with("fail_on", .enumeration(failOn))
        if sequential { operation = operation.with("access", .enumeration("sequential")) }
        do throws(ImagingError) {
            return try operation.image()
        } catch .timeout(let seconds) {
            // The job's deadline (``JobDeadline``), not damage.
            throw .timeout(seconds: seconds)
        } catch .cancelled(let reason) {
            throw .cancelled(reason)
        } catch {
            throw .corruptImage(error.detail)
        }
    }

    /// Decodes every pixel strictly: libpng for PNG (every chunk, CRC, zlib stream and filter),
    /// libvips for the rest, then the container's end (``containerDamage()``). Returns the damage found
    /// (nil when the whole image decodes) and whether the samples are 16-bit. Costs a full
    /// decode: the validator's last check, and how a failed render tells damaged input from a
    /// processing fault. libvips' decode stops at the deadline; libpng's reads row by row and
    /// holds no image, and runs only on sizes the catalog accepts.
    /// - Throws: ``ImagingError/timeout(seconds:)`` past the deadline, ``ImagingError/cancelled(_:)``
    ///   when cancelled.
    /// `keepingPNGPixels`: an 8-bit RGB or RGBA PNG's rows, or a palette PNG's indices, come back
    /// (libpng decodes them anyway). `keepingPixels`: a sound image of another format stays decoded
    /// (``keptPixels``) for the pre-flight checks and the renders. Once pixels are kept, the image
    /// is known sound and nothing is decoded again.
    public func strictDecode(deadline: Deadline? = nil, keepingPNGPixels: Bool = false,
                             keepingPixels: Bool = false) throws(ImagingError)
        -> (damage: String?, sixteenBit: Bool, pngPixels: PreflightPixels?) {
        if keptPixels != nil { return (nil, header.isSixteenBit, nil) }
        DecodeLedger.noteDecode()
        if format == .png {
            // libpng over the decoder's copy, then the CRCs of the chunks left out of it. When
            // nothing was left out, libpng's strict read has checked every CRC already (every
            // chunk's, to IEND, and nothing after it): the walk would only repeat it.
            let check = PNGStructure.check(decoderBytes, maxPixels: storedSize.area, keeping: keepingPNGPixels ? storedSize : nil)
            let damage = check.damage ?? (decoderBytes == bytes ? nil : PNGChunks.damage(bytes))
            return (damage, check.bitDepth == 16, damage == nil ? check.pixels : nil)
        }
        do {
            // A fresh load, not `header`: once a render has pulled pixels through the header's
            // loader, libvips may hand back what it already decoded without the decoder's warning.
            let image = try Self.load(decoderBytes, format: format, sequential: false)
            // Every pixel computed through a reduction: the loader decodes the image once into its
            // own buffer, and nothing copies it again (a copy held twice the memory).
            try DeadlineWatch.run(image, deadline: deadline) { () throws(ImagingError) in
                try VipsOperation("max").with("in", .image(image)).execute()
            }
            let damage = containerDamage()
            if keepingPixels, damage == nil { lock.locked { kept = image } }
            return (damage, header.isSixteenBit, nil)
        } catch .timeout(let seconds) {
            throw .timeout(seconds: seconds)
        } catch .cancelled(let reason) {
            throw .cancelled(reason)
        } catch {
            return (error.detail, header.isSixteenBit, nil)
        }
    }

    /// Loaders fail on warnings too: libjpeg reports truncation and libpng bad CRCs as warnings.
    static let failOn = "warning"

    /// The libvips buffer loader for a format.
    static func loader(for format: ImageFormat) -> String {
        switch format {
        case .png: "pngload_buffer"
        case .jpeg: "jpegload_buffer"
        case .gif: "gifload_buffer"
        case .webp: "webpload_buffer"
        }
    }
}

extension ImagingError {
    /// The text inside the error, without its code.
    var detail: String {
        switch self {
        case .corruptImage(let text), .operationFailed(let text), .io(let text), .unsupportedFormat(let text):
            text
        default: message
        }
    }
}
