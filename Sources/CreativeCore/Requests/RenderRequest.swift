/// A render as callers ask for it (`creative-tool render`, `POST /v1/render`): its options,
/// declared once, and its rules, in this one place. The CLI and the service read it from their
/// own ``OptionSource`` and then only run the render and present the answer.
public struct RenderRequest: Sendable {
    /// `--slot WxH[@Nx]`.
    public static let slot = OptionDeclaration(
        "slot", .slot, placeholder: "WxH[@Nx]",
        help: "slot size in points, optionally with its scale (390x61 or 390x61@3x); required unless a device is given",
        mistakenNames: ["size"])
    /// `--scale N`.
    public static let scale = OptionDeclaration(
        "scale", .number(1...4), placeholder: "N",
        help: "pixels per point, 1 to 4 (2.625 for Android xxhdpi); or write it in the slot: 390x61@3x",
        defaultValue: "1")
    /// `--background C`.
    public static let background = OptionDeclaration(
        "background", .text(maxLength: 64), placeholder: "C",
        help: "bar colour: '#rrggbb', '#rgb', a CSS colour name (red, navy) or 'transparent' "
            + "(default: transparent; white for \(TextFormat.listed(OutputFormat.opaqueOnly.map(\.displayName), "and")))",
        mistakenNames: ["bg", "color", "colour"])
    /// `--format F`.
    public static let format = OptionDeclaration(
        "format", .choice(FormatChoice.allCases.map(\.rawValue)), placeholder: "F",
        help: OutputFormat.allCases.map(\.helpName).joined(separator: ", ") + ", or auto (the smallest of PNG, palette PNG, "
            + "WebP and, opaque only, JPEG that keeps luma SSIM >= 0.975 and chroma SSIM >= 0.96\(autoWhenNamedNote)); "
            + "an output name's extension decides it when this is not given",
        defaultValue: FormatChoice.fixed(.png).rawValue, mistakenValues: mistakenFormatNames)
    /// `--formats F[,G]`, `formats=F[,G]`: the formats `auto` chooses among (``autoFormats(_:format:)``).
    public static let formats = OptionDeclaration(
        "formats", .text(maxLength: 64), placeholder: "F[,G]",
        help: "the formats auto chooses among, comma-separated: " + OutputFormat.autoChoices.map(\.rawValue).joined(separator: ", ")
            + OutputFormat.autoChoices.compactMap(\.entry.autoNote).map { " (\($0))" }.joined()
            + "; given without a format, it asks for auto",
        defaultValue: OutputFormat.allCases.filter(OutputFormat.autoDefault.contains).map(\.rawValue).joined(separator: ","),
        mistakenNames: ["auto_formats"])
    /// `--quality Q`.
    public static let quality = IntegerOption(
        "quality", 1...100, placeholder: "Q",
        help: "\(TextFormat.listed(OutputFormat.lossy.map(\.displayName))) quality, 1 to 100", defaultValue: "85")
    /// `--lossless`, `lossless=true`: lossless WebP.
    public static let lossless = OptionDeclaration(
        "lossless", .toggle, help: "write WebP lossless (every pixel kept); --format webp or a .webp output only "
            + "(in an output name: o.webp[lossless])", defaultValue: "false")
    /// `--effort N`: libwebp's effort.
    public static let effort = IntegerOption(
        "effort", 0...6, placeholder: "N",
        help: "WebP effort, 0 (fastest) to 6 (smallest file); --format webp or a .webp output only "
            + "(in an output name: o.webp[effort=6])", defaultValue: "4")
    /// `--weight-budget SIZE`, `weight_budget=SIZE`: the largest file a render may be.
    public static let weightBudget = ByteSizeOption(
        "weight_budget", RenderSettings.weightBudgetRange, placeholder: "SIZE",
        help: "largest file of a render: the best quality that fits ("
            + TextFormat.listed(OutputFormat.lossy.map(\.displayName), "and") + ": the highest quality; PNG: lossless, "
            + "else the largest palette); when none fits, code over_weight_budget and nothing written (40K, 1M; K is "
            + "1024 bytes; a bare number is bytes)",
        defaultValue: Quantity.describe(bytes: RenderSettings.defaultWeightBudget))
    /// `--profile P[,Q]`, `profile=P[,Q]`: the platforms whose weight for the render's size is its
    /// budget (the option `validate` and `guidance` take, ``CommonOptions/profile``).
    public static let profile = CommonOptions.profile.with(
        help: "the platforms whose weight rule the render meets, comma-separated: " + PlatformProfiles.names.joined(separator: ", ")
            + "; the budget is the strictest of each profile's weight for the render's size in pixels (IAB LEAN: "
            + "50000 bytes for 320x50 and its 2x, 3x, 4x) and the weight budget (docs/profiles.md)")
    /// `--no-enlarge`, `enlarge=false`.
    public static let enlarge = OptionDeclaration(
        "enlarge", .toggle, help: "never scale the artwork above its own size (in a query: enlarge=false)",
        defaultValue: "true")

    /// Every option of a render, in help order.
    public static let options = OptionList([slot, scale, CommonOptions.device, CommonOptions.orientation,
                                            CommonOptions.product, background, format, formats, quality, lossless, effort, weightBudget,
                                            profile, enlarge])

    /// Where the render goes: a slot in points at a scale, or a product's slot on a device.
    public enum Target: Sendable, Equatable {
        case slot(Slot)
        case device(DeviceSlot)
    }

    public let product: Product
    public let target: Target
    /// The canvas, format, background, quality and placement area.
    public let settings: RenderSettings
    /// The render's weight budget and where it comes from (``RenderWeightBudget``); its bytes are
    /// ``RenderSettings/weightBudget``.
    public let weightBudget: AppliedWeightBudget

    /// Reads and checks a render.
    /// - Parameters:
    ///   - outputName: the file the render is written to (the command line's `--output`): its
    ///     extension names the format when `format` is not given, and must agree when it is.
    ///   - maxCanvasPixels: the caller's cap on the canvas (the service's), nil for none.
    /// - Throws: ``CoreError`` for every wrong value and every pair of options that do not go together.
    public init(_ source: some OptionSource, outputName: String? = nil, maxCanvasPixels: Int? = nil) throws(CoreError) {
        product = try CommonOptions.product(source)
        let deviceSlot = try CommonOptions.deviceSlot(source, product: product)
        if deviceSlot != nil, let given = source.firstGiven([Self.slot, Self.scale]) {
            throw .invalidRequest("give either \(source.spelling(Self.slot)) or \(source.spelling(CommonOptions.device)), "
                                  + "not both (\(source.spelling(given)) was given with a device)")
        }
        let (format, narrowed) = try Self.format(source, outputName: outputName)
        let autoFormats = try Self.autoFormats(source, format: format, narrowed: narrowed, outputName: outputName)
        var background = try source.text(Self.background)
        if background == nil { background = format.defaultBackground(among: autoFormats).description }
        let enlarge = try source.toggle(Self.enlarge)
        var settings: RenderSettings
        if let deviceSlot {
            target = .device(deviceSlot)
            settings = product.isFullScreen
                ? try RenderSettings(fullScreen: deviceSlot, format: format, background: background, enlarge: enlarge)
                : try RenderSettings(slot: deviceSlot.slot.points, scale: deviceSlot.slot.scale, format: format,
                                     background: background, enlarge: enlarge)
        } else {
            guard let given = try source.slot(Self.slot) else {
                throw .invalidRequest("\(source.spelling(Self.slot)) WxH is required (for example 390x61@3x), "
                                      + "or \(source.spelling(CommonOptions.device)) NAME")
            }
            let scale = try Self.scale(given.scale, source)
            target = .slot(Slot(points: given.points, scale: scale))
            settings = try RenderSettings(slot: given.points, scale: scale, format: format, background: background,
                                          enlarge: enlarge)
        }
        if let refusal = format.canvasRefusal(settings.canvas) {
            throw .canvasTooLarge("\(source.spelling(Self.format)) \(format.rawValue): \(refusal)")
        }
        if let maxCanvasPixels, settings.canvas.area > maxCanvasPixels {
            throw .invalidRequest("slot x scale is \(settings.canvas) pixels, over the service's cap of \(maxCanvasPixels) pixels")
        }
        settings.quality = try source.int(Self.quality)
        if settings.quality != nil, let refusal = format.qualityRefusal {
            throw .invalidRequest("\(source.spelling(Self.quality)) is for \(source.spelling(Self.format)) "
                                  + "\(TextFormat.listed(OutputFormat.lossy.map(\.rawValue))) "
                                  + "(\(refusal))")
        }
        settings.autoFormats = autoFormats
        try Self.webpOptions(source, format: format, into: &settings)
        weightBudget = try Self.weightBudgets(source, weightBudget: Self.weightBudget).applied(to: settings.canvas)
        settings.weightBudget = weightBudget.bytes
        self.settings = settings
    }

    /// The weight budget asked (`option`, or the default) and the profiles named by ``profile``:
    /// how `render` and `process` decide each render's budget.
    /// - Throws: ``CoreError`` for a size out of range or an unknown profile (naming the one meant).
    public static func weightBudgets(_ source: some OptionSource, weightBudget option: ByteSizeOption)
        throws(CoreError) -> RenderWeightBudget {
        RenderWeightBudget(asked: try source.bytes(option) ?? RenderSettings.defaultWeightBudget,
                           profiles: try CommonOptions.profiles(source) ?? [])
    }

    /// The formats `auto` may choose among: those ``formats`` names, nil when it is not given (then
    /// ``OutputFormat/autoDefault``).
    /// - Throws: ``CoreError`` for a name that is not a format (with the one meant), an empty name or
    ///   one given twice, or the option with a format other than `auto`.
    public static func autoFormats(_ source: some OptionSource, format: FormatChoice) throws(CoreError) -> Set<OutputFormat>? {
        guard let text = try source.text(formats) else { return nil }
        guard format == .auto else {
            throw .invalidRequest("\(source.spelling(formats)) is for \(source.spelling(Self.format)) auto, not "
                                  + "\(format.rawValue) (a fixed format writes only itself)")
        }
        let names = OutputFormat.autoChoices.map(\.rawValue)
        var chosen: Set<OutputFormat> = []
        for item in text.split(separator: ",", omittingEmptySubsequences: false) {
            let given = String(item.drop { $0 == " " }.reversed().drop { $0 == " " }.reversed())
            let name = given.lowercased()
            guard !name.isEmpty else {
                throw .invalidValue("\(source.spelling(formats)) has an empty name; give one or more of "
                                     + names.joined(separator: ", ") + ", comma-separated")
            }
            guard let found = OutputFormat(name: name), OutputFormat.autoChoices.contains(found) else {
                let meant = KeySuggestion.nearest(to: name, in: names).map { "; did you mean '\($0)'?" } ?? ""
                throw .invalidValue("\(source.spelling(formats)) must name formats of " + names.joined(separator: ", ")
                                     + ", not '\(TextFormat.clipped(given))'" + meant)
            }
            guard chosen.insert(found).inserted else {
                throw .invalidValue("\(source.spelling(formats)) names '\(found.rawValue)' twice")
            }
        }
        return chosen
    }

    /// ``autoFormats(_:format:)`` for a render written under `outputName`: a name that names a
    /// format narrows `auto` to it, which ``formats``, when given, must name.
    private static func autoFormats(_ source: some OptionSource, format: FormatChoice, narrowed: OutputFormat?,
                                    outputName: String?) throws(CoreError) -> Set<OutputFormat>? {
        let given = try autoFormats(source, format: format)
        guard let narrowed else { return given }
        if let given, !given.contains(narrowed) {
            throw .invalidRequest("output '\(TextFormat.clipped(outputName ?? ""))' is \(narrowed.displayName), which "
                                  + "\(source.spelling(formats)) does not name; add \(narrowed.rawValue) or rename the output")
        }
        return [narrowed]
    }

    /// `lossless` and `effort`, which only WebP takes; lossless WebP takes no quality.
    private static func webpOptions(_ source: some OptionSource, format: FormatChoice,
                                    into settings: inout RenderSettings) throws(CoreError) {
        settings.webpLossless = try source.toggle(lossless)
        settings.webpEffort = try source.int(effort)
        if let given = source.firstGiven([lossless, effort]), format != .fixed(.webp) {
            throw .invalidRequest("\(source.spelling(given)) is for WebP (\(source.spelling(Self.format)) webp or a .webp "
                                  + "output), not \(format.rawValue)")
        }
        if settings.webpLossless, source.has(quality) {
            throw .invalidRequest("\(source.spelling(quality)) is for lossy WebP; \(source.spelling(lossless)) keeps "
                                  + "every pixel, give one of them")
        }
    }

    /// The output name endings a render writes, for messages: `.png, .jpg, .jpeg, .webp, .avif`.
    public static let knownExtensions = OutputFormat.allCases.flatMap(\.endings).map { "." + $0 }.joined(separator: ", ")

    /// What `format`'s help says of the formats `auto` writes only when `formats` names them:
    /// `; AVIF too when formats names it`.
    static let autoWhenNamedNote: String = {
        let named = OutputFormat.allCases.filter { $0.entry.auto == .whenNamed }.map(\.displayName)
        guard !named.isEmpty else { return "" }
        return "; \(TextFormat.listed(named, "and")) too when formats names " + (named.count == 1 ? "it" : "them")
    }()

    /// The names `format` answers with a format's own (`jpg`, `jpe`: did you mean jpeg?).
    static let mistakenFormatNames = Dictionary(
        OutputFormat.allCases.flatMap { format in (format.entry.aliases + format.entry.misspellings).map { ($0, format.rawValue) } },
        uniquingKeysWith: { first, _ in first })

    /// The scale: the slot's `@Nx`, `scale`, or 1; both given must agree.
    private static func scale(_ inSlot: Double?, _ source: some OptionSource) throws(CoreError) -> Double {
        let given = try source.number(scale)
        if let inSlot, let given, inSlot != given {
            throw .invalidRequest("\(source.spelling(slot)) says @\(TextFormat.scale(inSlot))x and "
                                  + "\(source.spelling(scale)) \(TextFormat.scale(given)); give the scale once")
        }
        return inSlot ?? given ?? 1
    }

    /// The format asked for (`formats` without `format` or a named ending: `auto`), and for `auto`
    /// written under a name that names a format, that format (the choice is narrowed to it: the
    /// file named is the file written).
    private static func format(_ source: some OptionSource, outputName: String?) throws(CoreError)
        -> (FormatChoice, narrowed: OutputFormat?) {
        let given = try source.choice(format, FormatChoice.self)
        guard let outputName, let named = OutputFormat(fileName: outputName) else {
            if given == nil, !source.has(formats), let outputName, let ending = OutputFormat.fileExtension(of: outputName) {
                throw .invalidRequest("output '\(TextFormat.clipped(outputName))': .\(TextFormat.clipped(ending, 16)) is "
                                      + "not a format a render writes; name \(knownExtensions) (or give "
                                      + "\(source.spelling(format)) to write one under this name)")
            }
            // `formats` alone asks for `auto` among them.
            return (given ?? (source.has(formats) ? .auto : .fixed(.png)), nil)
        }
        switch given {
        case nil where source.has(formats): return (.auto, named)
        case nil: return (.fixed(named), nil)
        case .auto?:
            if !named.entry.keepsAlpha, let background = source.given(background),
               (try? Background(parsing: background)) == .transparent {
                let instead = TextFormat.listed(OutputFormat.transparentDefaults.map { "." + $0.fileExtension })
                throw .invalidRequest("'\(TextFormat.clipped(outputName))' is a \(named.displayName), which cannot be "
                                      + "transparent; give \(source.spelling(Self.background)) '#rrggbb', or name a "
                                      + "\(instead) output")
            }
            return (.auto, named)
        case let fixed?:
            guard fixed.fixed == named else {
                throw .invalidRequest("\(source.spelling(format)) \(fixed.rawValue) disagrees with the output name "
                                      + "'\(TextFormat.clipped(outputName))' (\(named.displayName)); drop "
                                      + "\(source.spelling(format)) or rename the output")
            }
            return (fixed, nil)
        }
    }

    /// What the choice among several artworks asks for: the pixels the artwork is fitted in
    /// (the safe area of a full screen, else the canvas) and the product's first selection mode.
    public var selection: (pixels: PixelSize, mode: SelectionMode) {
        (settings.area?.size ?? settings.canvas, SelectionMode.modes(for: product)[0])
    }

    /// The target for people: `slot 390x61 pt @3x`, or the device's slot with its name.
    public var targetDescription: String {
        switch target {
        case .slot(let slot):
            return "slot \(slot.points) pt @\(TextFormat.scale(slot.scale))x"
        case .device(let deviceSlot):
            let scale = "@\(TextFormat.scale(deviceSlot.slot.scale))x"
            if product.isFullScreen {
                return "\(deviceSlot.device.name) \(deviceSlot.orientation.rawValue), safe area \(deviceSlot.slot.points) pt \(scale)"
            }
            let orientation = product.slotHasOrientation ? " \(deviceSlot.orientation.rawValue)" : ""
            return "slot \(deviceSlot.slot.points) pt \(scale), \(deviceSlot.device.name)\(orientation)"
        }
    }

    /// The default output name after the artwork's stem: `NAME-390x61@3x`, or a full screen's identifier.
    public func defaultStem(_ stem: String) -> String {
        if case .device(let deviceSlot) = target, product.isFullScreen { return "\(stem)-\(deviceSlot.identifier)" }
        let slot: Slot = switch target {
        case .slot(let slot): slot
        case .device(let deviceSlot): deviceSlot.slot
        }
        return "\(stem)-\(slot.points)@\(TextFormat.scale(slot.scale))x"
    }

    /// A one-line note when the artwork is not a size the product accepts: `validate` would reject it.
    public func note(forArtwork size: PixelSize) -> String? {
        guard product.entry(for: size) == nil else { return nil }
        let near = product.nearest(to: size).map(\.description).joined(separator: " or ")
        return "\(size) is not an accepted\(product.isDefault ? "" : " \(product)") size, so validate would "
            + "reject it (\(ValidationCode.dimensionsNotAllowed.rawValue); nearest: \(near))"
    }
}
