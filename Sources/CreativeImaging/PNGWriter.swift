import CPNGWrite
import CVips

/// The pixels of a render in memory: 8-bit RGB or RGBA, rows packed. Owns the libvips buffer
/// and frees it in `deinit`.
final class PixelBuffer: @unchecked Sendable {
    let pointer: UnsafeMutableRawPointer
    let count: Int
    let width: Int
    let height: Int
    let bands: Int

    /// Computes `image` (8-bit sRGB, 3 or 4 bands) into memory. Decoding errors of a lazy
    /// render surface here, as ``ImagingError/operationFailed(_:)``, as they would in a saver.
    init(_ image: VImage) throws(ImagingError) {
        guard image.isEightBit, image.bands == 3 || image.bands == 4 else {
            throw .operationFailed("only 8-bit RGB or RGBA renders can be encoded (\(image.bands) bands)")
        }
        var length = 0
        guard let memory = vips_image_write_to_memory(image.pointer, &length) else {
            throw .operationFailed(VipsRuntime.lastVipsError())
        }
        pointer = memory
        count = length
        width = image.width
        height = image.height
        bands = image.bands
    }

    deinit { g_free(pointer) }

    /// What the pixels need to be written losslessly (one pass over them).
    func analysis() -> cpngw_analysis {
        var analysis = cpngw_analysis()
        cpngw_analyse(pointer.assumingMemoryBound(to: UInt8.self), Int32(width), Int32(height), Int32(bands), &analysis)
        return analysis
    }

    /// A libvips image of these pixels (a copy: it may outlive this buffer).
    func image() throws(ImagingError) -> VImage {
        guard let made = vips_image_new_from_memory_copy(pointer, count, Int32(width), Int32(height), Int32(bands),
                                                         VIPS_FORMAT_UCHAR) else {
            throw .operationFailed(VipsRuntime.lastVipsError())
        }
        // Tagged sRGB, as the render was, so that a fourth band counts as alpha.
        return try VipsOperation("copy").with("in", .image(VImage(taking: made)))
            .with("interpretation", .enumeration("srgb")).image()
    }
}

/// The PNG written by ``PNGWriter``: its bytes and the colour type chosen.
struct WrittenPNG {
    let bytes: [UInt8]
    /// `palette of N colours`, `RGB, transparent key`, `RGB` or `RGBA`.
    let layout: String
}

/// Lossless PNG through libpng (`CPNGWrite`), in the smallest colour type that holds the render
/// exactly: a 1-8 bit palette (with `tRNS`) up to 256 colours, RGB with a `tRNS` colour key when
/// the only transparency is fully transparent bars, else RGBA. The row filter and zlib
/// level follow the content (``PNGWriter/choice(for:)``).
enum PNGWriter {
    /// Share of pixels equal to their left neighbour at or above which rows are written without
    /// a filter. Flat art repeats: the test artwork's 1170x183 render 0.94 (no filter 24.9 KB,
    /// adaptive 29.2 KB at level 4); photographs do not: the bench photo's render 0.21 from PNG
    /// and 0.24 from JPEG (adaptive 253 KB and 246 KB, no filter 445 KB and 419 KB).
    static let unfilteredRepeatShare = 0.5

    /// zlib level. On the bench photo's 1170x183 render with adaptive filters, level 4 gives
    /// 253 KB in 34 ms, level 1 279 KB in 14 ms, levels 6 and 9 254 KB in 96 ms; on the flat test
    /// artwork's, unfiltered, level 4 gives 24.9 KB in 5.8 ms, level 9 23.9 KB in 12 ms, level 3
    /// 26.6 KB (more than libvips' earlier 25.9 KB).
    static let zlibLevel: Int32 = 4

    /// The options for these pixels: filters for photographic content, none for flat art.
    static func choice(for analysis: cpngw_analysis) -> cpngw_options {
        cpngw_options(zlib_level: zlibLevel, filter: analysis.repeats >= unfilteredRepeatShare ? 0 : 1, allow_palette: 1)
    }

    /// Writes `pixels` losslessly.
    static func write(_ pixels: PixelBuffer, analysis: cpngw_analysis) throws(ImagingError) -> WrittenPNG {
        var analysis = analysis
        var options = choice(for: analysis)
        var written = cpngw_written()
        var output: UnsafeMutablePointer<UInt8>?
        var size = 0
        let ok = cpngw_encode(pixels.pointer.assumingMemoryBound(to: UInt8.self), Int32(pixels.width),
                              Int32(pixels.height), Int32(pixels.bands), &analysis, &options, &output, &size, &written)
        defer { cpngw_free(output) }
        guard ok == 1, let output else {
            throw .operationFailed("writing the PNG failed: " + message(of: &written))
        }
        return WrittenPNG(bytes: Array(UnsafeBufferPointer(start: output, count: size)), layout: layout(of: written))
    }

    private static func layout(of written: cpngw_written) -> String {
        switch written.colour_type {
        case 3: return "palette of \(written.palette_size) colours"
        case 2: return written.transparent_key == 1 ? "RGB, transparent key" : "RGB"
        default: return "RGBA"
        }
    }

    private static func message(of written: inout cpngw_written) -> String {
        withUnsafeBytes(of: &written.message) { raw in
            String(decoding: raw.prefix { $0 != 0 }, as: UTF8.self)
        }
    }
}
