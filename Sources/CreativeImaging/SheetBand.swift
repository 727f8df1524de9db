import CVips
import CreativeCore

/// A preview sheet's pieces made ready to paint band after band without libvips: each image's
/// pixels where libvips holds them in memory (band-packed 8-bit RGB rows), each ink as its three
/// bytes, as libvips' `draw_rect` sets them. Painting is then copying rows: a banner sheet of 13
/// megapixels took 37 bands of a libvips `extract_area`, copy and `draw_image` for every piece it
/// crossed, and as many band copies.
struct SheetBand {
    /// One piece, as painted.
    enum Piece {
        /// An image's rows: `base` is its first pixel (the image, kept, holds the memory).
        case pixels(image: VImage, base: UnsafePointer<UInt8>, size: PixelSize, x: Int, y: Int)
        /// A filled rectangle, or (`fill` false) its one-pixel outline.
        case rect(PixelRect, ink: [UInt8], fill: Bool)
    }

    let width: Int
    let pieces: [Piece]
    let paper: [UInt8]

    /// The pieces of a sheet `width` pixels wide, in the order laid. Images must be 8-bit with 3
    /// bands; each is made readable in memory (the sheet's contents and dimmed copies are held
    /// already; a line of text, a view of its block, is copied).
    init(width: Int, pieces laid: [SheetCanvas.Piece], paper: [Double]) throws(ImagingError) {
        var inks: [[Double]: [UInt8]] = [:]
        func bytes(_ ink: [Double]) throws(ImagingError) -> [UInt8] {
            if let known = inks[ink] { return known }
            let made = try Self.inkBytes(ink)
            inks[ink] = made
            return made
        }
        var pieces: [Piece] = []
        for piece in laid {
            switch piece {
            case .image(let image, let x, let y):
                guard image.bands == 3, image.isEightBit else {
                    throw .operationFailed("a sheet piece of \(image.bands) bands, not 8-bit RGB")
                }
                guard let data = vips_image_get_data(image.pointer) else {
                    throw .operationFailed("a sheet piece's pixels: " + VipsRuntime.lastVipsError())
                }
                pieces.append(.pixels(image: image, base: data.assumingMemoryBound(to: UInt8.self), size: image.size,
                                      x: x, y: y))
            case .rect(let rect, let ink, let fill):
                pieces.append(.rect(rect, ink: try bytes(ink), fill: fill))
            }
        }
        self.width = width
        self.pieces = pieces
        self.paper = try bytes(paper)
    }

    /// The bytes `draw_rect` sets for `ink` in an 8-bit sRGB image (libvips' own rounding).
    private static func inkBytes(_ ink: [Double]) throws(ImagingError) -> [UInt8] {
        let black = try VipsOperation("black").with("width", .int(1)).with("height", .int(1)).with("bands", .int(3)).image()
        let pixel = try VipsOperation("copy").with("in", .image(black)).with("interpretation", .enumeration("srgb")).image()
            .materialized()
        try VipsOperation("draw_rect").with("image", .image(pixel)).with("ink", .doubles(ink))
            .with("left", .int(0)).with("top", .int(0)).with("width", .int(1)).with("height", .int(1))
            .with("fill", .bool(true)).execute()
        return try pixel.pixelBytes()
    }

    /// Paints the sheet's rows `top..<top + rows` into `band` (`width * 3` bytes a row): the
    /// paper, then each piece in the order laid.
    func paint(_ band: UnsafeMutableBufferPointer<UInt8>, top: Int, rows: Int) {
        guard let start = band.baseAddress, band.count >= width * rows * 3 else { return }
        fill(start, PixelRect(x: 0, y: 0, width: width, height: rows), paper)
        for piece in pieces {
            switch piece {
            case .pixels(_, let base, let size, let x, let y):
                let first = max(y, top), last = min(y + size.height, top + rows)
                let left = max(0, x), right = min(width, x + size.width)
                guard first < last, left < right else { continue }
                for row in first..<last {
                    (start + ((row - top) * width + left) * 3)
                        .update(from: base + ((row - y) * size.width + (left - x)) * 3, count: (right - left) * 3)
                }
            case .rect(let rect, let ink, let filled):
                let local = PixelRect(x: rect.x, y: rect.y - top, width: rect.width, height: rect.height)
                if filled {
                    fill(start, local, ink, rows: rows)
                } else {
                    // The outline: libvips' four one-pixel rectangles.
                    fill(start, PixelRect(x: local.x, y: local.y, width: local.width, height: 1), ink, rows: rows)
                    fill(start, PixelRect(x: local.x, y: local.y + local.height - 1, width: local.width, height: 1), ink,
                         rows: rows)
                    fill(start, PixelRect(x: local.x, y: local.y, width: 1, height: local.height), ink, rows: rows)
                    fill(start, PixelRect(x: local.x + local.width - 1, y: local.y, width: 1, height: local.height), ink,
                         rows: rows)
                }
            }
        }
    }

    /// Fills `rect` (band rows; clipped to the band, `rows` rows high, and the sheet's width) with `ink`.
    private func fill(_ start: UnsafeMutablePointer<UInt8>, _ rect: PixelRect, _ ink: [UInt8], rows: Int? = nil) {
        let height = rows ?? rect.height
        let first = max(0, rect.y), last = min(height, rect.y + rect.height)
        let left = max(0, rect.x), right = min(width, rect.x + rect.width)
        guard first < last, left < right, ink.count == 3 else { return }
        let line = start + (first * width + left) * 3
        for column in 0..<(right - left) {
            line[column * 3] = ink[0]
            line[column * 3 + 1] = ink[1]
            line[column * 3 + 2] = ink[2]
        }
        for row in (first + 1)..<max(first + 1, last) {
            (start + (row * width + left) * 3).update(from: line, count: (right - left) * 3)
        }
    }
}
