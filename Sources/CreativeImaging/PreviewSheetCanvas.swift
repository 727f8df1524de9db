import CPNGWrite
import CVips
import CreativeCore

/// A preview sheet as it is drawn: the white paper's size and the pieces laid on it (text, slot
/// rectangles, contents); ``png()`` paints them band by band (``bandRows`` rows at a time) and
/// compresses each band into the PNG at once (``PNGStream``). The sheet is never whole in
/// memory: a 2x sheet of 20 megapixels holds one band of it and its file, where a canvas drawn
/// in place held 3 bytes a pixel and the saver's copy as many again. Each band is painted by
/// copying the pieces' rows (``SheetBand``): the contents are held in memory once per size by
/// the sheet that lays them, so painting reads them where libvips holds them.
final class SheetCanvas {
    /// Rows painted at a time.
    static let bandRows = 128
    /// zlib level: a large, throwaway picture, where fast compression matters more than the last bytes.
    static let zlibLevel: Int32 = 1

    let size: PixelSize
    /// One piece laid on the paper.
    enum Piece {
        case image(VImage, x: Int, y: Int)
        case rect(PixelRect, ink: [Double], fill: Bool)

        /// The rows it covers.
        var rows: Range<Int> {
            switch self {
            case .image(let image, _, let y): y..<(y + image.height)
            case .rect(let rect, _, _): rect.y..<(rect.y + rect.height)
            }
        }
    }
    private var pieces: [Piece] = []
    /// The pieces made ready to paint (``SheetBand``), once, before the first band: libvips'
    /// threads paint a JPEG's bands side by side and only read it.
    private var band: SheetBand?
    /// The job's deadline where the canvas was made (``JobDeadline``): checked before each band,
    /// also on libvips' worker threads, which paint a JPEG sheet's bands and have none bound.
    private let deadline: Deadline?

    init(_ size: PixelSize) {
        self.size = size
        deadline = JobDeadline.current.get()
    }

    /// The most bytes its PNG can take, whatever its pixels.
    var fileBound: Int { cpngw_stream_bound(Int32(size.width), Int32(size.height)) }

    /// Lays `piece` (8-bit sRGB, 3 bands) with its top left at (x, y). A piece in memory is
    /// read where it is; a pipeline (a line of text, a view of its block) is computed into memory
    /// when the sheet is first painted.
    func draw(_ piece: VImage, x: Int, y: Int) {
        pieces.append(.image(piece, x: x, y: y))
    }

    /// Fills (or, with `fill` false, outlines one pixel wide) a rectangle.
    func rect(_ rect: PixelRect, ink: [Double], fill: Bool = true) {
        pieces.append(.rect(rect, ink: ink, fill: fill))
    }

    /// The sheet as a PNG (8-bit RGB), the pieces painted in the order they were laid, written in
    /// place into at most `room` bytes (or the most it could take, when that is less), whose pages
    /// are only used as the file reaches them; nil when the file would take more (no file is
    /// kept then, ``SheetFile`` writes a JPEG instead).
    func png(within room: Int) throws(ImagingError) -> [UInt8]? {
        let room = min(room, fileBound)
        var failure: ImagingError?
        var overRoom = false
        let file = [UInt8](unsafeUninitializedCapacity: room) { buffer, count in
            count = 0
            do throws(ImagingError) {
                if let size = try paint(into: buffer) { count = size } else { overRoom = true }
            } catch {
                failure = error
            }
        }
        if let failure { throw failure }
        return overRoom ? nil : file
    }

    /// JPEG quality of a sheet too heavy for PNG (photographic content): 85, where the renders'
    /// own JPEG default sits; text on white stays sharp enough to read at 1:1.
    static let jpegQuality = 85

    /// The sheet as a baseline JPEG (quality ``jpegQuality``, colour not subsampled, so the
    /// one-pixel red outlines and coloured text keep their colour; metadata stripped), by
    /// libvips' saver from an image painted on demand (``paintRegion(_:)``): each strip the saver
    /// asks for is painted as a PNG band is, so the sheet is never whole in memory here either.
    func jpeg() throws(ImagingError) -> [UInt8] {
        _ = try prepared()
        guard let pointer = cvips_painted_image(Int32(size.width), Int32(size.height), sheetPaintCallback,
                                                Unmanaged.passUnretained(self).toOpaque()) else {
            throw .operationFailed("the sheet's image: " + VipsRuntime.lastVipsError())
        }
        // The image lives only as long as this call, which holds the canvas; asked for through a
        // line cache, it is painted ``bandRows`` rows at a time, as the PNG is.
        let painted = VImage(taking: pointer)
        do throws(ImagingError) {
            return try withExtendedLifetime(self) { () throws(ImagingError) -> [UInt8] in
                let sheet = try VipsOperation("linecache").with("in", .image(painted))
                    .with("tile_height", .int(Self.bandRows)).with("access", .enumeration("sequential")).image()
                return try VipsOperation("jpegsave_buffer").with("in", .image(sheet)).with("Q", .int(Self.jpegQuality))
                    .with("subsample_mode", .enumeration("off")).with("strip", .bool(true)).bytes()
            }
        } catch {
            // A band refused at the deadline fails the saver: the job's own error, not libvips'.
            if let deadline, deadline.hasPassed {
                vips_error_clear()
                throw deadline.expiry
            }
            throw error
        }
    }

    /// Paints the rows of `region` (libvips asks whole rows, from its worker threads, so each
    /// call paints into a band of its own).
    func paintRegion(_ region: UnsafeMutablePointer<VipsRegion>) throws(ImagingError) {
        let valid = cvips_region_valid(region)
        let top = Int(valid.top), rows = Int(valid.height), left = Int(valid.left), width = Int(valid.width)
        guard rows > 0, width > 0, left >= 0, left + width <= size.width else { return }
        guard let band else { throw .operationFailed("a sheet band painted before its pieces were ready") }
        try deadline?.check()
        var pixels = [UInt8](repeating: 0, count: size.width * rows * 3)
        pixels.withUnsafeMutableBufferPointer { band.paint($0, top: top, rows: rows) }
        let rowBytes = cvips_region_row_bytes(region)
        guard let first = cvips_region_address(region, valid.left, valid.top) else {
            throw .operationFailed("a sheet band shorter than its rows")
        }
        pixels.withUnsafeBufferPointer { source in
            guard let start = source.baseAddress else { return }
            for row in 0..<rows {
                (first + row * rowBytes).update(from: start + (row * size.width + left) * 3, count: width * 3)
            }
        }
    }

    /// The pieces ready to paint (made once).
    private func prepared() throws(ImagingError) -> SheetBand {
        if let band { return band }
        let made = try SheetBand(width: size.width, pieces: pieces, paper: PreviewSheet.paper)
        band = made
        return made
    }

    /// Paints every band into a PNG written into `buffer`; the file's size, or nil when it
    /// outgrew the buffer.
    private func paint(into buffer: UnsafeMutableBufferPointer<UInt8>) throws(ImagingError) -> Int? {
        let band = try prepared()
        let stream = try PNGStream(size, zlibLevel: Self.zlibLevel, into: buffer)
        var pixels = [UInt8](repeating: 0, count: size.width * min(Self.bandRows, size.height) * 3)
        var top = 0
        while top < size.height {
            try deadline?.check()
            let rows = min(Self.bandRows, size.height - top)
            pixels.withUnsafeMutableBufferPointer { band.paint($0, top: top, rows: rows) }
            guard try stream.write(pixels, rows: rows) else { return nil }
            top += rows
        }
        return try stream.finish()
    }
}

/// An 8-bit RGB PNG written a band of rows at a time through libpng (`CPNGWrite`'s stream),
/// into memory its caller gives (at least `cpngw_stream_bound` bytes). Owns the libpng stream
/// and frees it in `deinit`.
final class PNGStream {
    private let stream: OpaquePointer
    /// Where libpng's error goes: the stream keeps this address, so it is allocated, not a property.
    private let written: UnsafeMutablePointer<cpngw_written>
    let width: Int

    init(_ size: PixelSize, zlibLevel: Int32, into buffer: UnsafeMutableBufferPointer<UInt8>) throws(ImagingError) {
        width = size.width
        let written = UnsafeMutablePointer<cpngw_written>.allocate(capacity: 1)
        written.initialize(to: cpngw_written())
        guard let stream = cpngw_stream_begin(Int32(size.width), Int32(size.height), zlibLevel, buffer.baseAddress,
                                              buffer.count, written) else {
            let message = Self.message(written)
            written.deallocate()
            throw .operationFailed("starting the PNG failed: " + message)
        }
        self.stream = stream
        self.written = written
    }

    deinit {
        cpngw_stream_free(stream)
        written.deallocate()
    }

    /// Writes the first `rows` rows of `pixels` (`width * 3` bytes a row); false when the file
    /// outgrew the room it was given (the stream is then done).
    @discardableResult
    func write(_ pixels: [UInt8], rows: Int) throws(ImagingError) -> Bool {
        guard pixels.count >= rows * width * 3 else { throw .operationFailed("a band shorter than its rows") }
        let ok = pixels.withUnsafeBufferPointer { cpngw_stream_rows(stream, $0.baseAddress, Int32(rows)) }
        if ok != 1 && written.pointee.over_room == 1 { return false }
        guard ok == 1 else { throw .operationFailed("writing the PNG failed: " + Self.message(written)) }
        return true
    }

    /// The file's size, once every row is written; nil when its end outgrew the room.
    func finish() throws(ImagingError) -> Int? {
        var count = 0
        guard cpngw_stream_finish(stream, &count) == 1 else {
            if written.pointee.over_room == 1 { return nil }
            throw .operationFailed("ending the PNG failed: " + Self.message(written))
        }
        return count
    }

    private static func message(_ written: UnsafeMutablePointer<cpngw_written>) -> String {
        withUnsafeBytes(of: &written.pointee.message) { raw in String(decoding: raw.prefix { $0 != 0 }, as: UTF8.self) }
    }
}

/// libvips' call for a region of a sheet being saved as JPEG (``SheetCanvas/jpeg()``): `painter`
/// is the canvas, unretained (its `jpeg()` holds it while libvips may call this). 0 when painted.
func sheetPaintCallback(_ region: UnsafeMutablePointer<VipsRegion>?, _ painter: UnsafeMutableRawPointer?) -> Int32 {
    guard let region, let painter else { return -1 }
    let canvas = Unmanaged<SheetCanvas>.fromOpaque(painter).takeUnretainedValue()
    do {
        try canvas.paintRegion(region)
        return 0
    } catch {
        return -1
    }
}
