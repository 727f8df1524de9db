/// Fine detail, the pre-flight statistic of a smooth enlargement (``Preflight/enlargement(_:lossless:deadline:)``).
extension PreflightPixels {
    /// The correlation of neighbouring values of the second difference (a 1-D Laplacian along
    /// rows and along columns) of the luminance. Detail at the pixel scale (grain, a 1 px edge)
    /// makes neighbouring Laplacian values alternate in sign: strongly negative (white noise:
    /// -0.67, a hard step: -0.5). Artwork enlarged smoothly holds no detail at that scale: its
    /// Laplacian varies slowly, and the correlation is near zero or positive. Nil when the image
    /// is flat. One pass in memory order: sampled rows whole, the other rows at sampled columns.
    func laplacianCorrelation() -> Double? {
        guard width >= 4, height >= 4 else { return nil }
        let step = Preflight.sampleStep, width = self.width
        let columns = (width + step - 1) / step
        // Scratch: one row's values; the last three rows' values and the last Laplacian value
        // of each sampled column; a table (the luminance of each palette index, or each sample
        // value's term of an RGB pixel's luminance); two lines of differences.
        let scratch = UnsafeMutableBufferPointer<Float>.allocate(capacity: 3 * width + 4 * columns + 768)
        defer { scratch.deallocate() }
        scratch.initialize(repeating: 0)
        guard let line = scratch.baseAddress else { return nil }
        var above2 = line + width, above = above2 + columns, current = above + columns
        let lastLaplacian = current + columns, table = lastLaplacian + columns, differences = table + 768
        if bands == 3 {
            // The three products of ``luminance(_:_:_:_:)`` for each sample value: the same
            // values, summed in the same order, without converting and multiplying per pixel.
            for value in 0..<256 {
                table[value] = 0.299 * Float(value)
                table[256 + value] = 0.587 * Float(value)
                table[512 + value] = 0.114 * Float(value)
            }
        } else if bands == 1 {
            for index in 0..<256 {
                table[index] = Self.luminance(palette[index * 4], palette[index * 4 + 1], palette[index * 4 + 2],
                                              palette[index * 4 + 3])
            }
        }
        var products = 0.0, energy = 0.0
        samples.withUnsafeBufferPointer { buffer in
            guard let base = buffer.baseAddress else { return }
            for y in 0..<height {
                if y % step == 0 {
                    luminance(row: y, every: 1, count: width, of: base, table: table, into: line, sampled: current)
                    let sums = Self.alongLine(line, count: width, scratch: differences)
                    products += Double(sums.products)
                    energy += Double(sums.energy)
                } else {
                    luminance(row: y, every: step, count: columns, of: base, table: table, into: current, sampled: nil)
                }
                if y >= 2 {
                    let sums = Self.acrossRows(above2, above, current, last: lastLaplacian, count: columns, pairs: y >= 3)
                    products += Double(sums.products)
                    energy += Double(sums.energy)
                }
                (above2, above, current) = (above, current, above2)
            }
        }
        return energy > 0 ? products / energy : nil
    }

    /// Luminance of an sRGB pixel over white (alpha 255: opaque).
    @inline(__always) static func luminance(_ red: UInt8, _ green: UInt8, _ blue: UInt8, _ alpha: UInt8) -> Float {
        let value = 0.299 * Float(red) + 0.587 * Float(green) + 0.114 * Float(blue)
        guard alpha != 255 else { return value }
        let cover = Float(alpha) / 255
        return value * cover + 255 * (1 - cover)
    }

    /// The luminance of `count` pixels of row `y`, every `every`-th from the first, into `out`
    /// (`table`: each palette index's, or for RGB each sample value's three terms); with
    /// `sampled`, every ``Preflight/sampleStep``-th of them into it too.
    @inline(__always) private func luminance(row y: Int, every: Int, count: Int, of samples: UnsafePointer<UInt8>,
                                             table: UnsafePointer<Float>, into out: UnsafeMutablePointer<Float>,
                                             sampled: UnsafeMutablePointer<Float>?) {
        let bands = self.bands, stride = every &* bands, start = samples + y * width * bands
        if bands == 3 {
            // Opaque RGB (the common upload): each value from the table of its samples' terms
            // (``luminance(_:_:_:_:)``'s values exactly), then every sampled value copied out.
            for index in 0..<count {
                let pixel = start + index &* stride
                out[index] = table[Int(pixel[0])] + table[256 &+ Int(pixel[1])] + table[512 &+ Int(pixel[2])]
            }
            if let sampled {
                let step = Preflight.sampleStep
                for column in 0..<((count + step - 1) / step) { sampled[column] = out[column &* step] }
            }
            return
        }
        @inline(__always) func fill(_ value: (UnsafePointer<UInt8>) -> Float) {
            var pixel = start, index = 0
            if let sampled {
                let step = Preflight.sampleStep
                for column in 0..<(count / step) {
                    let first = value(pixel)
                    out[index] = first
                    sampled[column] = first
                    for _ in 1..<step {
                        pixel += stride
                        index &+= 1
                        out[index] = value(pixel)
                    }
                    pixel += stride
                    index &+= 1
                }
            }
            while index < count {
                let level = value(pixel)
                out[index] = level
                if let sampled, index % Preflight.sampleStep == 0 { sampled[index / Preflight.sampleStep] = level }
                pixel += stride
                index &+= 1
            }
        }
        if bands == 1 {
            fill { table[Int($0[0])] }
        } else {
            fill { Self.luminance($0[0], $0[1], $0[2], $0[3]) }
        }
    }

    /// Along one line of `count` values: the sum of products of neighbouring second differences,
    /// and of their squares. The differences go to `scratch` (2 x `count` values) first, each
    /// and its right neighbour in two arrays: then the sums read each value once.
    @inline(__always) private static func alongLine(_ line: UnsafePointer<Float>, count: Int,
                                                    scratch: UnsafeMutablePointer<Float>) -> (products: Float, energy: Float) {
        let values = count - 2, pairs = values - 1
        let differences = scratch, following = scratch + count
        for at in 0..<values { differences[at] = line[at] - 2 * line[at + 1] + line[at + 2] }
        for at in 0..<pairs { following[at] = line[at + 1] - 2 * line[at + 2] + line[at + 3] }
        let sums = laneSums(differences, pairs: following, count: pairs)
        let last = differences[pairs]
        return (sums.products, sums.energy + last * last)
    }

    /// The sums of `values[i] * pairs[i]` and of `values[i]` squared (four lanes at once).
    @inline(__always) private static func laneSums(_ values: UnsafePointer<Float>, pairs: UnsafePointer<Float>,
                                                   count: Int) -> (products: Float, energy: Float) {
        let size = MemoryLayout<Float>.stride
        var productLanes = SIMD4<Float>(), energyLanes = SIMD4<Float>()
        var at = 0
        while at + 4 <= count {
            let value = UnsafeRawPointer(values).loadUnaligned(fromByteOffset: at &* size, as: SIMD4<Float>.self)
            productLanes += value * UnsafeRawPointer(pairs).loadUnaligned(fromByteOffset: at &* size, as: SIMD4<Float>.self)
            energyLanes += value * value
            at &+= 4
        }
        var products = productLanes.sum(), energy = energyLanes.sum()
        while at < count {
            products += values[at] * pairs[at]
            energy += values[at] * values[at]
            at += 1
        }
        return (products, energy)
    }

    /// Down the sampled columns, at one row: each column's second difference from its last three
    /// values, its square, and (`pairs`) its product with the column's previous one, summed;
    /// `last` takes the new differences.
    @inline(__always) private static func acrossRows(_ above2: UnsafePointer<Float>, _ above: UnsafePointer<Float>,
                                                     _ current: UnsafePointer<Float>, last: UnsafeMutablePointer<Float>,
                                                     count: Int, pairs: Bool) -> (products: Float, energy: Float) {
        let size = MemoryLayout<Float>.stride
        var productLanes = SIMD4<Float>(), energyLanes = SIMD4<Float>()
        var at = 0
        while at + 4 <= count {
            let offset = at &* size
            let value = UnsafeRawPointer(above2).loadUnaligned(fromByteOffset: offset, as: SIMD4<Float>.self)
                - 2 * UnsafeRawPointer(above).loadUnaligned(fromByteOffset: offset, as: SIMD4<Float>.self)
                + UnsafeRawPointer(current).loadUnaligned(fromByteOffset: offset, as: SIMD4<Float>.self)
            if pairs {
                productLanes += UnsafeRawPointer(last).loadUnaligned(fromByteOffset: offset, as: SIMD4<Float>.self) * value
            }
            energyLanes += value * value
            UnsafeMutableRawPointer(last).storeBytes(of: value, toByteOffset: offset, as: SIMD4<Float>.self)
            at &+= 4
        }
        var products = productLanes.sum(), energy = energyLanes.sum()
        while at < count {
            let value = above2[at] - 2 * above[at] + current[at]
            if pairs { products += last[at] * value }
            energy += value * value
            last[at] = value
            at += 1
        }
        return (products, energy)
    }
}
