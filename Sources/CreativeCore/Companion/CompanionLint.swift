/// The player SDK's rules for companion creatives' trafficking parameters (`003`, "Supply
/// creative parameters"), checked before an ad reaches a device: the same verdict, with a
/// message a person can act on for each problem.
///
/// `ad_type=carousel` makes a carousel; otherwise the parameters must make a custom CTA; with
/// neither shape the creative is `unknown_format`. A malformed segment, a repeated key or an
/// alias pair with two values rejects the creative whatever its format.
public enum CompanionLint {
    /// Which parameters a text holds.
    public enum Kind: String, Sendable, CaseIterable {
        /// Companion creatives: carousel or custom CTA.
        case companion
        /// Takeover metadata, which the app parses (``TakeoverLint``).
        case takeover
    }

    /// Custom CTA keys, in the order of the SDK's table.
    public static let customCTAKeys = ["icon", "Icon", "bannerTitle", "ctaUrl", "bannerDescription", "ctaText"]
    /// Carousel keys, in the order of the SDK's table.
    public static let carouselKeys = ["carousel_banner", "brand_icon", "carousel_title", "carousel_description",
                                      "carousel_images", "carousel_images_urls", "carousel_cta_text", "carousel_cta_url"]
    /// Keys of both formats.
    public static let sharedKeys = ["ad_type", "campaign", "campaign name", "companion_schema_version"]
    /// The label of a custom CTA's button when `ctaText` is absent.
    public static let defaultCTAText = "Learn more"
    /// Most entries of `carousel_images`.
    public static let maxCarouselImages = 20
    /// The one `companion_schema_version` the SDK supports.
    public static let schemaVersion = "1"

    /// Lints parameter text as a caller hands it over (checked by ``TraffickingInput`` first).
    public static func lint(_ bytes: [UInt8], kind: Kind = .companion) -> CompanionLintReport {
        switch TraffickingInput.read(bytes) {
        case .problem(let problem): return rejected(problem)
        case .text(let text):
            switch kind {
            case .companion: return lint(text: text)
            case .takeover: return TakeoverLint.lint(text: text)
            }
        }
    }

    /// The report of input that is not parameter text (too large, empty, NUL, not UTF-8).
    public static func rejected(_ problem: TraffickingInput.Problem) -> CompanionLintReport {
        var report = CompanionLintReport()
        switch problem {
        case .tooLarge(let bytes):
            report.add(LintIssue(.inputTooLarge, "the parameters are \(bytes) bytes (or more), over the limit of "
                                 + "\(TraffickingInput.maxBytes) bytes; trafficking parameters are a short line of text"))
        case .empty:
            report.add(LintIssue(.emptyInput, "the parameters are empty; give comma-separated key=value pairs"))
        case .nul(let offset):
            report.add(LintIssue(.nulCharacter, "byte \(offset) is a NUL character, which parameter text cannot hold"))
        case .invalidUTF8(let offset):
            report.add(LintIssue(.invalidUTF8, "byte \(offset) is not UTF-8; save the parameters as UTF-8 text"))
        }
        return report
    }

    /// Lints companion parameters (carousel or custom CTA).
    public static func lint(text: String) -> CompanionLintReport {
        var check = ParameterChecker(text, vocabulary: sharedKeys + customCTAKeys + carouselKeys)
        check.splitting()
        let parameters = check.parameters
        let adType = parameters.entry("ad_type")
        var used = Set(sharedKeys)
        if adType?.value == "carousel" {
            check.report.format = "carousel"
            check.report.fields.append(("ad_type", .string("carousel")))
            carousel(&check)
            used.formUnion(carouselKeys)
            check.unknownKeys(used: used, notUsedNote: "is a custom CTA key, and this creative is a carousel")
        } else if customCTAKeys.contains(where: parameters.has) {
            check.report.format = "custom_cta"
            if let adType {
                check.report.add(LintIssue(.adTypeIgnored, key: "ad_type", segment: adType.segment,
                                           "ad_type=\(TextFormat.clipped(adType.value)) is not 'carousel', so the SDK "
                                           + "reads this creative as a custom CTA" + carouselHint(adType.value)))
            }
            customCTA(&check)
            used.formUnion(customCTAKeys)
            check.unknownKeys(used: used, notUsedNote: "is a carousel key, and this creative is a custom CTA "
                              + "(a carousel needs ad_type=carousel)")
        } else {
            check.report.add(LintIssue(.unknownFormat, key: adType == nil ? nil : "ad_type", segment: adType?.segment,
                                       unknownFormatMessage(parameters)))
            check.unknownKeys(used: used.union(customCTAKeys).union(carouselKeys), notUsedNote: "")
        }
        shared(&check)
        textCharacters(&check, keys: textKeys(format: check.report.format))
        return check.report
    }

    /// `icon`/`Icon` (HTTP(S), equal when both), `bannerTitle` (non-empty), `ctaUrl` (any absolute
    /// URL), `bannerDescription`, `ctaText` (default `Learn more`).
    static func customCTA(_ check: inout ParameterChecker) {
        let what = "the HTTP or HTTPS URL of the icon"
        if let icon = check.alias(["icon", "Icon"], as: "icon") {
            check.url(icon, key: "icon", rule: .http, what: what)
            check.report.fields.append(("icon", .string(icon.value)))
        } else {
            check.report.add(LintIssue(.missingKey, key: "icon", "icon (or Icon) is required: \(what)"
                                       + check.lookalike(of: ["icon", "Icon"])))
        }
        if let title = check.requiredText("bannerTitle", "the banner's title, not empty", nonEmpty: true) {
            check.report.fields.append(("bannerTitle", .string(title)))
        }
        if let description = check.parameters.value("bannerDescription") {
            check.report.fields.append(("bannerDescription", .string(description)))
        }
        if let url = check.requiredURL("ctaUrl", "the destination URL of the action button", rule: .destination) {
            check.report.fields.append(("ctaUrl", .string(url)))
        }
        if let text = check.parameters.entry("ctaText") {
            if text.value.unicodeScalars.allSatisfy(\.properties.isWhitespace) {
                check.report.add(LintIssue(.blankValue, key: "ctaText", segment: text.segment,
                                           "ctaText is blank, so the button has no label; leave the key out for "
                                           + "'\(defaultCTAText)'"))
            }
            check.report.fields.append(("ctaText", .string(text.value)))
        } else {
            check.report.fields.append(("ctaText", .string(defaultCTAText)))
        }
    }

    /// `campaign`/`campaign name` (equal when both) and `companion_schema_version` (only `1`).
    static func shared(_ check: inout ParameterChecker) {
        if let campaign = check.alias(["campaign", "campaign name"], as: "campaign") {
            check.report.fields.append(("campaign", .string(campaign.value)))
        }
        if let version = check.parameters.entry("companion_schema_version") {
            if version.value != schemaVersion {
                check.report.add(LintIssue(.unsupportedSchemaVersion, key: version.key, segment: version.segment,
                                           "companion_schema_version is '\(TextFormat.clipped(version.value))'; the only "
                                           + "supported value is \(schemaVersion): write companion_schema_version=1 or leave it out"))
            }
            check.report.fields.append(("companion_schema_version", .string(version.value)))
        }
    }

    /// Why the parameters are neither a carousel nor a custom CTA, and what would make them one.
    static func unknownFormatMessage(_ parameters: TraffickingParameters) -> String {
        var message = "the parameters are neither a carousel (ad_type=carousel) nor a custom CTA "
            + "(icon, bannerTitle, ctaUrl)"
        if let adType = parameters.value("ad_type") {
            if adType == "webview" || adType == "takeoverAds" {
                return message + "; ad_type=\(adType) is takeover metadata: lint it as takeover metadata (--takeover)"
            }
            message += "; ad_type is '\(TextFormat.clipped(adType))'" + carouselHint(adType)
        } else if carouselKeys.contains(where: parameters.has) {
            message += "; it has carousel keys: add ad_type=carousel"
        }
        return message
    }

    /// `: did you mean carousel?` when an `ad_type` value is near `carousel`.
    private static func carouselHint(_ value: String) -> String {
        KeySuggestion.nearest(to: value, in: ["carousel"]) == nil ? "" : "; did you mean ad_type=carousel? Values are case-sensitive"
    }
}
