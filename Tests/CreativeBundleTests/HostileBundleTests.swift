import CreativeBundle
import CreativeCore
import CreativeImaging
import CreativeTestSupport
import XCTest

/// Bundles made to cost time: attributes that gumbo checks against each other.
final class HostileBundleTests: XCTestCase {
    private func validate(_ zip: BundleZip, limits: ValidationLimits = ValidationLimits()) -> ValidationReport {
        Validator.validate(zip.bytes(), fileName: "hostile.zip", limits: limits)
    }

    private func summary(_ report: ValidationReport) -> String {
        report.errors.map { "\($0.code.rawValue): \($0.message)" }.joined(separator: "\n")
    }

    // MARK: Attributes

    func testOneElementWithThousandsOfAttributesIsNotParsed() throws {
        let attributes = (0..<5_000).map { "a\($0)" }.joined(separator: " ")
        let report = validate(try BundleCorpus.clean(html: BundleCorpus.html(body: "<div \(attributes)></div>")))
        XCTAssertEqual(report.errors.map(\.code), [.tooManyElements], summary(report))
        XCTAssertTrue(report.errors.first?.message.hasPrefix("index.html can give one element up to 5000 attributes, "
                                                             + "over the limit of 256 per element") ?? false, summary(report))
    }

    func testAttributesOverTheFileTotalAreNotParsed() throws {
        // 100 elements of 250 attributes: each under the per-element limit, 25,000 in all.
        let element = "<p " + (0..<250).map { "a\($0)" }.joined(separator: " ") + "></p>"
        let report = validate(try BundleCorpus.clean(html: BundleCorpus.html(body: String(repeating: element, count: 100))))
        XCTAssertEqual(report.errors.map(\.code), [.tooManyElements], summary(report))
        XCTAssertTrue(report.errors.first?.message.contains("over the limit of 20000 per file") ?? false, summary(report))
    }

    func testRepeatedHTMLTagsCountAsTheOneElementTheyMergeInto() throws {
        // gumbo adds the attributes of every <html> tag to the one html element, checking each.
        let tags = (0..<10).map { tag in "<html " + (0..<100).map { "t\(tag)a\($0)" }.joined(separator: " ") + ">" }
        let report = validate(try BundleCorpus.clean(html: BundleCorpus.html(body: tags.joined())))
        XCTAssertEqual(report.errors.map(\.code), [.tooManyElements], summary(report))
        XCTAssertTrue(report.errors.first?.message.contains("per element") ?? false, summary(report))
    }

    func testAttributesInsideAnIframeSrcdocAreCounted() throws {
        // Entity-encoded in the srcdoc value: the outer file shows no tag, the srcdoc document has it.
        let attributes = (0..<1_000).map { "a\($0)" }.joined(separator: " ")
        let body = "<iframe srcdoc=\"&lt;div \(attributes)&gt;&lt;/div&gt;\"></iframe>"
        let report = validate(try BundleCorpus.clean(html: BundleCorpus.html(body: body)))
        XCTAssertEqual(report.errors.map(\.code), [.tooManyElements], summary(report))
    }

    func testSrcdocNestedTooDeepIsNotParsed() throws {
        var document = "<p>deep</p>"
        for _ in 0..<5 {
            document = "<iframe srcdoc=\"" + document.replacingOccurrences(of: "&", with: "&amp;")
                .replacingOccurrences(of: "\"", with: "&quot;") + "\"></iframe>"
        }
        let report = validate(try BundleCorpus.clean(html: BundleCorpus.html(body: document)))
        XCTAssertEqual(report.errors.map(\.code), [.tooManyElements], summary(report))
        XCTAssertTrue(report.errors.first?.message.contains("nested more than 3 deep") ?? false, summary(report))
    }
}
