import CreativeCore
import CreativeImaging

/// `creative-tool render`: aspect-fit, letterboxed render of a creative into a slot.
enum RenderCommand: Subcommand {
    static let name = "render"
    static let summary = "render a creative (or the test artwork) aspect-fit into a slot"
    static let usage = """
    usage: creative-tool render [FILE...] --slot WxH [--scale N] [--background C]
                                [--format png|jpeg|webp|auto] [--quality Q] [--no-enlarge]
                                [--output PATH|-]
                                [--max-pixels N] [--max-bytes N] [--timeout S] [--memory-budget MIB]
           creative-tool render FILE... --product interstitial --device NAME [--orientation O] [...]
      FILE          PNG, JPEG, GIF or WebP; '-' reads standard input. With several files the
                    adaptive selection rule picks one; with none, the built-in test artwork.
      --slot WxH    slot size in points (for example 390x61)
      --scale N     pixels per point, 1 to 4 (default 1; 2.625 for Android xxhdpi)
      --background  '#rrggbb' or 'transparent' (default: transparent, white for JPEG)
      --format      png (default: lossless, the smallest exact PNG), jpeg, webp, or auto: the
                    smallest of PNG, palette PNG, WebP and (opaque renders) JPEG that keeps
                    SSIM >= 0.98 against the lossless render; the output line names the choice
      --quality Q   JPEG or WebP quality, 1 to 100 (default 85)
      --no-enlarge  never scale the artwork above its own size
      --cost        print what the job would be charged (JSON: peak memory, decode and output
                    parts, sample bytes decoded, the limits) and render nothing
      --output      file to write (default NAME-WxH@Sx.EXT here); '-' for standard output.
                    Exactly this file is written: with auto, a .png, .jpg, .jpeg or .webp
                    ending narrows the choice to that format. A regular file (also through a
                    link) is replaced atomically, never one of the inputs (output_is_input);
                    a FIFO, a device or /dev/stdout is written directly
      --product     banner (default), companion (several files: picked by the companion rule) or
                    interstitial: with --device, the output is the device's
                    whole screen in pixels, the artwork aspect fit and centred in its safe area
      --device NAME a device of the table, for example "iPhone 15" (instead of --slot/--scale);
                    companions: the device's standard slot (phones 320x50 pt, iPads 728x90 pt)
      --orientation portrait (default) or landscape
    \(JobLimitOptions.usage)
    """
    static let options = Set<String>(["--slot", "--scale", "--background", "--format", "--quality", "--output",
                                      "--max-pixels", "--max-bytes", "--product", "--device", "--orientation"])
        .union(JobLimitOptions.names)
    static let flags: Set<String> = ["--no-enlarge", "--cost"]

    static func run(_ arguments: ParsedArguments) throws(CLIError) -> Int32 {
        let product = try Inputs.product(arguments)
        let standardSlot = try standardSlot(arguments, product: product)
        if standardSlot == nil, arguments.value("--device") != nil || arguments.value("--orientation") != nil {
            return try runFullScreen(arguments, product: product)
        }
        let points: PixelSize, scale: Double
        if let standardSlot {
            (points, scale) = (standardSlot.slot.points, standardSlot.slot.scale)
        } else {
            guard let given = try arguments.size("--slot") else { throw .usage("--slot WxH is required") }
            (points, scale) = (given, try arguments.double("--scale") ?? 1)
        }
        let format = try arguments.choice("--format", FormatChoice.self) ?? .png
        let named = try namedAutoFormat(arguments, format: format)
        var settings: RenderSettings
        do {
            settings = try RenderSettings(slot: points, scale: scale, format: format, background: named.background,
                                          enlarge: !arguments.flag("--no-enlarge"))
        } catch { throw .usage(error.description) }
        if let refusal = format.canvasRefusal(settings.canvas) { throw .usage("--format \(format.rawValue): \(refusal)") }
        settings.quality = try quality(arguments, format: format)
        settings.autoFormats = named.format.map { [$0] }
        let slot = Slot(points: points, scale: scale)
        let maxPixels = try Inputs.maxPixels(arguments)
        let maxBytes = try arguments.int("--max-bytes", in: 1...1 << 30) ?? Inputs.defaultRenderMaxBytes
        let limits = try JobLimitOptions.read(arguments)
        if let output = arguments.value("--output") { try OutputFile.refuseInput(output, inputs: arguments.positionals) }

        let (source, stem) = try pickSource(arguments.positionals, request: slot.pixels,
                                            mode: SelectionMode.modes(for: product)[0],
                                            product: product, maxBytes: maxBytes, maxPixels: maxPixels)
        if arguments.flag("--cost") { return try printCost(source, settings: settings, limits: limits) }
        let slotText = "slot \(points) pt @\(TextFormat.scale(scale))x"
        try renderAndWrite(source, stem: stem, settings: settings, limits: limits, output: arguments.value("--output"),
                           defaultStem: "\(stem)-\(points)@\(TextFormat.scale(scale))x", describing: slotText,
                           inputs: arguments.positionals)
        return ExitCode.success
    }

    /// For `--format auto` with an `--output` ending in `.png`, `.jpg`, `.jpeg` or `.webp`: that
    /// format, which the choice is narrowed to (the file named is the file written), else nil;
    /// and the `--background` to use: a JPEG-only choice has white bars unless told otherwise.
    /// - Throws: a usage error for transparent bars in a JPEG-only choice.
    private static func namedAutoFormat(_ arguments: ParsedArguments,
                                        format: FormatChoice) throws(CLIError) -> (format: OutputFormat?, background: String?) {
        let given = arguments.value("--background")
        guard format == .auto, let output = arguments.value("--output"), let named = OutputFile.format(named: output) else {
            return (nil, given)
        }
        guard named == .jpeg else { return (named, given) }
        if let given, (try? Background(parsing: given)) == .transparent {
            throw .usage("--output '\(TextFormat.clipped(output))' is a JPEG, which cannot be transparent; give "
                         + "--background '#rrggbb', or name a .png or .webp output")
        }
        return (named, given ?? "#ffffff")
    }

    /// `--cost`: what rendering `source` would be charged (``JobCost``), as JSON; nothing is decoded.
    private static func printCost(_ source: ImageSource, settings: RenderSettings, limits: JobLimits) throws(CLIError) -> Int32 {
        try Streams.outLine(JobCost.render(source, settings: settings, memoryBudget: limits.memoryBudget)
            .json(limits: limits).serialized())
        return ExitCode.success
    }

    /// `--quality Q`: only for JPEG and WebP.
    private static func quality(_ arguments: ParsedArguments, format: FormatChoice) throws(CLIError) -> Int? {
        guard let quality = try arguments.int("--quality", in: 1...100) else { return nil }
        if let refusal = format.qualityRefusal { throw .usage("--quality is for --format jpeg or webp (\(refusal))") }
        return quality
    }

    /// Renders, writes the file (the one named, or the default name with the written format's
    /// extension) and prints the line that says what was written.
    private static func renderAndWrite(_ source: ImageSource, stem: String, settings: RenderSettings, limits: JobLimits,
                                       output given: String?, defaultStem: String, describing slot: String,
                                       inputs: [String]) throws(CLIError) {
        let encoded: EncodedRender
        do {
            encoded = try Renderer.render(source, settings: settings, limits: limits)
        } catch {
            throw .imaging(error, file: stem)
        }
        let output = OutputFile.path(given, defaultStem: defaultStem, format: encoded.format)
        // Again just before writing: a default name, or a name that came to be an input meanwhile.
        try OutputFile.refuseInput(output, inputs: inputs)
        if !(try Inputs.write(encoded.bytes, to: output)) {
            let placement = settings.placement(of: source.displayedSize)
            try Streams.outEscaped("wrote \(output): \(settings.canvas) px (\(slot)), "
                + "\(source.displayedSize) artwork shown at \(placement.content) from (\(placement.x),\(placement.y)), "
                + "\(encoded.bytes.count) bytes, \(encoded.detail)")
        }
    }

    /// `--device NAME` for a product with a fixed standard slot (companions): that device's slot;
    /// nil for the other products or without `--device`.
    private static func standardSlot(_ arguments: ParsedArguments, product: Product) throws(CLIError) -> DeviceSlot? {
        guard product.slotRule == .fixedStandardSlot, arguments.value("--device") != nil else { return nil }
        for other in ["--slot", "--scale", "--orientation"] where arguments.value(other) != nil {
            throw .usage("\(other) is not for --device with --product \(product): the slot is fixed per device")
        }
        let device = try Inputs.device(arguments)
        guard let slot = DeviceSlot.standard(device, product: product) else {
            throw .usage("\(product) has no standard slot for \(device.name)")
        }
        return slot
    }

    /// `render --product interstitial --device NAME --orientation O`: the whole screen in pixels,
    /// the artwork fitted and centred in the safe area, bars elsewhere.
    private static func runFullScreen(_ arguments: ParsedArguments, product: Product) throws(CLIError) -> Int32 {
        guard product.slotRule == .fullScreenSafeArea else {
            throw .usage("--device and --orientation need a full-screen product (--product interstitial)")
        }
        if arguments.value("--slot") != nil || arguments.value("--scale") != nil {
            throw .usage("give either --slot WxH [--scale N] or --device NAME [--orientation O], not both")
        }
        guard !arguments.positionals.isEmpty else { throw .usage("give at least one FILE (the interstitial artwork)") }
        let deviceSlot = try Inputs.fullScreenSlot(arguments)
        let format = try arguments.choice("--format", FormatChoice.self) ?? .png
        let named = try namedAutoFormat(arguments, format: format)
        var settings: RenderSettings
        do {
            settings = try RenderSettings(fullScreen: deviceSlot, format: format, background: named.background,
                                          enlarge: !arguments.flag("--no-enlarge"))
        } catch { throw .usage(error.description) }
        settings.quality = try quality(arguments, format: format)
        settings.autoFormats = named.format.map { [$0] }
        let limits = try JobLimitOptions.read(arguments)
        if let output = arguments.value("--output") { try OutputFile.refuseInput(output, inputs: arguments.positionals) }
        let maxPixels = try Inputs.maxPixels(arguments)
        let maxBytes = try arguments.int("--max-bytes", in: 1...1 << 30) ?? Inputs.defaultRenderMaxBytes
        let (source, stem) = try pickSource(arguments.positionals, request: deviceSlot.safeAreaPixels.size,
                                            mode: .fullScreen, product: product, maxBytes: maxBytes, maxPixels: maxPixels)
        let slot = "\(deviceSlot.device.name) \(deviceSlot.orientation.rawValue), safe area \(deviceSlot.slot.points) pt "
            + "@\(TextFormat.scale(deviceSlot.slot.scale))x"
        if arguments.flag("--cost") { return try printCost(source, settings: settings, limits: limits) }
        try renderAndWrite(source, stem: stem, settings: settings, limits: limits, output: arguments.value("--output"),
                           defaultStem: "\(stem)-\(deviceSlot.identifier)", describing: slot, inputs: arguments.positionals)
        return ExitCode.success
    }

    /// The source to render and a name for it: the one file, the best of several (picked by
    /// `mode` for a request of `request` pixels), or the test artwork.
    private static func pickSource(_ files: [String], request: PixelSize, mode: SelectionMode, product: Product,
                                   maxBytes: Int, maxPixels: Int) throws(CLIError) -> (ImageSource, String) {
        if files.filter({ $0 == "-" }).count > 1 { throw .usage("standard input ('-') can be read only once") }
        if files.isEmpty {
            do {
                let artwork = try TestArtwork.source(for: request)
                return (artwork, "test-artwork-\(artwork.displayedSize)")
            } catch { throw .imaging(error) }
        }
        if files.count == 1 {
            return (try Inputs.openSource(files[0], maxBytes: maxBytes, maxPixels: maxPixels), stem(of: files[0]))
        }
        // The winner is picked from the headers alone; only the winner is opened. Standard
        // input cannot be read twice, so its source is kept (there is at most one). A file over
        // the read limit drops out of the choice (a note says so); the others still compete.
        var candidates: [(path: String, size: PixelSize)] = []
        var standardInput: ImageSource?
        for path in files {
            guard let candidate = try Inputs.candidate(path, maxBytes: maxBytes, maxPixels: maxPixels) else {
                continue
            }
            if path == "-" { standardInput = candidate.source }
            candidates.append((path, candidate.size))
        }
        guard !candidates.isEmpty else {
            throw .failed(code: ValidationCode.fileTooLarge.rawValue,
                          message: "every candidate is over the read limit of \(maxBytes) bytes (--max-bytes)")
        }
        let winner: Int
        do {
            winner = try Selection.select(candidates.map(\.size), mode: mode, width: request.width,
                                          height: request.height, product: product).winner
        } catch {
            throw .failed(code: "no_eligible_creative", message: error.description)
        }
        let path = candidates[winner].path
        if path == "-", let standardInput { return (standardInput, stem(of: path)) }
        return (try Inputs.openSource(path, maxBytes: maxBytes, maxPixels: maxPixels), stem(of: path))
    }

    /// A file name without folders and extension (`render` for standard input).
    static func stem(of path: String) -> String {
        if path == "-" { return "render" }
        let name = path.split(separator: "/").last.map(String.init) ?? path
        guard let dot = name.lastIndex(of: "."), dot != name.startIndex else { return name }
        return String(name[..<dot])
    }
}
