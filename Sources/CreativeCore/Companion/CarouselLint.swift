extension CompanionLint {
    /// The carousel's rules: `carousel_banner` and `brand_icon` (HTTP(S) URLs), `carousel_title`
    /// (non-empty), `carousel_description` (present, may be empty), `carousel_images` (`$`-separated,
    /// at least one usable HTTP(S) URL, at most 20 entries; an unusable entry is skipped with a
    /// warning), `carousel_images_urls` (matched by position; blank means no tap destination),
    /// `carousel_cta_text` and `carousel_cta_url` together or not at all.
    static func carousel(_ check: inout ParameterChecker) {
        for (key, what) in [("carousel_banner", "the HTTP or HTTPS URL of the collapsed banner"),
                            ("brand_icon", "the HTTP or HTTPS URL of the expanded header icon")] {
            if let value = check.requiredURL(key, what, rule: .http) { check.report.fields.append((key, .string(value))) }
        }
        if let title = check.requiredText("carousel_title", "the carousel's title, not empty", nonEmpty: true) {
            check.report.fields.append(("carousel_title", .string(title)))
        }
        if let description = check.requiredText("carousel_description", "the description (its value may be empty: "
                                                 + "write carousel_description=)", nonEmpty: false) {
            check.report.fields.append(("carousel_description", .string(description)))
        }
        let imageCount = images(&check)
        destinations(&check, imageCount: imageCount)
        callToAction(&check)
    }

    /// `carousel_images`: returns how many entries it has (0 when absent).
    private static func images(_ check: inout ParameterChecker) -> Int {
        guard let entry = check.required("carousel_images", "the carousel's image URLs (HTTP or HTTPS), "
                                         + "separated by $, 1 to \(maxCarouselImages)") else { return 0 }
        let images = TraffickingParameters.list(entry.value)
        check.report.fields.append(("carousel_images", .array(images.map { .string($0) })))
        if images.count > maxCarouselImages {
            check.report.add(LintIssue(.tooManyImages, key: entry.key, segment: entry.segment,
                                       "carousel_images has \(images.count) entries; at most \(maxCarouselImages) are "
                                       + "allowed: remove \(images.count - maxCarouselImages)"))
        }
        var usable = 0
        for (offset, image) in images.enumerated() {
            let index = offset + 1
            switch image.isEmpty ? .rejected(code: .invalidURL, reason: "is blank") : URLRule.http.check(image) {
            case .usable(let url):
                usable += 1
                check.urlWarnings(url, key: entry.key, segment: entry.segment, index: index, value: image)
            case .rejected(_, let reason):
                check.report.add(LintIssue(.unusableImage, key: entry.key, segment: entry.segment, index: index,
                                           "carousel_images entry \(index) '\(TextFormat.clipped(image))' "
                                           + "\(reason); the SDK skips it"))
            }
        }
        if usable == 0 {
            check.report.add(LintIssue(.noUsableImage, key: entry.key, segment: entry.segment,
                                       "carousel_images has no usable image: at least one entry must be an HTTP or "
                                       + "HTTPS URL"))
        }
        return images.count
    }

    /// `carousel_images_urls`: tap destinations by position; blank is none.
    private static func destinations(_ check: inout ParameterChecker, imageCount: Int) {
        guard let entry = check.parameters.entry("carousel_images_urls") else { return }
        let urls = TraffickingParameters.list(entry.value)
        check.report.fields.append(("carousel_images_urls", .array(urls.map { .string($0) })))
        for (offset, url) in urls.enumerated() where !url.isEmpty {
            switch URLRule.destination.check(url) {
            case .usable(let reference):
                check.urlWarnings(reference, key: entry.key, segment: entry.segment, index: offset + 1, value: url)
            case .rejected(_, let reason):
                check.report.add(LintIssue(.unusableDestination, key: entry.key, segment: entry.segment,
                                           index: offset + 1,
                                           "carousel_images_urls entry \(offset + 1) '\(TextFormat.clipped(url))' "
                                           + "\(reason); image \(offset + 1) gets no tap destination"))
            }
        }
        if imageCount > 0 && urls.count > imageCount {
            check.report.add(LintIssue(.extraDestinations, key: entry.key, segment: entry.segment,
                                       "carousel_images_urls has \(urls.count) entries for \(imageCount) images; "
                                       + "entries \(imageCount + 1) to \(urls.count) match no image"))
        }
    }

    /// `carousel_cta_text` and `carousel_cta_url`: both or neither; the URL HTTP(S).
    private static func callToAction(_ check: inout ParameterChecker) {
        let text = check.parameters.entry("carousel_cta_text")
        let url = check.parameters.entry("carousel_cta_url")
        switch (text, url) {
        case (let text?, nil):
            check.report.add(LintIssue(.unpairedCTA, key: text.key, segment: text.segment,
                                       "carousel_cta_text is given without carousel_cta_url; give both (the button's "
                                       + "label and its HTTP or HTTPS destination) or neither"
                                       + check.lookalike(of: ["carousel_cta_url"])))
        case (nil, let url?):
            check.report.add(LintIssue(.unpairedCTA, key: url.key, segment: url.segment,
                                       "carousel_cta_url is given without carousel_cta_text; give both (the button's "
                                       + "label and its HTTP or HTTPS destination) or neither"
                                       + check.lookalike(of: ["carousel_cta_text"])))
        default: break
        }
        if let text {
            if text.value.unicodeScalars.allSatisfy(\.properties.isWhitespace) {
                check.report.add(LintIssue(.blankValue, key: text.key, segment: text.segment,
                                           "carousel_cta_text is blank, so the button has no label"))
            }
            check.report.fields.append(("carousel_cta_text", .string(text.value)))
        }
        if let url {
            check.url(url, rule: .http, what: "the HTTP or HTTPS destination of the carousel's button")
            check.report.fields.append(("carousel_cta_url", .string(url.value)))
        }
    }
}
