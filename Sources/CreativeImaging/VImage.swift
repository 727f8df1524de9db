import CVips
import CreativeCore

/// A libvips image that owns exactly one reference, released in `deinit`.
///
/// Images are immutable; operations make new ones. An image may be lazy (its pixels
/// computed when something reads them); ``materialized()`` computes them into memory.
public final class VImage: @unchecked Sendable {
    let pointer: UnsafeMutablePointer<CVips.VipsImage>

    /// Takes over a reference the caller owns (as returned by a libvips constructor).
    init(taking pointer: UnsafeMutablePointer<CVips.VipsImage>) {
        self.pointer = pointer
    }

    /// Adds a reference of its own to an image somebody else owns.
    init(retaining pointer: UnsafeMutablePointer<CVips.VipsImage>) {
        g_object_ref(pointer)
        self.pointer = pointer
    }

    deinit {
        g_object_unref(pointer)
    }

    /// Width in pixels.
    public var width: Int { Int(vips_image_get_width(pointer)) }
    /// Height in pixels.
    public var height: Int { Int(vips_image_get_height(pointer)) }
    /// Number of bands (1 grey, 2 grey+alpha, 3 RGB, 4 RGBA or CMYK, 5 CMYK+alpha).
    public var bands: Int { Int(vips_image_get_bands(pointer)) }
    /// Size as a value.
    public var size: PixelSize { .init(width: width, height: height) }
    /// True when the last band is alpha.
    public var hasAlpha: Bool { vips_image_hasalpha(pointer) != 0 }
    /// True when each band sample is an 8-bit unsigned value.
    public var isEightBit: Bool { vips_image_get_format(pointer) == VIPS_FORMAT_UCHAR }
    /// True when samples are 16-bit.
    public var isSixteenBit: Bool {
        let format = vips_image_get_format(pointer)
        return format == VIPS_FORMAT_USHORT || format == VIPS_FORMAT_SHORT
    }
    /// The colour interpretation libvips assigned (sRGB, B_W, CMYK, RGB16, ...).
    public var interpretation: VipsInterpretation { vips_image_get_interpretation(pointer) }
    /// True when the interpretation is 8-bit sRGB.
    public var isSRGB: Bool { interpretation == VIPS_INTERPRETATION_sRGB }
    /// True when an ICC profile is attached.
    public var hasICCProfile: Bool { vips_image_get_typeof(pointer, "icc-profile-data") != 0 }

    /// The attached ICC profile's bytes, or nil.
    public var iccProfile: [UInt8]? { blobField("icc-profile-data") }

    /// A binary metadata field (`icc-profile-data`, `exif-data`, ...), or nil when absent.
    public func blobField(_ name: String) -> [UInt8]? {
        guard vips_image_get_typeof(pointer, name) != 0 else { return nil }
        var data: UnsafeRawPointer?
        var length = 0
        guard vips_image_get_blob(pointer, name, &data, &length) == 0, let data else {
            vips_error_clear()
            return nil
        }
        return Array(UnsafeRawBufferPointer(start: data, count: length))
    }

    /// The names of every metadata field the image carries (`exif-data`, `xmp-data`, `png-comment-0-Title`,
    /// and libvips' own: `width`, `bands`, ...).
    public var fieldNames: [String] {
        guard let fields = vips_image_get_fields(pointer) else { return [] }
        defer { g_strfreev(fields) }
        var names: [String] = []
        var index = 0
        while let field = fields[index] {
            names.append(String(cString: field))
            index += 1
        }
        return names
    }

    /// An integer metadata field, or nil when absent.
    public func intField(_ name: String) -> Int? {
        guard vips_image_get_typeof(pointer, name) != 0 else { return nil }
        var value: Int32 = 0
        guard vips_image_get_int(pointer, name, &value) == 0 else {
            vips_error_clear()
            return nil
        }
        return Int(value)
    }

    /// A copy of this image with an integer metadata field set (the original is unchanged).
    public func settingInt(_ name: String, _ value: Int) throws(ImagingError) -> VImage {
        let copy = try VipsOperation("copy").with("in", .image(self)).image()
        vips_image_set_int(copy.pointer, name, Int32(clamping: value))
        return copy
    }

    /// A copy of this image with a binary metadata field set (`icc-profile-data`: savers embed it).
    public func settingBlob(_ name: String, _ value: [UInt8]) throws(ImagingError) -> VImage {
        let copy = try VipsOperation("copy").with("in", .image(self)).image()
        value.withUnsafeBytes { vips_image_set_blob_copy(copy.pointer, name, $0.baseAddress, $0.count) }
        return copy
    }

    /// The EXIF orientation (1...8), 1 when absent.
    public var orientation: Int {
        let value = intField("orientation") ?? 1
        return (1...8).contains(value) ? value : 1
    }

    /// Number of frames or pages the loader saw (1 for a still image).
    public var pageCount: Int { max(1, intField("n-pages") ?? 1) }

    /// Computes every pixel into memory; decoding errors surface here.
    /// - Throws: ``ImagingError/corruptImage(_:)`` with libvips' message.
    public func materialized() throws(ImagingError) -> VImage {
        guard let copy = vips_image_copy_memory(pointer) else {
            throw .corruptImage(VipsRuntime.lastVipsError())
        }
        return VImage(taking: copy)
    }

    /// The raw pixel bytes (band-interleaved, row by row) of an 8-bit image.
    /// - Throws: ``ImagingError/operationFailed(_:)`` when the image cannot be computed.
    public func pixelBytes() throws(ImagingError) -> [UInt8] {
        var length = 0
        guard let memory = vips_image_write_to_memory(pointer, &length) else {
            throw .operationFailed(VipsRuntime.lastVipsError())
        }
        defer { g_free(memory) }
        return Array(UnsafeRawBufferPointer(start: memory, count: length))
    }

    /// A matrix image (rows of equal length), for operations that take one (`recomb`, `conv`).
    /// - Throws: ``ImagingError/operationFailed(_:)`` for ragged or empty rows.
    static func matrix(_ rows: [[Double]]) throws(ImagingError) -> VImage {
        let width = rows.first?.count ?? 0
        guard width > 0, rows.allSatisfy({ $0.count == width }) else {
            throw .operationFailed("a matrix needs rows of equal, non-zero length")
        }
        var values = rows.flatMap { $0 }
        guard let made = vips_image_new_matrix_from_array(Int32(width), Int32(rows.count), &values, Int32(values.count)) else {
            throw .operationFailed(VipsRuntime.lastVipsError())
        }
        return VImage(taking: made)
    }
}
