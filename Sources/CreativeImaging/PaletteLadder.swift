import CreativeCore

/// Palettes between libimagequant's 256 colours and its next step, 16, for a PNG over its weight
/// budget. libvips asks libimagequant for 2^`bitdepth` colours and writes only bit depths 1, 2,
/// 4 and 8, so a photograph that needs 64 colours to fit got 16 (luma SSIM 0.868 where 64 keep
/// 0.94). Here the 256-colour quantisation is merged down instead: its colours, weighted by how
/// many pixels use each, are joined two at a time, the pair that moves the fewest pixels the
/// least first (Ward's criterion, on R, G, B and alpha weighted 2, 4, 1 and 3), and each pixel
/// takes its group's mean; ``PNGWriter`` writes the result as an exact palette. One quantisation
/// serves every step of ``counts``; a step is a pass over the pixels and a PNG write.
struct PaletteLadder {
    /// Colour counts under 256 tried, most first.
    static let counts = [192, 128, 96, 64, 48, 32, 24, 16, 8, 4, 2]

    /// The quantised render's pixels, 8-bit RGB or RGBA.
    private let image: VImage
    /// Each colour (R, G, B, A packed, A 255 for RGB) and, per count of ``counts`` reached,
    /// the colour it becomes.
    private let colours: [UInt32: Int]
    private let merged: [Int: [UInt32]]

    /// The colours the quantised render has.
    var colourCount: Int { colours.count }

    /// The ladder of `quantised` (a palette PNG's bytes), nil when it is not 8-bit RGB or RGBA.
    init?(quantised: [UInt8]) throws(ImagingError) {
        let decoded = try OutputFormat.png.readBack(quantised)
        guard decoded.isEightBit, decoded.bands == 3 || decoded.bands == 4 else { return nil }
        image = try decoded.materialized()
        let pixels = try PixelBuffer(image)
        var weights: [UInt32: Int] = [:]
        Self.forEachPixel(pixels) { key, _ in weights[key, default: 0] += 1; return nil }
        let keys = weights.keys.sorted()
        colours = Dictionary(uniqueKeysWithValues: keys.enumerated().map { ($1, $0) })
        merged = Self.merge(keys, weights: keys.map { weights[$0] ?? 0 })
    }

    /// The counts of ``counts`` under the quantised render's own.
    var steps: [Int] { Self.counts.filter { $0 < colourCount } }

    /// The render with at most `count` colours (one of ``steps``), as a PNG.
    func encode(colours count: Int) throws(ImagingError) -> [UInt8] {
        guard let table = merged[count] else { throw .operationFailed("no palette of \(count) colours was merged") }
        let pixels = try PixelBuffer(image)
        Self.forEachPixel(pixels) { key, _ in colours[key].map { table[$0] } }
        return try PNGWriter.write(pixels, analysis: pixels.analysis()).bytes
    }

    /// Calls `body` with each pixel's packed colour; a non-nil answer replaces the pixel.
    private static func forEachPixel(_ pixels: PixelBuffer, _ body: (UInt32, Int) -> UInt32?) {
        let bytes = pixels.pointer.assumingMemoryBound(to: UInt8.self)
        let bands = pixels.bands
        var last: (key: UInt32, to: UInt32?)?
        for offset in stride(from: 0, to: pixels.width * pixels.height * bands, by: bands) {
            let alpha: UInt32 = bands == 4 ? UInt32(bytes[offset + 3]) : 255
            let key = UInt32(bytes[offset]) << 24 | UInt32(bytes[offset + 1]) << 16 | UInt32(bytes[offset + 2]) << 8 | alpha
            // Neighbouring pixels share colours: the last answer is reused.
            let to: UInt32?
            if let last, last.key == key { to = last.to } else { to = body(key, offset); last = (key, to) }
            guard let to else { continue }
            bytes[offset] = UInt8(truncatingIfNeeded: to >> 24)
            bytes[offset + 1] = UInt8(truncatingIfNeeded: to >> 16)
            bytes[offset + 2] = UInt8(truncatingIfNeeded: to >> 8)
            if bands == 4 { bytes[offset + 3] = UInt8(truncatingIfNeeded: to) }
        }
    }

    /// For each count of ``counts`` under `keys.count`, the colour each key becomes.
    private static func merge(_ keys: [UInt32], weights: [Int]) -> [Int: [UInt32]] {
        let channelWeights: [Double] = [2, 4, 1, 3]
        var sums = keys.enumerated().map { index, key in
            (0..<4).map { Double((key >> UInt32(24 - 8 * $0)) & 0xff) * Double(weights[index]) }
        }
        var weight = weights.map(Double.init)
        var parent = Array(keys.indices)
        var alive = Set(keys.indices)
        func mean(_ index: Int) -> [Double] { sums[index].map { $0 / max(weight[index], 1) } }
        func cost(_ a: Int, _ b: Int) -> Double {
            let ma = mean(a), mb = mean(b)
            var distance = 0.0
            for channel in 0..<4 { distance += channelWeights[channel] * (ma[channel] - mb[channel]) * (ma[channel] - mb[channel]) }
            return weight[a] * weight[b] / max(weight[a] + weight[b], 1) * distance
        }
        // Each group's nearest other group, kept up to date as groups join.
        var nearest: [Int: (other: Int, cost: Double)] = [:]
        func updateNearest(_ index: Int) {
            var best: (Int, Double)?
            for other in alive where other != index {
                let value = cost(index, other)
                if best == nil || value < best?.1 ?? .infinity { best = (other, value) }
            }
            if let best { nearest[index] = best } else { nearest[index] = nil }
        }
        for index in alive { updateNearest(index) }
        func root(_ index: Int) -> Int {
            var index = index
            while parent[index] != index { index = parent[index] }
            return index
        }
        var tables: [Int: [UInt32]] = [:]
        let wanted = Set(counts.filter { $0 < keys.count })
        while alive.count > (wanted.min() ?? keys.count) {
            guard let (a, pair) = nearest.min(by: { $0.value.cost < $1.value.cost }) else { break }
            let b = pair.other
            for channel in 0..<4 { sums[a][channel] += sums[b][channel] }
            weight[a] += weight[b]
            parent[b] = a
            alive.remove(b)
            nearest[b] = nil
            for index in alive where index == a || nearest[index]?.other == a || nearest[index]?.other == b {
                updateNearest(index)
            }
            if wanted.contains(alive.count) {
                tables[alive.count] = keys.indices.map { index in
                    let channels = mean(root(index)).map { UInt32(min(255, max(0, $0.rounded()))) }
                    return channels[0] << 24 | channels[1] << 16 | channels[2] << 8 | channels[3]
                }
            }
        }
        return tables
    }
}
