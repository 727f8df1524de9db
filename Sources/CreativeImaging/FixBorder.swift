import CreativeCore

/// `fix`'s border: artwork whose edges blend into an app's background (`edge_without_border`, or
/// a profile's `border_required`) gets the 1 px border the warning asks for, on its outermost
/// line: `#c0c0c0` around near-white edges, `#808080` around near-black ones (the colours the
/// warning names). The pre-flight's 2 px frame is then half border, under its blending share.
enum FixBorder {
    /// The border colour around near-white edges.
    static let onLight: Double = 0xC0
    /// The border colour around near-black edges.
    static let onDark: Double = 0x80

    /// Whether `issues` ask for a border.
    static func isAsked(_ issues: [ValidationIssue]) -> Bool {
        issues.contains { $0.code == .edgeWithoutBorder || $0.code == .borderRequired }
    }

    /// `image` (8-bit sRGB, any alpha) with its outermost line replaced by the border, opaque;
    /// `dark` edges (the mean of that line below mid-grey) get the lighter grey.
    static func add(_ image: VImage) throws(ImagingError) -> (image: VImage, colour: String) {
        let width = image.width, height = image.height
        guard width > 2, height > 2 else { return (image, "") }
        let top = try VipsOperation("extract_area").with("input", .image(image)).with("left", .int(0)).with("top", .int(0))
            .with("width", .int(width)).with("height", .int(1)).image()
        let colourBands = try VipsOperation("extract_band").with("in", .image(top)).with("band", .int(0))
            .with("n", .int(min(3, image.bands))).image()
        let dark = try VipsOperation("avg").with("in", .image(colourBands)).number() < 128
        let grey = dark ? onDark : onLight
        let inner = try VipsOperation("extract_area").with("input", .image(image)).with("left", .int(1)).with("top", .int(1))
            .with("width", .int(width - 2)).with("height", .int(height - 2)).image()
        let background = Array(repeating: grey, count: image.hasAlpha ? image.bands - 1 : image.bands)
            + (image.hasAlpha ? [255] : [])
        let bordered = try VipsOperation("embed").with("in", .image(inner)).with("x", .int(1)).with("y", .int(1))
            .with("width", .int(width)).with("height", .int(height)).with("extend", .enumeration("background"))
            .with("background", .doubles(background)).image()
        let hex = String(Int(grey), radix: 16)
        return (try bordered.materialized(), "#\(hex)\(hex)\(hex)")
    }
}

extension Fixer {
    /// ``FixAttempt/judge(_:resize:formats:)``, then, when the result (or the refusal) asks for a
    /// border (``FixBorder/isAsked(_:)``), the same pixels with the border judged again: kept when
    /// that clears it, else the first outcome stands. Returns the border's colour when it was added.
    static func judge(_ attempt: inout FixAttempt, _ image: VImage, resize: String?,
                      formats: [ImageFormat]) throws(ImagingError) -> (FixAttempt.Outcome, border: String?) {
        let outcome: FixAttempt.Outcome
        do throws(ImagingError) {
            outcome = try attempt.judge(image, resize: resize, formats: formats)
        } catch {
            // A profile's border_required is an error: only the border can clear it.
            guard case .unfixable(.incomplete(let issues)) = error, FixBorder.isAsked(issues),
                  let bordered = try? bordered(&attempt, image, resize: resize, formats: formats) else { throw error }
            return bordered
        }
        guard case .written(let written) = outcome, FixBorder.isAsked(written.remaining),
              let bordered = try? bordered(&attempt, image, resize: resize, formats: formats) else { return (outcome, nil) }
        return bordered
    }

    /// The pixels with the border, judged: nil when the border does not clear what asked for it.
    private static func bordered(_ attempt: inout FixAttempt, _ image: VImage, resize: String?,
                                 formats: [ImageFormat]) throws(ImagingError) -> (FixAttempt.Outcome, border: String?)? {
        let (withBorder, colour) = try FixBorder.add(image)
        guard !colour.isEmpty, case .written(let written) = try attempt.judge(withBorder, resize: resize, formats: formats),
              !FixBorder.isAsked(written.remaining) else { return nil }
        return (.written(written), colour)
    }
}
