import CVips
import CreativeCore

/// How `fix` brings a near-miss size to the accepted one without softening the artwork: a
/// 961-to-960 resample moves every edge by a fraction of a pixel and blurs it, which the
/// pre-flight check rightly reads as enlarged art. ``Fixer`` tries the methods in order and keeps
/// the first whose file has no warning the source lacks.
enum NearMissResize {
    /// A way to change the size.
    enum Method: Sendable, Equatable {
        /// Lines near the edges that repeat their inner neighbour taken out (or repeated): a uniform
        /// edge cropped or padded, no pixel resampled. Only for a difference of at most ``maxLines``.
        case lines
        /// Each pixel the nearest source pixel: a few columns or rows dropped or repeated across the
        /// picture, every edge kept crisp. Only for a difference of at most ``maxLines``.
        case nearest
        /// libvips' `thumbnail` (Lanczos 3), for a size that differs by more.
        case resample
    }

    /// The most pixels a side may differ for the methods that move whole lines ("a few pixels").
    static let maxLines = 4
    /// How far from each edge a repeating line is looked for.
    static let edgeMargin = 32

    /// The methods to try for `size` -> `target`, best first; none when the size is already right.
    static func methods(from size: PixelSize, to target: PixelSize) -> [Method] {
        guard size != target else { return [] }
        let near = abs(size.width - target.width) <= maxLines && abs(size.height - target.height) <= maxLines
        return near ? [.lines, .nearest, .resample] : [.resample]
    }

    /// A resized image and how it was made, for the `resized` line.
    struct Resized {
        let image: VImage
        let how: String
    }

    /// `image` (8-bit sRGB, upright, in memory) at `target` by `method`.
    /// - Returns: nil when `lines` finds too few repeating lines near the edges.
    static func resize(_ image: VImage, to target: PixelSize, method: Method) throws(ImagingError) -> Resized? {
        switch method {
        case .resample:
            return Resized(image: try ColourStep.srgb8(try ScaleStep.thumbnail(image, to: target)),
                           how: "resampled (Lanczos)")
        case .nearest:
            let columns = nearestMap(image.width, target.width), rows = nearestMap(image.height, target.height)
            return Resized(image: try remap(image, pixels: try image.pixelBytes(), columns: columns, rows: rows),
                           how: "nearest pixels (a few lines dropped or repeated across it; every edge kept crisp)")
        case .lines:
            let pixels = try image.pixelBytes()
            let bands = image.bands, width = image.width, height = image.height
            let sameColumns = { (a: Int, b: Int) -> Bool in
                (0..<height).allSatisfy { y in
                    let row = y * width * bands
                    return pixels[(row + a * bands)..<(row + a * bands + bands)]
                        .elementsEqual(pixels[(row + b * bands)..<(row + b * bands + bands)])
                }
            }
            let sameRows = { (a: Int, b: Int) -> Bool in
                let length = width * bands
                return pixels[(a * length)..<(a * length + length)].elementsEqual(pixels[(b * length)..<(b * length + length)])
            }
            // A line that shows nothing: every alpha 0 (an image with alpha has it as its last band).
            let alpha = image.hasAlpha ? bands - 1 : nil
            let blankColumn = { (x: Int) -> Bool in
                guard let alpha else { return false }
                return (0..<height).allSatisfy { y in pixels[(y * width + x) * bands + alpha] == 0 }
            }
            let blankRow = { (y: Int) -> Bool in
                guard let alpha else { return false }
                return (0..<width).allSatisfy { x in pixels[(y * width + x) * bands + alpha] == 0 }
            }
            guard let columns = lineMap(width, to: target.width, same: sameColumns, blank: blankColumn),
                  let rows = lineMap(height, to: target.height, same: sameRows, blank: blankRow) else { return nil }
            return Resized(image: try remap(image, pixels: pixels, columns: columns.map, rows: rows.map),
                           how: [columns.said("column"), rows.said("row")].compactMap { $0 }.joined(separator: ", ")
                               + ", where the edge is blank or repeats itself (no pixel resampled)")
        }
    }

    /// For each output line, the source line nearest its centre.
    static func nearestMap(_ count: Int, _ target: Int) -> [Int] {
        (0..<target).map { min(count - 1, Int((Double($0) + 0.5) * Double(count) / Double(target))) }
    }

    /// Which source lines make the output's, and what was done.
    struct LineMap {
        /// For each output line, its source line.
        let map: [Int]
        /// Lines taken out (positive) or repeated (negative).
        let change: Int
        /// Whether the lines were at the start (left, top), the end, or both.
        let start: Bool, end: Bool

        /// `1 column taken out at the right edge`, nil when nothing changed.
        func said(_ line: String) -> String? {
            guard change != 0 else { return nil }
            let count = abs(change)
            let edges = start && end ? "both edges" : start ? (line == "column" ? "the left edge" : "the top edge")
                : (line == "column" ? "the right edge" : "the bottom edge")
            return "\(count) \(line)\(count == 1 ? "" : "s") \(change > 0 ? "taken out" : "repeated") at \(edges)"
        }
    }

    /// `count` lines to `target`: lines near the edges that show nothing or repeat their neighbours are
    /// taken out (or repeated), nearest the edges first and alternating sides: first fully transparent
    /// lines at an edge (`blank`: padding), then lines within ``edgeMargin`` inside a run of three alike
    /// (a border keeps its width), then an edge line like its inner neighbour.
    /// - Returns: nil when there are fewer such lines than the difference.
    static func lineMap(_ count: Int, to target: Int, same: (Int, Int) -> Bool,
                        blank: (Int) -> Bool = { _ in false }) -> LineMap? {
        let difference = count - target, needed = abs(count - target)
        guard difference != 0 else { return LineMap(map: Array(0..<count), change: 0, start: false, end: false) }
        guard count >= 4 else { return nil }
        var candidates: [Int] = []
        var (left, right) = (0, count - 1)
        while candidates.count < needed, left < right, blank(left) || blank(right) {
            if blank(right) { candidates.append(right); right -= 1 }
            if candidates.count < needed, left < right, blank(left) { candidates.append(left); left += 1 }
        }
        let reach = min(edgeMargin, count / 2 - 1)
        for offset in stride(from: 1, to: reach, by: 1) {
            for line in [offset, count - 1 - offset] where candidates.count < needed && !candidates.contains(line) {
                if same(line, line - 1), same(line, line + 1) { candidates.append(line) }
            }
        }
        for (line, inner) in [(0, 1), (count - 1, count - 2)]
        where candidates.count < needed && !candidates.contains(line) && same(line, inner) {
            candidates.append(line)
        }
        guard candidates.count == abs(difference) else { return nil }
        let chosen = Set(candidates)
        let map = (0..<count).flatMap { line in
            chosen.contains(line) ? (difference > 0 ? [] : [line, line]) : [line]
        }
        return LineMap(map: map, change: difference, start: candidates.contains { $0 < count / 2 },
                       end: candidates.contains { $0 >= count / 2 })
    }

    /// A new image whose pixel (x, y) is `pixels`' (columns[x], rows[y]), tagged sRGB.
    static func remap(_ image: VImage, pixels: [UInt8], columns: [Int], rows: [Int]) throws(ImagingError) -> VImage {
        let bands = image.bands, width = image.width
        var out = [UInt8](repeating: 0, count: columns.count * rows.count * bands)
        var at = 0
        for row in rows {
            let base = row * width * bands
            for column in columns {
                let from = base + column * bands
                for band in 0..<bands { out[at + band] = pixels[from + band] }
                at += bands
            }
        }
        let made = out.withUnsafeBytes { buffer in
            vips_image_new_from_memory_copy(buffer.baseAddress, buffer.count, Int32(columns.count), Int32(rows.count),
                                            Int32(bands), VIPS_FORMAT_UCHAR)
        }
        guard let made else { throw .operationFailed(VipsRuntime.lastVipsError()) }
        return try VipsOperation("copy").with("in", .image(VImage(taking: made)))
            .with("interpretation", .enumeration("srgb")).image()
    }
}
