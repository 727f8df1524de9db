import CArtwork
import CreativeCore

/// The public test artwork: one PNG per Retina size, lettered at its final pixel size.
///
/// The lettering ("Test Ad", the artwork's pixel size and the slot it serves) is rendered
/// by Pango through libvips `text` at the artwork's own resolution, so it is crisp on
/// Retina screens and legible to OCR. Generation is deterministic: the same fonts give
/// the same bytes, and the committed `TestImages/` files are embedded in the binary.
public enum TestArtwork {
    /// The sizes of the test artwork (the banner's recommended uploads, its Retina sizes).
    public static var sizes: [PixelSize] { Product.banner.recommendedUploads }

    /// The file name of one artwork.
    public static func fileName(for size: PixelSize) -> String { "test-artwork-\(size).png" }

    /// The embedded PNG of a size, as committed in `TestImages/`; nil for other sizes.
    public static func embedded(_ size: PixelSize) -> [UInt8]? {
        var length = 0
        guard let bytes = creative_artwork_png(Int32(size.width), Int32(size.height), &length),
              length > 0 else { return nil }
        return Array(UnsafeBufferPointer(start: bytes, count: length))
    }

    /// The built-in artwork the adaptive selection rule picks for a canvas, opened.
    /// - Throws: ``ImagingError/operationFailed(_:)`` when the artwork is not built in.
    public static func source(for canvas: PixelSize) throws(ImagingError) -> ImageSource {
        let winner: PixelSize
        do {
            let result = try Selection.select(sizes, mode: .anchored, width: canvas.width, height: canvas.height,
                                              product: .banner)
            winner = sizes[result.winner]
        } catch {
            throw .operationFailed("no test artwork fits \(canvas): \(error.description)")
        }
        guard let bytes = embedded(winner) else { throw .operationFailed("test artwork \(winner) is not built in") }
        return try ImageSource(bytes: bytes)
    }

    static let backgroundColour: [Double] = [242, 245, 250]
    static let inkColour: [Double] = [11, 61, 145]

    /// Draws the artwork of a size anew and encodes it as PNG.
    /// - Throws: ``ImagingError/operationFailed(_:)`` when libvips or Pango fails.
    public static func generate(_ size: PixelSize) throws(ImagingError) -> [UInt8] {
        let border = max(2, size.height / 50)
        let ink = try flat(size, inkColour)
        let paper = try flat(PixelSize(width: size.width - 2 * border, height: size.height - 2 * border),
                             backgroundColour)
        var canvas = try VipsOperation("embed").with("in", .image(paper))
            .with("x", .int(border)).with("y", .int(border))
            .with("width", .int(size.width)).with("height", .int(size.height))
            .with("extend", .enumeration("background")).with("background", .doubles(inkColour))
            .image()

        let slot = Product.banner.entry(for: size)?.retinaOf.map { "serves \($0) pt @3x" } ?? "test artwork"
        let titlePixels = size.height * 40 / 100
        let detailPixels = size.height * 17 / 100
        let title = try lettering("Test Ad", pixels: titlePixels, bold: true)
        let detail = try lettering("\(size) px · \(slot)", pixels: detailPixels, bold: false)

        let gap = size.height / 20
        let blockHeight = title.height + gap + detail.height
        let top = (size.height - blockHeight) / 2
        canvas = try stamp(title, on: canvas, x: (size.width - title.width) / 2, y: top, ink: ink)
        canvas = try stamp(detail, on: canvas, x: (size.width - detail.width) / 2,
                           y: top + title.height + gap, ink: ink)
        return try VipsOperation("pngsave_buffer").with("in", .image(canvas))
            .with("strip", .bool(true)).with("compression", .int(9))
            .with("palette", .bool(true)).with("bitdepth", .int(4)).with("effort", .int(10))
            .bytes()
    }

    /// A solid 8-bit sRGB image.
    private static func flat(_ size: PixelSize, _ colour: [Double]) throws(ImagingError) -> VImage {
        let black = try VipsOperation("black").with("width", .int(size.width))
            .with("height", .int(size.height)).with("bands", .int(3)).image()
        let filled = try VipsOperation("linear").with("in", .image(black))
            .with("a", .doubles([1, 1, 1])).with("b", .doubles(colour)).with("uchar", .bool(true)).image()
        return try VipsOperation("copy").with("in", .image(filled))
            .with("interpretation", .enumeration("srgb")).image()
    }

    /// An antialiased text mask whose em is `pixels` high.
    private static func lettering(_ text: String, pixels: Int, bold: Bool) throws(ImagingError) -> VImage {
        let font = "DejaVu Sans\(bold ? " Bold" : "") \(pixels)px"
        return try VipsOperation("text").with("text", .string(TextFormat.markupEscaped(text)))
            .with("font", .string(font)).with("dpi", .int(72)).image()
    }

    /// Blends `ink` into `canvas` through `mask` placed at (x, y).
    private static func stamp(_ mask: VImage, on canvas: VImage, x: Int, y: Int,
                              ink: VImage) throws(ImagingError) -> VImage {
        let placed = try VipsOperation("embed").with("in", .image(mask))
            .with("x", .int(x)).with("y", .int(y))
            .with("width", .int(canvas.width)).with("height", .int(canvas.height)).image()
        return try VipsOperation("ifthenelse").with("cond", .image(placed))
            .with("in1", .image(ink)).with("in2", .image(canvas)).with("blend", .bool(true)).image()
    }
}
