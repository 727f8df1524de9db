import Foundation
import XCTest
@testable import CreativeCore

/// The player SDK's rules for trafficking parameters (`003`, "Supply creative parameters" and
/// "Implement takeover ads"), rule by rule: each rule has an accepted case and a rejected one.
final class CompanionLintTests: XCTestCase {
    static let cta = "icon=https://cdn.example.com/icon.png,bannerTitle=Summer sale,ctaUrl=https://shop.example.com/buy"
    static let carousel = "ad_type=carousel,carousel_banner=https://cdn.example.com/banner.png,"
        + "brand_icon=https://cdn.example.com/brand.png,carousel_title=New season,carousel_description=Fresh looks,"
        + "carousel_images=https://cdn.example.com/1.png$https://cdn.example.com/2.png"
    static let tab = "ad_type=takeoverAds,Takeover_ads_url=https://ads.example.com/t,redirection_url=https://shop.example.com,"
        + "sidelogo=https://cdn.example.com/logo.png,c_title=Deals,thirdPartyImpression=https://track.example.com/i,"
        + "thirdPartyClick=https://track.example.com/c,advertiser_name=Acme"

    /// One case: the text, the kind, the format, and the exact error and warning codes in report order.
    struct Case {
        let rule: String
        let text: String
        var kind: CompanionLint.Kind = .companion
        let format: String?
        var errors: [LintCode] = []
        var warnings: [LintCode] = []
    }

    static func images(_ count: Int) -> String {
        (1...count).map { "https://cdn.example.com/\($0).png" }.joined(separator: "$")
    }

    static func replacing(_ text: String, _ old: String, _ new: String) -> String {
        precondition(text.contains(old), "\(old) not in the base text")
        return text.replacingOccurrences(of: old, with: new)
    }

    static let cases: [Case] = {
        let cta = CompanionLintTests.cta, carousel = CompanionLintTests.carousel, tab = CompanionLintTests.tab
        let images2 = "carousel_images=https://cdn.example.com/1.png$https://cdn.example.com/2.png"
        let r = replacing
        return [
            // Splitting: on ',' and at the first '='.
            Case(rule: "query string kept in a value", text: cta + "?a=b&c=d", format: "custom_cta"),
            Case(rule: "'=' inside a value", text: r(cta, "Summer sale", "2+2=4"), format: "custom_cta"),
            Case(rule: "segment without '='", text: cta + ",promo", format: "custom_cta", errors: [.malformedSegment]),
            Case(rule: "segment with an empty key", text: cta + ",=x", format: "custom_cta", errors: [.malformedSegment]),
            Case(rule: "empty segment (trailing comma)", text: cta + ",", format: "custom_cta", errors: [.malformedSegment]),
            Case(rule: "duplicate key", text: cta + ",bannerTitle=Again", format: "custom_cta", errors: [.duplicateKey]),
            Case(rule: "duplicate key, same value", text: cta + ",bannerTitle=Summer sale", format: "custom_cta",
                 errors: [.duplicateKey]),
            Case(rule: "keys are case-sensitive", text: r(cta, "bannerTitle", "BannerTitle"), format: "custom_cta",
                 errors: [.missingKey], warnings: [.unknownKey]),
            // Format.
            Case(rule: "ad_type=carousel is a carousel", text: carousel, format: "carousel"),
            Case(rule: "no ad_type: custom CTA", text: cta, format: "custom_cta"),
            Case(rule: "neither shape", text: "campaign=spring", format: nil, errors: [.unknownFormat]),
            Case(rule: "carousel keys without ad_type", text: r(carousel, "ad_type=carousel,", ""), format: nil,
                 errors: [.unknownFormat]),
            Case(rule: "ad_type values are case-sensitive", text: r(carousel, "ad_type=carousel", "ad_type=Carousel"),
                 format: nil, errors: [.unknownFormat]),
            Case(rule: "another ad_type with CTA keys", text: "ad_type=banner," + cta, format: "custom_cta",
                 warnings: [.adTypeIgnored]),
            // Custom CTA: icon or Icon.
            Case(rule: "icon missing", text: r(cta, "icon=https://cdn.example.com/icon.png,", ""), format: "custom_cta",
                 errors: [.missingKey]),
            Case(rule: "Icon alias alone", text: r(cta, "icon=", "Icon="), format: "custom_cta"),
            Case(rule: "icon and Icon equal", text: cta + ",Icon=https://cdn.example.com/icon.png", format: "custom_cta"),
            Case(rule: "icon and Icon differ", text: cta + ",Icon=https://cdn.example.com/other.png", format: "custom_cta",
                 errors: [.aliasMismatch]),
            Case(rule: "icon javascript:", text: r(cta, "https://cdn.example.com/icon.png", "javascript:alert(1)"),
                 format: "custom_cta", errors: [.urlSchemeNotAllowed]),
            Case(rule: "icon data:", text: r(cta, "https://cdn.example.com/icon.png", "data:image/png;base64;AAAA"),
                 format: "custom_cta", errors: [.urlSchemeNotAllowed]),
            Case(rule: "icon file:", text: r(cta, "https://cdn.example.com/icon.png", "file:///etc/passwd"),
                 format: "custom_cta", errors: [.urlSchemeNotAllowed]),
            Case(rule: "icon with a space", text: r(cta, "icon.png", "my icon.png"), format: "custom_cta",
                 errors: [.invalidURL]),
            Case(rule: "icon without a host", text: r(cta, "https://cdn.example.com/icon.png", "https:///icon.png"),
                 format: "custom_cta", errors: [.invalidURL]),
            Case(rule: "icon without a scheme", text: r(cta, "https://cdn.example.com", "cdn.example.com"),
                 format: "custom_cta", errors: [.invalidURL]),
            Case(rule: "icon over plain http", text: r(cta, "https://cdn", "http://cdn"), format: "custom_cta"),
            // bannerTitle.
            Case(rule: "bannerTitle missing", text: r(cta, "bannerTitle=Summer sale,", ""), format: "custom_cta",
                 errors: [.missingKey]),
            Case(rule: "bannerTitle empty", text: r(cta, "Summer sale", ""), format: "custom_cta", errors: [.emptyValue]),
            Case(rule: "bannerTitle with a line break", text: r(cta, "Summer sale", "Summer\nsale"), format: "custom_cta",
                 errors: [.controlCharacter]),
            Case(rule: "bannerTitle with a right-to-left override", text: r(cta, "Summer sale", "Summer \u{202E}elas"),
                 format: "custom_cta", errors: [.bidiControl]),
            // ctaUrl.
            Case(rule: "ctaUrl missing", text: r(cta, ",ctaUrl=https://shop.example.com/buy", ""), format: "custom_cta",
                 errors: [.missingKey]),
            Case(rule: "ctaUrl an app scheme", text: r(cta, "https://shop.example.com/buy", "myapp://deals/42"),
                 format: "custom_cta", warnings: [.appHandledURL]),
            Case(rule: "ctaUrl not a URL", text: r(cta, "https://shop.example.com/buy", "buy now"), format: "custom_cta",
                 errors: [.invalidURL]),
            Case(rule: "ctaUrl empty", text: r(cta, "https://shop.example.com/buy", ""), format: "custom_cta",
                 errors: [.emptyValue]),
            // Optional bannerDescription and ctaText.
            Case(rule: "bannerDescription given", text: cta + ",bannerDescription=Up to 50% off", format: "custom_cta"),
            Case(rule: "ctaText given", text: cta + ",ctaText=Shop now", format: "custom_cta"),
            Case(rule: "ctaText blank", text: cta + ",ctaText=", format: "custom_cta", warnings: [.blankValue]),
            // Carousel: banner, icon, title, description.
            Case(rule: "carousel_banner missing", text: r(carousel, "carousel_banner=https://cdn.example.com/banner.png,", ""),
                 format: "carousel", errors: [.missingKey]),
            Case(rule: "carousel_banner ftp:", text: r(carousel, "https://cdn.example.com/banner.png", "ftp://cdn.example.com/b.png"),
                 format: "carousel", errors: [.urlSchemeNotAllowed]),
            Case(rule: "brand_icon missing", text: r(carousel, "brand_icon=https://cdn.example.com/brand.png,", ""),
                 format: "carousel", errors: [.missingKey]),
            Case(rule: "brand_icon bad port", text: r(carousel, "cdn.example.com/brand", "cdn.example.com:99999/brand"),
                 format: "carousel", errors: [.invalidURL]),
            Case(rule: "carousel_title empty", text: r(carousel, "New season", ""), format: "carousel", errors: [.emptyValue]),
            Case(rule: "carousel_title missing", text: r(carousel, "carousel_title=New season,", ""), format: "carousel",
                 errors: [.missingKey]),
            Case(rule: "carousel_description empty is allowed", text: r(carousel, "Fresh looks", ""), format: "carousel"),
            Case(rule: "carousel_description missing", text: r(carousel, "carousel_description=Fresh looks,", ""),
                 format: "carousel", errors: [.missingKey]),
            // carousel_images.
            Case(rule: "carousel_images missing", text: r(carousel, "," + images2, ""), format: "carousel",
                 errors: [.missingKey]),
            Case(rule: "20 images", text: r(carousel, images2, "carousel_images=" + images(20)), format: "carousel"),
            Case(rule: "21 images", text: r(carousel, images2, "carousel_images=" + images(21)), format: "carousel",
                 errors: [.tooManyImages]),
            Case(rule: "unusable entries are skipped", text: r(carousel, "$https://cdn.example.com/2.png", "$javascript:x$$nope"),
                 format: "carousel", warnings: [.unusableImage, .unusableImage, .unusableImage]),
            Case(rule: "no usable image", text: r(carousel, images2, "carousel_images=data:x$ftp://a.example/1.png"),
                 format: "carousel", errors: [.noUsableImage], warnings: [.unusableImage, .unusableImage]),
            // carousel_images_urls.
            Case(rule: "destinations by position, blank is none",
                 text: carousel + ",carousel_images_urls=$https://shop.example.com/2", format: "carousel"),
            Case(rule: "more destinations than images",
                 text: carousel + ",carousel_images_urls=https://a.example$https://b.example$https://c.example",
                 format: "carousel", warnings: [.extraDestinations]),
            Case(rule: "a destination that is not a URL", text: carousel + ",carousel_images_urls=not a url$",
                 format: "carousel", warnings: [.unusableDestination]),
            // carousel_cta_text and carousel_cta_url.
            Case(rule: "CTA pair", text: carousel + ",carousel_cta_text=Shop,carousel_cta_url=https://shop.example.com",
                 format: "carousel"),
            Case(rule: "CTA text without its URL", text: carousel + ",carousel_cta_text=Shop", format: "carousel",
                 errors: [.unpairedCTA]),
            Case(rule: "CTA URL without its text", text: carousel + ",carousel_cta_url=https://shop.example.com",
                 format: "carousel", errors: [.unpairedCTA]),
            Case(rule: "CTA URL javascript:", text: carousel + ",carousel_cta_text=Shop,carousel_cta_url=javascript:go()",
                 format: "carousel", errors: [.urlSchemeNotAllowed]),
            // Both formats: campaign aliases, schema version, unknown keys.
            Case(rule: "campaign", text: cta + ",campaign=Spring", format: "custom_cta"),
            Case(rule: "campaign name", text: carousel + ",campaign name=Spring", format: "carousel"),
            Case(rule: "campaign aliases equal", text: cta + ",campaign=Spring,campaign name=Spring", format: "custom_cta"),
            Case(rule: "campaign aliases differ", text: carousel + ",campaign=Spring,campaign name=Fall", format: "carousel",
                 errors: [.aliasMismatch]),
            Case(rule: "schema version 1", text: cta + ",companion_schema_version=1", format: "custom_cta"),
            Case(rule: "schema version 2", text: carousel + ",companion_schema_version=2", format: "carousel",
                 errors: [.unsupportedSchemaVersion]),
            Case(rule: "schema version 1.0", text: cta + ",companion_schema_version=1.0", format: "custom_cta",
                 errors: [.unsupportedSchemaVersion]),
            Case(rule: "unknown key near a known one", text: cta + ",bannerDescriptoin=x", format: "custom_cta",
                 warnings: [.unknownKey]),
            Case(rule: "a carousel key in a custom CTA", text: cta + ",carousel_title=x", format: "custom_cta",
                 warnings: [.keyNotUsed]),
            // Takeover metadata.
            Case(rule: "in-video webview", text: "ad_type=webview,campaign=Spring,Image_url=https://ads.example.com/page?x=1",
                 kind: .takeover, format: "in_video"),
            Case(rule: "webview without campaign", text: "ad_type=webview,Image_url=https://ads.example.com/page",
                 kind: .takeover, format: "in_video", errors: [.missingKey]),
            Case(rule: "webview page over http", text: "ad_type=webview,campaign=Spring,Image_url=http://ads.example.com/page",
                 kind: .takeover, format: "in_video", errors: [.urlSchemeNotAllowed]),
            Case(rule: "webview without Image_url", text: "ad_type=webview,campaign=Spring", kind: .takeover,
                 format: "in_video", errors: [.missingKey]),
            Case(rule: "contextual takeoverAds", text: "ad_type=takeoverAds,Takeover_ads_url=https://ads.example.com/t",
                 kind: .takeover, format: "contextual"),
            Case(rule: "takeoverAds without its URL", text: "ad_type=takeoverAds", kind: .takeover, format: "contextual",
                 errors: [.missingKey]),
            Case(rule: "ads under a tab", text: tab, kind: .takeover, format: "ads_under_a_tab"),
            Case(rule: "ads under a tab without advertiser_name", text: r(tab, ",advertiser_name=Acme", ""), kind: .takeover,
                 format: "ads_under_a_tab", errors: [.missingKey]),
            Case(rule: "takeover of no known type", text: "ad_type=carousel,campaign=x", kind: .takeover, format: nil,
                 errors: [.unknownFormat]),
            Case(rule: "takeover duplicate key", text: "ad_type=webview,campaign=a,campaign=b,Image_url=https://a.example",
                 kind: .takeover, format: "in_video", errors: [.duplicateKey]),
            Case(rule: "companion alias in a takeover", text: "ad_type=webview,campaign name=a,Image_url=https://a.example",
                 kind: .takeover, format: "in_video", errors: [.missingKey], warnings: [.unknownKey]),
        ]
    }()

    func testEveryRuleByTable() {
        XCTAssertGreaterThanOrEqual(Self.cases.count, 40)
        for item in Self.cases {
            let report = CompanionLint.lint(Array(item.text.utf8), kind: item.kind)
            let context = "\(item.rule): \(report.json.serialized())"
            XCTAssertEqual(report.format, item.format, context)
            XCTAssertEqual(report.errors.map(\.code), item.errors, context)
            XCTAssertEqual(report.warnings.map(\.code), item.warnings, context)
            XCTAssertEqual(report.valid, item.errors.isEmpty, context)
        }
    }

    /// Every rule the table covers has an accepted and a rejected case (by the case's rule prefix).
    func testTableHasBothVerdicts() {
        XCTAssertTrue(Self.cases.contains { $0.errors.isEmpty && $0.kind == .companion })
        XCTAssertTrue(Self.cases.contains { $0.errors.isEmpty && $0.kind == .takeover })
        let rejectedCodes = Set(Self.cases.flatMap(\.errors))
        for code in LintCode.allCases where !code.isWarning && ![.inputTooLarge, .emptyInput, .nulCharacter,
                                                                  .invalidUTF8].contains(code) {
            XCTAssertTrue(rejectedCodes.contains(code), "no case rejects with \(code.rawValue)")
        }
    }

    func testFieldsAreNormalised() throws {
        let text = Self.replacing(Self.cta, "icon=", "Icon=") + "?a=b&c=d,campaign name=Spring,bannerTitle2=x"
        let report = CompanionLint.lint(Array(text.utf8))
        XCTAssertEqual(report.json.serialized(), """
            {"valid":true,"format":"custom_cta","fields":{"icon":"https://cdn.example.com/icon.png",\
            "bannerTitle":"Summer sale","ctaUrl":"https://shop.example.com/buy?a=b&c=d","ctaText":"Learn more",\
            "campaign":"Spring"},"errors":[],"warnings":[{"code":"unknown_key","key":"bannerTitle2","segment":5,\
            "index":null,"message":"'bannerTitle2' is not a known key; it is ignored. Did you mean bannerTitle? \
            Keys are case-sensitive"}]}
            """)
        let carousel = CompanionLint.lint(Array((Self.carousel + ",carousel_images_urls=$https://shop.example.com/2?a=b").utf8))
        XCTAssertEqual(carousel.field("carousel_images"),
                       .array([.string("https://cdn.example.com/1.png"), .string("https://cdn.example.com/2.png")]))
        XCTAssertEqual(carousel.field("carousel_images_urls"), .array([.string(""), .string("https://shop.example.com/2?a=b")]))
        XCTAssertEqual(carousel.field("carousel_description"), .string("Fresh looks"))
        XCTAssertEqual(CompanionLint.lint(Array((Self.cta + ",ctaText=Go").utf8)).field("ctaText"), .string("Go"))
    }

    func testMessagesSayWhereAndWhat() throws {
        let report = CompanionLint.lint(Array((Self.replacing(Self.cta, "bannerTitle", "bannertitle") + ",,promo").utf8))
        let missing = try XCTUnwrap(report.errors.first { $0.code == .missingKey })
        XCTAssertEqual(missing.key, "bannerTitle")
        XCTAssertTrue(missing.message.contains("'bannertitle' in segment 2 looks like it"), missing.message)
        let unknown = try XCTUnwrap(report.warnings.first { $0.code == .unknownKey })
        XCTAssertTrue(unknown.message.hasSuffix("Did you mean bannerTitle? Keys are case-sensitive"), unknown.message)
        XCTAssertEqual(report.errors.filter { $0.code == .malformedSegment }.map(\.segment), [4, 5])
        let images = CompanionLint.lint(Array(Self.replacing(Self.carousel, "$https", "$javascript:x$https").utf8))
        XCTAssertEqual(images.warnings.map(\.index), [2])
        XCTAssertTrue(images.warnings[0].message.contains("the SDK skips it"))
        let takeover = CompanionLint.lint(Array("ad_type=webview,campaign=x".utf8))
        XCTAssertTrue(takeover.errors[0].message.contains("--takeover"), takeover.errors[0].message)
    }

    // MARK: Hostile text

    func testInputProblemsHaveTheirCodes() {
        func codes(_ bytes: [UInt8]) -> [LintCode] { CompanionLint.lint(bytes).errors.map(\.code) }
        XCTAssertEqual(codes([]), [.emptyInput])
        XCTAssertEqual(codes(Array("\n".utf8)), [.emptyInput])
        XCTAssertEqual(codes(Array("icon=a\0b".utf8)), [.nulCharacter])
        XCTAssertEqual(codes(Array("bannerTitle=".utf8) + [0xC3, 0x28]), [.invalidUTF8])
        XCTAssertEqual(codes(Array("bannerTitle=".utf8) + [0xED, 0xA0, 0x80]), [.invalidUTF8])  // a surrogate
        XCTAssertEqual(codes([UInt8](repeating: UInt8(ascii: ","), count: 1_000_000)), [.inputTooLarge])
        XCTAssertEqual(codes(Array(("ctaUrl=https://a.example/" + String(repeating: "a", count: 1 << 20)).utf8)),
                       [.inputTooLarge])
        XCTAssertEqual(codes(Array((Self.cta + "\r\n").utf8)), [])
        XCTAssertEqual(CompanionLint.lint(Array((Self.cta + "\n").utf8)).field("ctaUrl"), .string("https://shop.example.com/buy"))
    }

    func testLongButLegalInputs() throws {
        // 65,536 bytes of commas: 65,537 empty segments, reported as 100 and a count.
        let commas = CompanionLint.lint([UInt8](repeating: UInt8(ascii: ","), count: TraffickingInput.maxBytes))
        XCTAssertEqual(commas.errors.count, 65_537 + 1)  // malformed segments + unknown_format
        let listed = commas.listedErrors
        XCTAssertEqual(listed.count, CompanionLintReport.maxListed + 1)
        XCTAssertEqual(listed.last?.code, .tooManyProblems)
        XCTAssertTrue(listed.last?.message.hasPrefix("65438 more errors are not listed") ?? false)
        // One URL of nearly 64 KiB is a valid destination.
        let longURL = "https://shop.example.com/" + String(repeating: "a", count: TraffickingInput.maxBytes - 200)
        let long = CompanionLint.lint(Array(Self.replacing(Self.cta, "https://shop.example.com/buy", longURL).utf8))
        XCTAssertTrue(long.valid)
        XCTAssertEqual(long.field("ctaUrl"), .string(longURL))
        // Thousands of unknown long keys, and thousands of '$'.
        let keys = (0..<3000).map { "k\($0)\(String(repeating: "x", count: 10))=v" }.joined(separator: ",")
        XCTAssertEqual(CompanionLint.lint(Array((Self.cta + "," + keys).utf8)).warnings.count, 3000)
        let dollars = Self.replacing(Self.carousel, "2.png", "2.png" + String(repeating: "$", count: 60_000))
        let many = CompanionLint.lint(Array(dollars.utf8))
        XCTAssertEqual(many.errors.map(\.code), [.tooManyImages])
        XCTAssertEqual(many.listedWarnings.count, CompanionLintReport.maxListed + 1)
        // A key of 60,000 letters is compared by length only.
        let hugeKey = CompanionLint.lint(Array((Self.cta + "," + String(repeating: "b", count: 60_000) + "=1").utf8))
        XCTAssertEqual(hugeKey.warnings.map(\.code), [.unknownKey])
        XCTAssertLessThan(hugeKey.warnings[0].message.count, 200)
    }

    /// Random texts built from the pieces the rules care about: the linter never traps, and its
    /// reports keep their invariants (seeded, so a failure repeats).
    func testRandomTextsKeepTheReportsInvariants() {
        let pieces = [",", "=", "$", "icon", "Icon", "bannerTitle", "ctaUrl", "ad_type", "carousel", "carousel_images",
                      "campaign", "campaign name", "https://", "http://a.example", "javascript:", "%", "%4", "[", "]",
                      ":", "@", "/", "?", "#", " ", "\t", "é", "\u{85}", "\u{7f}", "Image_url", "takeoverAds", "webview"]
        var state: UInt64 = 20_240_601
        func next(_ bound: Int) -> Int {
            state = state &* 6_364_136_223_846_793_005 &+ 1_442_695_040_888_963_407
            return Int((state >> 33) % UInt64(bound))
        }
        for _ in 0..<3000 {
            var text = ""
            for _ in 0..<next(40) { text += pieces[next(pieces.count)] }
            for kind in CompanionLint.Kind.allCases {
                let report = CompanionLint.lint(Array(text.utf8), kind: kind)
                XCTAssertEqual(report.valid, report.errors.isEmpty)
                XCTAssertTrue(report.errors.allSatisfy { !$0.code.isWarning }, text)
                XCTAssertTrue(report.warnings.allSatisfy(\.code.isWarning), text)
                let segments = TraffickingParameters(text).segmentCount
                XCTAssertTrue((report.errors + report.warnings).allSatisfy { ($0.segment ?? 1) <= segments }, text)
                if !TraffickingParameters(text).duplicates.isEmpty { XCTAssertTrue(report.has(.duplicateKey), text) }
                XCTAssertFalse(report.json.serialized().isEmpty)
            }
        }
    }
}
