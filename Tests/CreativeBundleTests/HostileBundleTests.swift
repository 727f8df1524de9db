import CreativeBundle
import CreativeCore
import CreativeImaging
import CreativeTestSupport
import XCTest

/// Bundles made to cost time: attributes that gumbo checks against each other, a deadline the
/// check must honour, and images that add up to more decoding than a bundle may ask for.
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

    func testFormattingElementsLeftOpenBeforeManyTagsAreNotParsed() throws {
        // 300 <b> left open (each unlike the others, or the parser would keep only three), then
        // 2,000 paragraphs: the parser would re-create the 300 in each, 600,000 elements.
        let body = "<p>" + (0..<300).map { "<b id=b\($0)>" }.joined() + "</p>" + String(repeating: "<p>x</p>", count: 2_000)
        let report = validate(try BundleCorpus.clean(html: BundleCorpus.html(body: body)))
        XCTAssertEqual(report.errors.map(\.code), [.tooManyElements], summary(report))
        XCTAssertTrue(report.errors.first?.message.contains("formatting tags") ?? false, summary(report))
    }

    // MARK: The deadline

    func testAPassedDeadlineStopsTheBundleCheckWithOneTimeout() throws {
        // Without a deadline this bundle has a missing file; with one that has passed, the check
        // stops before it reads the files, with one `timeout` and nothing else.
        let zip = try BundleCorpus.clean(html: BundleCorpus.html(body: "<img src=\"images/gone.png\">"))
            .adding("images/extra.png", try BundleCorpus.png(64, 64))
        XCTAssertEqual(validate(zip).errors.map(\.code), [.missingFile])
        let expired = validate(zip, limits: ValidationLimits(job: JobLimits(timeout: 0)))
        XCTAssertEqual(expired.errors.map(\.code), [.timeout], summary(expired))
        XCTAssertFalse(expired.valid)
        let cancellation = Cancellation()
        cancellation.cancel(reason: "client_gone")
        let cancelled = validate(zip, limits: ValidationLimits(job: JobLimits(cancellation: cancellation)))
        XCTAssertEqual(cancelled.errors.map(\.code), [.timeout], summary(cancelled))
    }

    func testTheDeadlineIsAskedBetweenEntriesAndFilesAndAroundEachImage() throws {
        let bytes = try BundleCorpus.clean().bytes()
        let start = ValidationReport(file: "ad.zip", product: .defaultProduct)
        func run(expiringAt call: Int) -> (BundleInspection, checked: [String], asked: Int) {
            var asked = 0
            var checked: [String] = []
            let inspection = BundleValidator.inspect(bytes, report: start, isExpired: {
                asked += 1
                return asked >= call
            }, decodedSize: { _ in 1 }) { _, name, _ in
                checked.append(name)
                return ValidationReport(file: name, product: .defaultProduct)
            }
            return (inspection, checked, asked)
        }
        let whole = run(expiringAt: .max)
        XCTAssertTrue(whole.0.report.valid, summary(whole.0.report))
        XCTAssertEqual(whole.checked, ["images/logo.png", "images/logo@2x.png", "static.png"])
        // 7 entries read, 7 files checked, 3 images each asked before and after.
        XCTAssertEqual(whole.asked, 7 + 7 + 3 * 2)
        for call in 1...whole.asked {
            let stopped = run(expiringAt: call)
            XCTAssertEqual(stopped.asked, call, "the check stops at the first expired answer")
            XCTAssertEqual(stopped.0.report.errors.map(\.code).filter { $0 == .timeout }, [.timeout])
            XCTAssertEqual(stopped.0.report.errors.last?.code, .timeout)
            XCTAssertNil(stopped.0.staticImage)
            XCTAssertEqual(stopped.checked.count, max(0, (call - 14) / 2), "images checked before call \(call)")
        }
    }

    // MARK: Decoding the images

    func testImagesOverTheBundlesDecodeBudgetAreNotDecoded() throws {
        // Six 2000x2000 RGB images: 12,000,000 bytes of samples each, 72 MB in all, over 64 MiB.
        let big = try BundleCorpus.png(2000, 2000)
        var zip = try BundleCorpus.clean()
        for index in 0..<6 { zip = zip.adding("images/big\(index).png", big, .stored) }
        let report = validate(zip)
        XCTAssertEqual(report.errors.map(\.code), [.tooManyPixels], summary(report))
        XCTAssertTrue(report.errors.first?.message.hasPrefix("images/big5.png: decoded, it would bring the bundle's "
                                                             + "images to 72") ?? false, summary(report))
        // Five fit.
        var five = try BundleCorpus.clean()
        for index in 0..<5 { five = five.adding("images/big\(index).png", big, .stored) }
        XCTAssertEqual(validate(five).errors.map(\.code), [])
    }

    func testTheImageThatTipsTheBudgetIsNamedAndNoImageAfterItIsDecoded() throws {
        var checked: [String] = []
        let overHalf = BundleImageLimits.maxTotalDecodedBytes / 2 + 1
        let inspection = BundleValidator.inspect(try BundleCorpus.clean().bytes(), report: ValidationReport(file: "ad.zip", product: .banner),
                                                 isExpired: { false }, decodedSize: { _ in overHalf }) { _, name, _ in
            checked.append(name)
            return ValidationReport(file: name, product: .banner)
        }
        XCTAssertEqual(checked, ["images/logo.png"])
        XCTAssertEqual(inspection.report.errors.map(\.code), [.tooManyPixels], summary(inspection.report))
        XCTAssertTrue(inspection.report.errors.first?.message.hasPrefix("images/logo@2x.png: ") ?? false,
                      summary(inspection.report))
        XCTAssertNil(inspection.staticImage)
    }
}
