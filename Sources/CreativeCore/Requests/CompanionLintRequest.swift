/// A companion lint as callers ask for it (`creative-tool companion lint`, `POST /v1/companion/lint`).
public struct CompanionLintRequest: Sendable {
    /// `--takeover`, `takeover=true`.
    public static let takeover = OptionDeclaration(
        "takeover", .toggle, help: "lint takeover metadata (ad_type=webview or takeoverAds), not a companion creative",
        defaultValue: "false")
    /// Every option, in help order.
    public static let options = OptionList([takeover])

    /// What the text holds.
    public let kind: CompanionLint.Kind

    /// - Throws: ``CoreError`` for a wrong value.
    public init(_ source: some OptionSource) throws(CoreError) {
        kind = try source.toggle(Self.takeover) ? .takeover : .companion
    }
}
