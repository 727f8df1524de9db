import CreativeCore
#if canImport(Glibc)
import Glibc
#endif

/// Flat bars of one colour baked into the artwork, in source pixels from each edge (0: none).
public struct BarInsets: Sendable, Equatable {
    public var top = 0, bottom = 0, left = 0, right = 0

    /// The artwork inside the bars.
    public func content(of size: PixelSize) -> PixelSize {
        PixelSize(width: size.width - left - right, height: size.height - top - bottom)
    }
}

/// An image's 8-bit sRGB pixels, row by row: RGB or RGBA samples, or a palette image's indices
/// with its palette (as libpng's strict decode keeps them: mapping them to RGB would cost more
/// than the checks). The pixel statistics of the pre-flight checks: edge rows and columns, the
/// outer frame, colour shares, fine detail. Statistics over the whole picture read every
/// ``Preflight/sampleStep``-th line (they are shares and means, which a regular sample keeps);
/// edges and frames read every pixel.
public struct PreflightPixels: Sendable {
    let width: Int
    let height: Int
    /// 1 (palette indices), 3 (RGB, opaque) or 4 (RGBA).
    let bands: Int
    /// The samples, `bands` bytes a pixel.
    let samples: [UInt8]
    /// With palette indices: the RGBA of each of the 256 indices; two pixels are one colour
    /// only when they have one index (as libpng's strict decode keeps them).
    let palette: [UInt8]

    /// RGB or RGBA samples.
    init(width: Int, height: Int, bands: Int, rgba: [UInt8]) {
        self.width = width
        self.height = height
        self.bands = bands
        samples = rgba
        palette = []
    }

    /// Palette indices, one byte a pixel, and the RGBA of each of the 256 indices (pixels of
    /// one colour have one index).
    init(width: Int, height: Int, indices: [UInt8], palette: [UInt8]) {
        self.width = width
        self.height = height
        bands = 1
        samples = indices
        self.palette = palette
    }

    /// True when no pixel is translucent: RGB, RGBA whose every alpha is 255, or palette indices
    /// whose every entry used is opaque. Every pixel is read.
    func everyAlphaOpaque() -> Bool {
        switch bands {
        case 3: return true
        case 4: return stride(from: 3, to: samples.count, by: 4).allSatisfy { samples[$0] == 255 }
        case 1:
            var used = [Bool](repeating: false, count: 256)
            for index in samples { used[Int(index)] = true }
            return (0..<256).allSatisfy { !used[$0] || 4 * $0 + 3 >= palette.count || palette[4 * $0 + 3] == 255 }
        default: return false
        }
    }

    /// The same pixels as RGB, or RGBA when the palette has transparency (a palette image's).
    func expanded() -> PreflightPixels {
        guard bands == 1 else { return self }
        let alpha = stride(from: 3, to: palette.count, by: 4).contains { palette[$0] != 255 }
        let bands = alpha ? 4 : 3
        let rgba = [UInt8](unsafeUninitializedCapacity: samples.count * bands) { out, count in
            for (at, index) in samples.enumerated() {
                for band in 0..<bands { out[at * bands + band] = palette[Int(index) * 4 + band] }
            }
            count = samples.count * bands
        }
        return PreflightPixels(width: width, height: height, bands: bands, rgba: rgba)
    }

    /// Red, green, blue and alpha of the pixel at (x, y).
    @inline(__always) func sample(_ x: Int, _ y: Int) -> (Int, Int, Int, Int) {
        let pixel = y * width + x
        if bands == 1 {
            let at = Int(samples[pixel]) * 4
            return (Int(palette[at]), Int(palette[at + 1]), Int(palette[at + 2]), Int(palette[at + 3]))
        }
        let at = pixel * bands
        return (Int(samples[at]), Int(samples[at + 1]), Int(samples[at + 2]), bands == 4 ? Int(samples[at + 3]) : 255)
    }

    /// True when two pixels look the same: both (nearly) transparent, or every sample, alpha
    /// included, within `tolerance` (``Preflight/sameColourTolerance`` unless told).
    @inline(__always) func similar(_ x: Int, _ y: Int, _ reference: (Int, Int, Int, Int),
                                   tolerance: Int = Preflight.sameColourTolerance) -> Bool {
        let (red, green, blue, alpha) = sample(x, y)
        if alpha < Preflight.transparentAlpha && reference.3 < Preflight.transparentAlpha { return true }
        return abs(red - reference.0) <= tolerance && abs(green - reference.1) <= tolerance
            && abs(blue - reference.2) <= tolerance && abs(alpha - reference.3) <= tolerance
    }

    // MARK: Baked-in bars

    /// Bars along two opposite edges (top and bottom, or left and right), or nil. A bar is a run
    /// of lines from an edge whose pixels are (almost) all the edge's corner colour, within
    /// ``Preflight/barTolerance`` (JPEG's ringing and chroma noise included); the pair counts
    /// when both bars have that colour, each is at least ``Preflight/minimumBarLines`` thick,
    /// together they cover more than ``Preflight/barShare`` of the side, and one of the first
    /// ``Preflight/contentEdgeLines`` lines after each bar is a hard edge (most of its pixels
    /// differ from the bar): a letterbox, not a plain background around a logo.
    func bakedBars() -> BarInsets? {
        var insets = BarInsets()
        let vertical = barPair(lines: height, length: width) { line, along in (along, line) }
        let horizontal = barPair(lines: width, length: height) { line, along in (line, along) }
        if let (top, bottom) = vertical { insets.top = top; insets.bottom = bottom }
        if let (left, right) = horizontal { insets.left = left; insets.right = right }
        return vertical == nil && horizontal == nil ? nil : insets
    }

    /// The bar thickness at both ends of one direction; `point(line, along)` gives the pixel.
    private func barPair(lines: Int, length: Int, point: (Int, Int) -> (Int, Int)) -> (Int, Int)? {
        let (fx, fy) = point(0, 0)
        let (lx, ly) = point(lines - 1, length - 1)
        let first = sample(fx, fy)
        guard similar(lx, ly, first, tolerance: Preflight.barTolerance) else { return nil }
        func matching(_ line: Int, tolerance: Int) -> Int {
            var count = 0
            for along in 0..<length {
                let (x, y) = point(line, along)
                if similar(x, y, first, tolerance: tolerance) { count += 1 }
            }
            return count
        }
        let flatCount = Int((Double(length) * Preflight.barLineFlatShare).rounded(.up))
        var start = 0
        while start < lines && matching(start, tolerance: Preflight.barTolerance) >= flatCount { start += 1 }
        guard start < lines else { return nil }
        var end = 0
        while end < lines - start && matching(lines - 1 - end, tolerance: Preflight.barTolerance) >= flatCount { end += 1 }
        guard start >= Preflight.minimumBarLines, end >= Preflight.minimumBarLines,
              Double(start + end) > Double(lines) * Preflight.barShare else { return nil }
        // Hard edges where the content starts: most of a line, among the first few after the bar
        // (JPEG smears an edge over a line or two), is not the bar colour.
        let hardEdge = Double(length) * (1 - Preflight.contentEdgeBarShare)
        func hardEdgeFollows(_ line: Int, step: Int) -> Bool {
            (0..<Preflight.contentEdgeLines).contains { offset in
                let at = line + step * offset
                return at >= 0 && at < lines
                    && Double(length - matching(at, tolerance: Preflight.sameColourTolerance)) >= hardEdge
            }
        }
        guard hardEdgeFollows(start, step: 1), hardEdgeFollows(lines - 1 - end, step: -1) else { return nil }
        return (start, end)
    }

    // MARK: Outer frame

    /// The edges whose outer ``Preflight/frameLines`` lines are mostly near-white (or, when
    /// `dark`, near-black): more than ``Preflight/frameEdgeShare`` of their pixels. A 1 px border
    /// of a contrasting colour on the outermost (or the second) line keeps an edge under it.
    func blendingEdges(dark: Bool) -> [Edge] {
        func blends(_ x: Int, _ y: Int) -> Bool {
            let (red, green, blue, alpha) = sample(x, y)
            guard alpha >= 255 - Preflight.sameColourTolerance else { return false }
            return dark ? max(red, green, blue) <= Preflight.nearBlackMax : min(red, green, blue) >= Preflight.nearWhiteMin
        }
        let lines = min(Preflight.frameLines, height, width)
        var found: [Edge] = []
        for edge in Edge.allCases {
            var count = 0, total = 0
            for line in 0..<lines {
                switch edge {
                case .top, .bottom:
                    let y = edge == .top ? line : height - 1 - line
                    for x in 0..<width where blends(x, y) { count += 1 }
                    total += width
                case .left, .right:
                    let x = edge == .left ? line : width - 1 - line
                    for y in 0..<height where blends(x, y) { count += 1 }
                    total += height
                }
            }
            if Double(count) > Double(total) * Preflight.frameEdgeShare { found.append(edge) }
        }
        return found
    }

    /// An edge of the image.
    enum Edge: String, CaseIterable {
        case top, bottom, left, right
    }

    // MARK: Colour shares

    /// The share of pixels that are fully transparent, and the share of the most common colour
    /// (samples quantised to ``Preflight/colourBinBits`` bits; every transparent pixel is one colour).
    func colourShares() -> (transparent: Double, dominant: Double) {
        let bits = Preflight.colourBinBits
        let bins = 1 << (3 * bits)
        @inline(__always) func bin(_ red: UInt8, _ green: UInt8, _ blue: UInt8, _ alpha: UInt8) -> Int {
            guard Int(alpha) >= Preflight.transparentAlpha else { return bins }
            let shift = 8 - bits
            return (Int(red) >> shift) << (2 * bits) | (Int(green) >> shift) << bits | Int(blue) >> shift
        }
        var histogram = [Int](repeating: 0, count: bins + 1)
        let step = Preflight.sampleStep, bands = self.bands, width = self.width
        samples.withUnsafeBufferPointer { buffer in
            histogram.withUnsafeMutableBufferPointer { counts in
                guard let base = buffer.baseAddress, let counts = counts.baseAddress else { return }
                if bands == 1 {
                    // Indices counted first (four tables, so that runs of one index do not wait on
                    // each other), then each index's count added to its colour's bin.
                    let tables = UnsafeMutablePointer<Int>.allocate(capacity: 4 * 256)
                    defer { tables.deallocate() }
                    tables.initialize(repeating: 0, count: 4 * 256)
                    for y in stride(from: 0, to: height, by: step) {
                        let row = base + y * width
                        var x = 0
                        while x + 3 * step < width {
                            tables[Int(row[x])] += 1
                            tables[256 + Int(row[x + step])] += 1
                            tables[512 + Int(row[x + 2 * step])] += 1
                            tables[768 + Int(row[x + 3 * step])] += 1
                            x += 4 * step
                        }
                        while x < width {
                            tables[Int(row[x])] += 1
                            x += step
                        }
                    }
                    for index in 0..<256 {
                        let count = tables[index] + tables[256 + index] + tables[512 + index] + tables[768 + index]
                        let at = index * 4
                        if count > 0 { counts[bin(palette[at], palette[at + 1], palette[at + 2], palette[at + 3])] += count }
                    }
                    return
                }
                for y in stride(from: 0, to: height, by: step) {
                    let row = base + y * width * bands
                    if bands == 3 {
                        for x in stride(from: 0, to: width * 3, by: step * 3) {
                            counts[bin(row[x], row[x + 1], row[x + 2], 255)] += 1
                        }
                    } else {
                        for x in stride(from: 0, to: width * 4, by: step * 4) {
                            counts[bin(row[x], row[x + 1], row[x + 2], row[x + 3])] += 1
                        }
                    }
                }
            }
        }
        let count = Double(max(1, ((height + step - 1) / step) * ((width + step - 1) / step)))
        return (Double(histogram[bins]) / count, Double(histogram.max() ?? 0) / count)
    }

    // MARK: Pixel blocks (nearest-neighbour enlargement)

    /// How a nearest-neighbour enlargement shows: pixels repeat in blocks, so colours change only
    /// at every k-th column and row. Returns the enlargement factor the columns and rows suggest
    /// (active lines per changing line, the smaller of the two), or nil when too few lines change
    /// to tell. A line is active when a changing line lies within ``Preflight/blockWindow`` of it
    /// (flat areas are left out).
    func blockFactor() -> Double? {
        // Every row and column: a sample would miss the changes of thin shapes, and flat art
        // would look blocky. One pass in memory order; a row equal to the one above changes
        // no column the one above did not.
        var columnChanges = [UInt8](repeating: 0, count: width)
        var rowChanges = [Bool](repeating: false, count: height)
        let bands = self.bands, width = self.width, rowBytes = width * bands
        samples.withUnsafeBufferPointer { samples in
            columnChanges.withUnsafeMutableBufferPointer { columnChanges in
                rowChanges.withUnsafeMutableBufferPointer { rowChanges in
                    guard let base = samples.baseAddress, let changed = columnChanges.baseAddress, width > 1 else { return }
                    var settled = false
                    for y in 0..<height {
                        let row = base + y * rowBytes
                        if y > 0 {
                            rowChanges[y] = memcmp(row, row - rowBytes, rowBytes) != 0
                            if !rowChanges[y] || settled { continue }
                        }
                        // Once every column has changed, only rows are left to compare.
                        settled = memchr(changed + 1, 0, width - 1) == nil
                        // Nonzero where a sample differs from the pixel on the left, or did in a row above.
                        switch bands {
                        case 1:
                            for x in 1..<width { changed[x] |= row[x] ^ row[x - 1] }
                        case 3:
                            for x in 1..<width {
                                let at = x * 3
                                changed[x] |= (row[at] ^ row[at - 3]) | (row[at + 1] ^ row[at - 2]) | (row[at + 2] ^ row[at - 1])
                            }
                        default:
                            for x in 1..<width {
                                let at = x * 4
                                changed[x] |= (row[at] ^ row[at - 4]) | (row[at + 1] ^ row[at - 3]) | (row[at + 2] ^ row[at - 2])
                                    | (row[at + 3] ^ row[at - 1])
                            }
                        }
                    }
                }
            }
        }
        guard let columns = Self.activePerChanging(columnChanges.map { $0 != 0 }),
              let rows = Self.activePerChanging(rowChanges) else {
            return nil
        }
        return min(columns, rows)
    }

    private static func activePerChanging(_ changes: [Bool]) -> Double? {
        let window = Preflight.blockWindow
        var active = 0, changing = 0
        var lastChange = -window - 1
        var nextChange = changes.firstIndex(of: true) ?? changes.count + window + 1
        for index in changes.indices {
            if changes[index] {
                changing += 1
                lastChange = index
                nextChange = changes[(index + 1)...].firstIndex(of: true) ?? changes.count + window + 1
            }
            if index - lastChange <= window || nextChange - index <= window { active += 1 }
        }
        guard changing >= Preflight.minimumChangingLines,
              Double(changing) >= Double(changes.count) * Preflight.minimumChangingShare else { return nil }
        return Double(active) / Double(changing)
    }
}
