/// Takeover metadata (`003`, "Implement takeover ads in the application"), split by the same
/// rules as companion parameters (``TraffickingParameters``): a malformed segment or a repeated
/// key rejects it.
///
/// - `ad_type=webview` (in-video, VAST trafficking parameters): `campaign` and `Image_url`, the
///   page URL despite its name, which must be HTTPS. Format `in_video`.
/// - `ad_type=takeoverAds` (GAM native custom format): `Takeover_ads_url`. Format `contextual`;
///   when any key of the ads-under-a-tab format is given, format `ads_under_a_tab`, which also
///   requires `redirection_url`, `sidelogo`, `c_title`, `thirdPartyImpression`, `thirdPartyClick`
///   and `advertiser_name`.
///
/// The document leaves URL checks to the app's security policy; this tool's policy: the URL keys
/// (`Takeover_ads_url`, `redirection_url`, `sidelogo`, `thirdPartyImpression`, `thirdPartyClick`)
/// hold HTTP or HTTPS URLs, and the text keys (`campaign`, `c_title`, `advertiser_name`) are not empty.
public enum TakeoverLint {
    /// The in-video keys besides `ad_type`.
    public static let inVideoKeys = ["campaign", "Image_url"]
    /// The contextual keys besides `ad_type`.
    public static let contextualKeys = ["Takeover_ads_url"]
    /// The keys that only the ads-under-a-tab format has, in the document's order.
    public static let tabKeys = ["redirection_url", "sidelogo", "c_title", "thirdPartyImpression", "thirdPartyClick",
                                 "advertiser_name"]
    /// Keys of the tab format that hold URLs (the others hold text).
    static let tabURLKeys: Set<String> = ["redirection_url", "sidelogo", "thirdPartyImpression", "thirdPartyClick"]

    /// Lints takeover metadata.
    public static func lint(text: String) -> CompanionLintReport {
        var check = ParameterChecker(text, vocabulary: ["ad_type"] + inVideoKeys + contextualKeys + tabKeys)
        check.splitting()
        let adType = check.parameters.entry("ad_type")
        var used: Set<String> = ["ad_type"]
        switch adType?.value {
        case "webview":
            check.report.format = "in_video"
            check.report.fields.append(("ad_type", .string("webview")))
            if let campaign = check.requiredText("campaign", "the campaign's name", nonEmpty: true) {
                check.report.fields.append(("campaign", .string(campaign)))
            }
            if let page = check.requiredURL("Image_url", "the HTTPS URL of the takeover page", rule: .https) {
                check.report.fields.append(("Image_url", .string(page)))
            }
            used.formUnion(inVideoKeys)
            check.unknownKeys(used: used, notUsedNote: "belongs to takeoverAds metadata, and this is ad_type=webview")
        case "takeoverAds":
            let tab = tabKeys.contains(where: check.parameters.has)
            check.report.format = tab ? "ads_under_a_tab" : "contextual"
            check.report.fields.append(("ad_type", .string("takeoverAds")))
            if let url = check.requiredURL("Takeover_ads_url", "the HTTP or HTTPS URL of the takeover ad", rule: .http) {
                check.report.fields.append(("Takeover_ads_url", .string(url)))
            }
            used.formUnion(contextualKeys)
            if tab {
                for key in tabKeys {
                    let what = tabURLKeys.contains(key) ? "an HTTP or HTTPS URL of the ads-under-a-tab format"
                        : "text of the ads-under-a-tab format, not empty"
                    let value = tabURLKeys.contains(key) ? check.requiredURL(key, what, rule: .http)
                        : check.requiredText(key, what, nonEmpty: true)
                    if let value { check.report.fields.append((key, .string(value))) }
                }
                used.formUnion(tabKeys)
            }
            check.unknownKeys(used: used, notUsedNote: "belongs to ad_type=webview metadata, and this is takeoverAds")
        default:
            var message = "takeover metadata needs ad_type=webview (in-video) or ad_type=takeoverAds (contextual, "
                + "ads under a tab)"
            if let value = adType?.value {
                message += "; ad_type is '\(TextFormat.clipped(value))'"
                if let near = KeySuggestion.nearest(to: value, in: ["webview", "takeoverAds"]) {
                    message += ": did you mean ad_type=\(near)? Values are case-sensitive"
                } else if value == "carousel" {
                    message += ", a companion creative: lint it without --takeover"
                }
            }
            check.report.add(LintIssue(.unknownFormat, key: adType == nil ? nil : "ad_type", segment: adType?.segment,
                                       message))
            check.unknownKeys(used: Set(check.vocabulary), notUsedNote: "")
        }
        return check.report
    }
}
