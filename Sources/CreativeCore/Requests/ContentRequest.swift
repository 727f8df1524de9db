/// The user texts a prompt is filled with (`prompt`, `guidance --format html`), declared once.
public struct PromptTexts: Sendable, Equatable {
    public static let brand = text("brand", "the advertiser's name (the prompt leaves room for the logo; it never draws it)")
    public static let headline = text("headline", "the headline, to appear verbatim")
    public static let cta = text("cta", "the call to action, to appear verbatim on a button")
    public static let colors = OptionDeclaration(
        "colors", .text(maxLength: maxLength), placeholder: "T",
        help: "the palette, in words or hex (for example \"navy #0b3d91 and white\")", mistakenNames: ["colours", "color"])
    /// The four, in help order.
    public static let all = [brand, headline, cta, colors]
    /// Most characters of one text.
    public static let maxLength = 500

    private static func text(_ name: String, _ help: String) -> OptionDeclaration {
        OptionDeclaration(name, .text(maxLength: maxLength), placeholder: "T", help: help)
    }

    public let brand: String?, headline: String?, cta: String?, colors: String?

    /// The texts given (each at most ``maxLength`` characters).
    public init(_ source: some OptionSource) throws(CoreError) {
        brand = try source.text(Self.brand)
        headline = try source.text(Self.headline)
        cta = try source.text(Self.cta)
        colors = try source.text(Self.colors)
    }

    /// The first text given, for a rule that refuses them.
    public static func firstGiven(_ source: some OptionSource) -> OptionDeclaration? { source.firstGiven(all) }
}

/// Guidance as callers ask for it (`creative-tool guidance`, `GET /v1/guidance`).
public struct GuidanceRequest: Sendable {
    public static let format = OptionDeclaration(
        "format", .choice(GuidanceFormat.allCases.map(\.rawValue)), placeholder: "F",
        help: "json (for the dashboard backend), markdown, or html (one self-contained page that opens, after "
            + "its contents, with the AI prompt of every accepted size, each with a Copy button)",
        defaultValue: GuidanceFormat.json.rawValue, mistakenValues: ["md": "markdown", "htm": "html", "text": "markdown"])
    /// Every option, in help order.
    public static let options = OptionList([format, CommonOptions.product,
                                            CommonOptions.profile.with(help: "one platform's guidance instead: its sizes "
                                                + "and weights, its rules and their sources (" + PlatformProfiles.names.joined(separator: ", ")
                                                + "; docs/profiles.md)")] + PromptTexts.all)

    public let format: GuidanceFormat
    public let product: Product
    /// The platform profile asked for; nil for the network's own guidance.
    public let profile: PlatformProfile?
    /// The texts filling the html page's prompts.
    public let texts: PromptTexts

    /// - Throws: ``CoreError`` for a wrong value, or a text without `format=html`.
    public init(_ source: some OptionSource) throws(CoreError) {
        format = try source.choice(Self.format, GuidanceFormat.self) ?? .json
        product = try CommonOptions.product(source)
        texts = try PromptTexts(source)
        if format != .html, let given = PromptTexts.firstGiven(source) {
            throw .invalidRequest("\(source.spelling(given)) fills the prompts of \(source.spelling(Self.format)) html")
        }
        let profiles = try CommonOptions.profiles(source)
        guard (profiles?.count ?? 0) <= 1 else {
            throw .invalidRequest("\(source.spelling(CommonOptions.profile)) names one profile for guidance, not "
                                  + "\(profiles?.names ?? "")")
        }
        profile = profiles?.first
        if let profile, !profile.isDefault, let given = PromptTexts.firstGiven(source) {
            throw .invalidRequest("\(source.spelling(given)) fills the network's prompts; \(profile.name)'s guidance has none")
        }
    }
}

/// A prompt as callers ask for it (`creative-tool prompt`, `GET /v1/prompt`).
public struct PromptRequest: Sendable {
    public static let size = OptionDeclaration(
        "size", .size, placeholder: "WxH",
        help: "an accepted size in pixels (default: one prompt per recommended size of the product)")
    /// Every option, in help order.
    public static let options = OptionList([size, CommonOptions.product] + PromptTexts.all)

    public let size: PixelSize?
    public let product: Product
    public let texts: PromptTexts

    /// - Throws: ``CoreError`` for a wrong value.
    public init(_ source: some OptionSource) throws(CoreError) {
        size = try source.size(Self.size)
        product = try CommonOptions.product(source)
        texts = try PromptTexts(source)
    }
}
