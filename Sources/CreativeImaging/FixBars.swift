import CreativeCore

/// `fix`'s crop of bars baked into the artwork (`baked_in_bars`: uniform bands the app's own
/// letterbox would be drawn around): the artwork inside them is kept, fixed to an accepted size
/// whose shape is within 1% of its own (``FixRequest/maxAspectDifference``, as a near-miss size):
/// the largest that does not enlarge it, else the smallest (or the size `--size` asks for), so
/// the app letterboxes the artwork itself. Where no accepted size has that shape, nothing is
/// cropped: the file is fixed with its bars, and the warning stays.
enum FixBars {
    /// The artwork inside `bars` of an image of `size`, and the size it is fixed to; nil when the
    /// bars leave nothing, or no accepted size has the artwork's shape.
    static func plan(_ bars: BarInsets, of size: PixelSize, request: FixRequest) -> (content: PixelRect, target: PixelSize)? {
        let inside = bars.content(of: size)
        guard bars != BarInsets(), inside.width > 0, inside.height > 0, let target = target(for: inside, request: request)
        else { return nil }
        return (PixelRect(x: bars.left, y: bars.top, width: inside.width, height: inside.height), target)
    }

    /// The accepted size the artwork inside the bars is fixed to (nil: none has its shape).
    static func target(for content: PixelSize, request: FixRequest) -> PixelSize? {
        if request.size != nil, case .success(let asked) = request.target(for: content) { return asked }
        let shaped = request.acceptedSizes.filter {
            FixRequest.aspectDifference(content, $0) < FixRequest.maxAspectDifference
        }
        let area = { (size: PixelSize) in size.pixelCount ?? .max }
        return shaped.filter { $0.width <= content.width && $0.height <= content.height }.max { area($0) < area($1) }
            ?? shaped.min { area($0) < area($1) }
    }

    /// The change's line: where the bars were and the artwork kept.
    static func change(_ bars: BarInsets, content: PixelRect) -> FixChange {
        let sides = [("top", bars.top), ("bottom", bars.bottom), ("left", bars.left), ("right", bars.right)]
            .filter { $0.1 > 0 }.map { "\($0.1) px \($0.0)" }.joined(separator: ", ")
        return FixChange(.barsCropped, "bars baked into the artwork cropped (\(sides)): the \(content.size) artwork "
                         + "inside them kept, for the app to letterbox (baked_in_bars)")
    }
}

extension Fixer {
    /// The source's baked-in bars cropped (``FixBars``) and the artwork inside them fixed as a
    /// near-miss size is; nil where there are no bars, no accepted size has the artwork's shape,
    /// or the cropped artwork cannot be written cleanly (the fix then goes on with the bars).
    static func withoutBars(_ attempt: inout FixAttempt, request: FixRequest, formats: [ImageFormat])
        throws(ImagingError) -> (written: FixAttempt.Written, content: PixelSize, target: PixelSize, change: FixChange)? {
        let upright = try attempt.uprightPixels()
        guard let bars = Preflight.bars(upright),
              let (content, target) = FixBars.plan(bars, of: upright.size, request: request) else { return nil }
        let artwork = try VipsOperation("extract_area").with("input", .image(upright)).with("left", .int(content.x))
            .with("top", .int(content.y)).with("width", .int(content.width)).with("height", .int(content.height))
            .image().materialized()
        var cropped = attempt.weighing(request.weightLimit(for: target))
        let methods = NearMissResize.methods(from: content.size, to: target)
        for method in methods.isEmpty ? [nil] : methods.map({ Optional($0) }) {
            let resized: NearMissResize.Resized?
            if let method { resized = try NearMissResize.resize(artwork, to: target, method: method) } else {
                resized = NearMissResize.Resized(image: artwork, how: "")
            }
            guard let resized else { continue }
            guard case .written(let written)? = try? cropped.judge(resized.image, resize: method == nil ? nil : resized.how,
                                                                   formats: formats),
                  !written.remaining.contains(where: { $0.code == .bakedInBars }) else { continue }
            return (written, content.size, target, FixBars.change(bars, content: content))
        }
        return nil
    }
}
