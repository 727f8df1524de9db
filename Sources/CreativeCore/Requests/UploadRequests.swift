/// Validation as callers ask for it (`creative-tool validate`, `POST /v1/validate`).
public struct ValidateRequest: Sendable {
    /// `filename=`: the service's label for the upload (the CLI names files as operands).
    public static let fileName = OptionDeclaration(
        "filename", .text(maxLength: 255), placeholder: "NAME",
        help: "name for the report and the extension check (never opened)", defaultValue: "upload", surfaces: .query)
    /// `--no-preflight`.
    public static let preflight = OptionDeclaration(
        "preflight", .toggle, help: "run the pre-flight checks of the pixels (baked_in_bars, edge_without_border, "
            + "upscaled_artwork, mostly_empty); --no-preflight skips them", defaultValue: "true", surfaces: .commandLine)
    /// Every option, in help order.
    public static let options = OptionList([CommonOptions.product.with(help: "whose sizes are accepted: "
                                                + Product.allCases.map(\.rawValue).joined(separator: ", ")),
                                            CommonOptions.profile, fileName, preflight])

    public let product: Product
    public let preflight: Bool
    /// The profiles named (`--profile`); empty for the default, the product's own checks.
    public let profiles: [PlatformProfile]

    /// - Throws: ``CoreError`` for a wrong value.
    public init(_ source: some OptionSource) throws(CoreError) {
        product = try CommonOptions.product(source)
        preflight = try source.toggle(Self.preflight)
        profiles = try CommonOptions.profiles(source) ?? []
    }
}

/// The upload pipeline's job as callers ask for it (`creative-tool process`, `POST /v1/process`).
public struct ProcessRequest: Sendable {
    public static let format = RenderRequest.format.with(
        help: "how the renders are written: auto (the smallest of PNG, palette PNG and WebP that keeps luma SSIM >= 0.975 "
            + "and chroma SSIM >= 0.96, named in the manifest\(RenderRequest.autoWhenNamedNote)), or one of "
            + TextFormat.listed(OutputFormat.allCases.map(\.helpName))
            + ": the lossy ones at quality 85, with white bars for "
            + TextFormat.listed(OutputFormat.opaqueOnly.map(\.displayName), "and"),
        defaultValue: FormatChoice.auto.rawValue)
    /// `--formats F[,G]`: the formats `auto` chooses among, as a render's.
    public static let formats = RenderRequest.formats
    /// `inline=false`: the answer lists the files without their bytes.
    public static let inline = OptionDeclaration(
        "inline", .toggle, help: "false: the files' names, SHA-256 and sizes without their bytes",
        defaultValue: "true", surfaces: .query)
    /// `file=NAME`: one file of the answer, as itself.
    public static let file = OptionDeclaration(
        "file", .text(maxLength: 255), placeholder: "NAME", help: "one file of the answer, in its own media type",
        surfaces: .query)
    /// `--with WxH,...`: the campaign's other approved sizes, uploaded before.
    public static let with = OptionDeclaration(
        "with", .text(maxLength: 1024), placeholder: "WxH,...",
        help: "the campaign's other approved sizes (uploaded before), comma-separated: the creative is rendered "
            + "only where the ad server serves it among them; without, the creative is the whole campaign")
    /// `--weight-budget SIZE`: every render's largest file, as a render's.
    public static let weightBudget = RenderRequest.weightBudget.with(
        help: RenderRequest.weightBudget.help + "; a render that cannot fit is listed in the manifest with "
            + "over_weight_budget and not written, the others are")
    /// `--profile P[,Q]`: each render's budget is the strictest of the profiles' weight for its size
    /// and ``weightBudget`` (the upload itself is checked against the product's rules, as without).
    public static let profile = RenderRequest.profile.with(
        help: RenderRequest.profile.help + "; the upload is checked against the product's rules (validate --profile "
            + "checks it against the platforms')")
    /// Every option, in help order.
    public static let options = OptionList([ValidateRequest.options[CommonOptions.product.name], format, formats, with,
                                            weightBudget, profile, ValidateRequest.fileName, inline, file])
    /// The options a worker's job entry gives as fields, named as a query names them (`format`,
    /// `weight_budget`, `profile`): the command line's options of the job, which `enqueue` writes
    /// and `worker` takes as the defaults of entries that name none.
    public static let jobFields = OptionList(options.on(.commandLine))

    /// Largest number of sizes `with` may name.
    public static let maxWith = 64

    public let product: Product
    /// How the renders are written: `format`, `formats` (``RenderRequest/formats``), the weight
    /// budget and its profiles (``RenderWeightBudget``), and the campaign's other sizes (`with`),
    /// each accepted by the product, each once.
    public let settings: ProcessSettings
    /// Whether the answer carries the files' bytes.
    public let inline: Bool
    /// The one file asked for, nil for all.
    public let file: String?

    /// - Throws: ``CoreError`` for a wrong value, or `inline` with `file`.
    public init(_ source: some OptionSource) throws(CoreError) {
        product = try CommonOptions.product(source)
        let format = try source.choice(Self.format, FormatChoice.self) ?? .auto
        settings = ProcessSettings(
            format: format, autoFormats: try RenderRequest.autoFormats(source, format: format),
            weightBudget: try RenderRequest.weightBudgets(source, weightBudget: Self.weightBudget),
            campaign: try Self.campaignSizes(source.text(Self.with), product: product, spelling: source.spelling(Self.with)))
        inline = try source.toggle(Self.inline)
        file = try source.text(Self.file)
        if let file {
            if source.has(Self.inline) {
                throw .invalidRequest("give \(source.spelling(Self.inline)) or \(source.spelling(Self.file)), not both")
            }
            guard !file.isEmpty else { throw .invalidRequest("\(source.spelling(Self.file)) must name one file of the answer") }
        }
    }

    /// The sizes of a `with` list: `WxH` separated by commas (spaces allowed around them), each
    /// one the product accepts, duplicates dropped; empty for nil or "".
    /// - Throws: ``CoreError/invalidRequest(_:)`` for a size that is not `WxH`, one the product
    ///   does not accept, or more than ``maxWith``.
    public static func campaignSizes(_ text: String?, product: Product, spelling: String) throws(CoreError) -> [PixelSize] {
        guard let text, !text.allSatisfy({ $0 == " " }) else { return [] }
        let items = text.split(separator: ",", omittingEmptySubsequences: false)
        guard items.count <= maxWith else {
            throw .invalidRequest("\(spelling) names \(items.count) sizes; at most \(maxWith)")
        }
        var sizes: [PixelSize] = []
        for item in items {
            let trimmed = String(item.drop { $0 == " " }.reversed().drop { $0 == " " }.reversed())
            guard let size = try? PixelSize(parsing: trimmed) else {
                throw .invalidRequest("\(spelling): '\(TextFormat.clipped(trimmed))' is not WxH (for example 1320x204)")
            }
            guard product.sizes.contains(size) else {
                throw .invalidRequest("\(spelling): \(size) is not a \(product.rawValue) size; accepted: "
                                      + product.sizes.map(\.description).joined(separator: ", "))
            }
            if !sizes.contains(size) { sizes.append(size) }
        }
        return sizes
    }
}
