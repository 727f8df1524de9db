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

/// An image's 8-bit sRGB samples (RGB or RGBA), row by row, and the pixel statistics of the
/// pre-flight checks: edge rows and columns, the outer frame, colour shares, fine detail.
/// Statistics over the whole picture read every ``Preflight/sampleStep``-th line (they are
/// shares and means, which a regular sample keeps); edges and frames read every pixel.
struct PreflightPixels {
    let width: Int
    let height: Int
    /// 3 (RGB, opaque) or 4 (RGBA).
    let bands: Int
    /// The samples, `bands` bytes a pixel.
    let rgba: [UInt8]

    init(width: Int, height: Int, bands: Int, rgba: [UInt8]) {
        self.width = width
        self.height = height
        self.bands = bands
        self.rgba = rgba
    }

    /// Alpha of the pixel whose samples start at `at`.
    @inline(__always) private func alpha(_ at: Int) -> Int { bands == 4 ? Int(rgba[at + 3]) : 255 }

    /// The pixel at (x, y) packed into one value (R, G, B, A from the high byte), for equality.
    @inline(__always) func packed(_ x: Int, _ y: Int) -> UInt32 {
        let at = (y * width + x) * bands
        return UInt32(rgba[at]) << 24 | UInt32(rgba[at + 1]) << 16 | UInt32(rgba[at + 2]) << 8 | UInt32(alpha(at))
    }

    /// True when two pixels look the same: both (nearly) transparent, or every sample, alpha
    /// included, within ``Preflight/sameColourTolerance``.
    @inline(__always) func similar(_ x: Int, _ y: Int, _ reference: (Int, Int, Int, Int)) -> Bool {
        let at = (y * width + x) * bands
        let alpha = alpha(at)
        if alpha < Preflight.transparentAlpha && reference.3 < Preflight.transparentAlpha { return true }
        let tolerance = Preflight.sameColourTolerance
        return abs(Int(rgba[at]) - reference.0) <= tolerance && abs(Int(rgba[at + 1]) - reference.1) <= tolerance
            && abs(Int(rgba[at + 2]) - reference.2) <= tolerance && abs(alpha - reference.3) <= tolerance
    }

    func sample(_ x: Int, _ y: Int) -> (Int, Int, Int, Int) {
        let at = (y * width + x) * bands
        return (Int(rgba[at]), Int(rgba[at + 1]), Int(rgba[at + 2]), alpha(at))
    }

    // MARK: Baked-in bars

    /// Bars along two opposite edges (top and bottom, or left and right), or nil. A bar is a run
    /// of lines from an edge whose pixels are (almost) all the edge's corner colour; the pair
    /// counts when both bars have that colour, each is at least ``Preflight/minimumBarLines``
    /// thick, together they cover more than ``Preflight/barShare`` of the side, and the first
    /// line after each bar is a hard edge (most of its pixels differ from the bar): a letterbox,
    /// not a plain background around a logo.
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
        guard similar(lx, ly, first) else { return nil }
        func matching(_ line: Int) -> Int {
            var count = 0
            for along in 0..<length {
                let (x, y) = point(line, along)
                if similar(x, y, first) { count += 1 }
            }
            return count
        }
        let flatCount = Int((Double(length) * Preflight.barLineFlatShare).rounded(.up))
        var start = 0
        while start < lines && matching(start) >= flatCount { start += 1 }
        guard start < lines else { return nil }
        var end = 0
        while end < lines - start && matching(lines - 1 - end) >= flatCount { end += 1 }
        guard start >= Preflight.minimumBarLines, end >= Preflight.minimumBarLines,
              Double(start + end) > Double(lines) * Preflight.barShare else { return nil }
        // Hard edges where the content starts: most of the line is not the bar colour.
        let hardEdge = Double(length) * (1 - Preflight.contentEdgeBarShare)
        guard Double(length - matching(start)) >= hardEdge,
              Double(length - matching(lines - 1 - end)) >= hardEdge else { return nil }
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
        let shift = UInt32(8 - Preflight.colourBinBits)
        let bins = 1 << (3 * Preflight.colourBinBits)
        var histogram = [Int](repeating: 0, count: bins + 1)
        var transparent = 0, total = 0
        let step = Preflight.sampleStep
        for y in stride(from: 0, to: height, by: step) {
            for x in stride(from: 0, to: width, by: step) {
                let at = (y * width + x) * bands
                total += 1
                if alpha(at) < Preflight.transparentAlpha {
                    transparent += 1
                    histogram[bins] += 1
                    continue
                }
                let bin = (UInt32(rgba[at]) >> shift) << (2 * UInt32(Preflight.colourBinBits))
                    | (UInt32(rgba[at + 1]) >> shift) << UInt32(Preflight.colourBinBits) | (UInt32(rgba[at + 2]) >> shift)
                histogram[Int(bin)] += 1
            }
        }
        let count = Double(max(1, total))
        return (Double(transparent) / count, Double(histogram.max() ?? 0) / count)
    }

    // MARK: Fine detail (smooth enlargement)

    /// The correlation of neighbouring values of the second difference (a 1-D Laplacian along
    /// rows and along columns). Detail at the pixel scale (grain, a 1 px edge) makes neighbouring
    /// Laplacian values alternate in sign: strongly negative (white noise: -0.67, a hard step:
    /// -0.5). Artwork enlarged smoothly holds no detail at that scale: its Laplacian varies
    /// slowly, and the correlation is near zero or positive. Nil when the image is flat.
    func laplacianCorrelation() -> Double? {
        guard width >= 4, height >= 4 else { return nil }
        let step = Preflight.sampleStep, bands = self.bands, width = self.width, height = self.height
        let columns = (width + step - 1) / step
        // Scratch lines: one row's values; the last three rows' values and the last Laplacian
        // value of each sampled column.
        let scratch = UnsafeMutableBufferPointer<Float>.allocate(capacity: width + 4 * columns)
        defer { scratch.deallocate() }
        scratch.initialize(repeating: 0)
        guard let line = scratch.baseAddress else { return nil }
        var above2 = line + width, above = above2 + columns, current = above + columns
        let lastLaplacian = current + columns
        var products = 0.0, energy = 0.0
        rgba.withUnsafeBufferPointer { buffer in
            guard let samples = buffer.baseAddress else { return }
            @inline(__always) func luminance(_ at: Int) -> Float {
                let value = 0.299 * Float(samples[at]) + 0.587 * Float(samples[at + 1]) + 0.114 * Float(samples[at + 2])
                guard bands == 4 else { return value }
                let cover = Float(samples[at + 3]) / 255
                return value * cover + 255 * (1 - cover)
            }
            // Along sampled rows.
            for y in stride(from: 0, to: height, by: step) {
                let start = y * width * bands
                for x in 0..<width { line[x] = luminance(start + x * bands) }
                var previous = line[0] - 2 * line[1] + line[2]
                var rowProducts: Float = 0, rowEnergy = previous * previous
                for x in 2..<(width - 1) {
                    let value = line[x - 1] - 2 * line[x] + line[x + 1]
                    rowProducts += previous * value
                    rowEnergy += value * value
                    previous = value
                }
                products += Double(rowProducts)
                energy += Double(rowEnergy)
            }
            // Along sampled columns, row by row in memory order.
            for y in 0..<height {
                let start = y * width * bands
                for column in 0..<columns { current[column] = luminance(start + column * step * bands) }
                if y >= 2 {
                    var rowProducts: Float = 0, rowEnergy: Float = 0
                    for column in 0..<columns {
                        let value = above2[column] - 2 * above[column] + current[column]
                        if y >= 3 { rowProducts += lastLaplacian[column] * value }
                        rowEnergy += value * value
                        lastLaplacian[column] = value
                    }
                    products += Double(rowProducts)
                    energy += Double(rowEnergy)
                }
                (above2, above, current) = (above, current, above2)
            }
        }
        return energy > 0 ? products / energy : nil
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
        var columnChanges = [Bool](repeating: false, count: width)
        var rowChanges = [Bool](repeating: false, count: height)
        let rowBytes = width * bands
        rgba.withUnsafeBufferPointer { samples in
            guard let base = samples.baseAddress else { return }
            for y in 0..<height {
                let row = base + y * rowBytes
                if y > 0 {
                    rowChanges[y] = memcmp(row, row - rowBytes, rowBytes) != 0
                    if !rowChanges[y] { continue }
                }
                for x in 1..<max(1, width) where !columnChanges[x] {
                    let at = x * bands
                    if row[at] != row[at - bands] || row[at + 1] != row[at + 1 - bands] || row[at + 2] != row[at + 2 - bands]
                        || (bands == 4 && row[at + 3] != row[at - 1]) {
                        columnChanges[x] = true
                    }
                }
            }
        }
        guard let columns = Self.activePerChanging(columnChanges), let rows = Self.activePerChanging(rowChanges) else {
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
