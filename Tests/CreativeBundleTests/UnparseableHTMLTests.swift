@testable import CreativeBundle
import CreativeCore
import CreativeImaging
import CreativeTestSupport
import Dispatch
import Foundation
import Glibc
import XCTest

/// HTML that Debian's gumbo 0.10.1 (built with its assertions) aborts on: each document is
/// parsed first in a child process, and what takes the child down is `unparseable_html`, never
/// the process checking it. These tests run in the test process: that it survives them is
/// part of what they show.
final class UnparseableHTMLTests: XCTestCase {
    /// Two inputs that fail an assertion of gumbo 0.10.1 (`handle_in_table`, `node_qualified_tag_is`).
    static let aborting = ["<table><svg><title><![CDATA[>]]>t", "<table><svg><select><title><select><caption>"]

    private func validate(_ zip: BundleZip, limits: ValidationLimits = ValidationLimits()) -> ValidationReport {
        Validator.validate(zip.bytes(), fileName: "ad.zip", limits: limits)
    }

    private func summary(_ report: ValidationReport) -> String {
        report.errors.map { "\($0.code.rawValue): \($0.message)" }.joined(separator: "\n")
    }

    func testHTMLThatAbortsGumboIsUnparseable() throws {
        for markup in Self.aborting {
            let report = validate(try BundleCorpus.clean(html: BundleCorpus.html(body: markup)))
            XCTAssertEqual(report.errors.map(\.code), [.unparseableHTML], summary(report))
            XCTAssertEqual(report.errors.first?.message, "index.html makes the HTML parser abort (it fails one of the "
                           + "parser's internal checks), so the file was not parsed and nothing in it was checked; "
                           + "fix its markup: an HTML validator shows its errors (misnested <table>, <svg> and "
                           + "<select> elements and CDATA sections are known causes)")
            XCTAssertFalse(report.valid)
            // Alone, as the whole file, too.
            let bare = validate(try BundleCorpus.clean(html: markup))
            XCTAssertEqual(bare.errors.map(\.code), [.unparseableHTML], summary(bare))
        }
    }

    func testAbortingMarkupInAnSVGOrAnIframeSrcdocIsUnparseable() throws {
        let svg = "<svg xmlns=\"http://www.w3.org/2000/svg\">\(Self.aborting[0])</svg>"
        let inSVG = validate(try BundleCorpus.clean().adding("images/badge.svg", text: svg))
        XCTAssertEqual(inSVG.errors.map(\.code), [.unparseableHTML], summary(inSVG))
        XCTAssertTrue(inSVG.errors.first?.message.hasPrefix("images/badge.svg makes the HTML parser abort") ?? false)
        // Entity-encoded in a srcdoc: the outer file parses, the document inside does not.
        let srcdoc = Self.aborting[1].replacingOccurrences(of: "<", with: "&lt;")
        let inSrcdoc = validate(try BundleCorpus.clean(html: BundleCorpus.html(
            body: "<img src=\"https://remote.example/x.png\"><iframe srcdoc=\"\(srcdoc)\"></iframe>")))
        // The file is rejected whole: not even the outer document's remote image is reported.
        XCTAssertEqual(inSrcdoc.errors.map(\.code), [.unparseableHTML], summary(inSrcdoc))
        XCTAssertTrue(inSrcdoc.errors.first?.message.hasPrefix("index.html has an <iframe srcdoc> document that "
                                                                + "makes the HTML parser abort") ?? false)
    }

    func testOtherFilesOfTheBundleAreStillChecked() throws {
        let zip = try BundleCorpus.clean()
            .adding("panel.html", text: "<img src=\"gone.png\">" + Self.aborting[0])
            .adding("second.html", text: "<img src=\"http://remote.example/y.png\">")
        let report = validate(zip)
        XCTAssertEqual(report.errors.map(\.code), [.unparseableHTML, .remoteResourceBlocked], summary(report))
    }

    func testANormalBundleStillValidates() throws {
        var zip = try BundleCorpus.clean(html: BundleCorpus.html(
            body: "<iframe srcdoc=\"&lt;img src=images/logo.png&gt;\"></iframe><table><tr><td>Sale</td></tr></table>"
                + "<svg><title>logo</title><rect width=\"10\" height=\"10\"/></svg><select><option>a</option></select>"))
        for index in 0..<5 { zip = zip.adding("panels/p\(index).html", text: "<p><a href=\"../index.html\">back</a></p>") }
        let report = validate(zip)
        XCTAssertTrue(report.valid, summary(report))
        XCTAssertEqual(report.errors, [])
        XCTAssertEqual(report.dimensions, PixelSize(width: 320, height: 50))
    }

    func testTheChildWritesNothing() throws {
        // gumbo's failed assertion prints to standard error: not from the child.
        let path = FileManager.default.temporaryDirectory.appendingPathComponent("probe-\(getpid()).txt").path
        let capture = open(path, O_RDWR | O_CREAT | O_TRUNC, 0o600)
        XCTAssertGreaterThanOrEqual(capture, 0)
        defer { close(capture); unlink(path) }
        let saved = dup(STDERR_FILENO)
        dup2(capture, STDERR_FILENO)
        let outcome = causes([Array(Self.aborting[0].utf8)])
        dup2(saved, STDERR_FILENO)
        close(saved)
        XCTAssertEqual(outcome, .success(["makes the HTML parser abort (it fails one of the parser's internal checks)"]))
        XCTAssertEqual(lseek(capture, 0, SEEK_END), 0)
    }

    func testEachDocumentGetsItsVerdictAndTheNextChildGoesOn() {
        let good = Array("<p>fine</p>".utf8)
        let bad = Self.aborting.map { Array($0.utf8) }
        let abort = "makes the HTML parser abort (it fails one of the parser's internal checks)"
        XCTAssertEqual(causes([good, bad[0], good, good, bad[1], good]), .success([nil, abort, nil, nil, abort, nil]))
        XCTAssertEqual(causes([bad[1], bad[0]]), .success([abort, abort]))
        XCTAssertEqual(causes([good, [], good]), .success([nil, nil, nil]))
        XCTAssertEqual(causes([]), .success([]))
    }

    // MARK: The child's limits

    /// One element with 40,000 attributes: about 6 s of gumbo, which the census keeps from it in
    /// a bundle; given to the child directly.
    private static let slow = Array(("<div " + (0..<40_000).map { "a\($0)" }.joined(separator: " ") + ">").utf8)

    func testAChildOverItsCPUTimeIsStopped() throws {
        // The child's CPU limit is what stops it (the cause says so); the next document still runs.
        let verdicts = try GumboProbe.check([Self.slow, Array("<p>next</p>".utf8)]) { false }
        XCTAssertEqual(verdicts.map { $0?.cause }, ["takes the HTML parser more than 2 s of CPU", nil])
        XCTAssertTrue(verdicts[0]?.advice.hasPrefix("simplify it, and fix its markup") ?? false)
    }

    func testAChildOverItsMemoryIsStopped() throws {
        // 1,000 <b> left open before 9,000 paragraphs: gumbo would copy 9 million elements, 3.4 GB.
        let document = Array(("<p>" + (0..<1_000).map { "<b id=b\($0)>" }.joined() + "</p>"
                              + String(repeating: "<p>x</p>", count: 9_000)).utf8)
        let verdicts = try GumboProbe.check([document]) { false }
        XCTAssertEqual(verdicts.first??.cause, "makes the HTML parser use more than 256 MiB of memory")
        XCTAssertEqual(verdicts.first??.advice, "simplify it")
    }

    func testTheDeadlineStopsAChildThatRuns() {
        // The deadline, asked while the child runs, stops it: the check ends with `expired` (not
        // the CPU limit's verdict) at the first ask that says so, and asks no more. No clock is
        // read: the behaviour, not the time, is what is checked.
        var asked = 0
        XCTAssertEqual(causes([Self.slow]) {
            asked += 1
            return asked > 3
        }, .failure(.expired))
        XCTAssertEqual(asked, 4)
    }

    func testTheDeadlineStillStopsTheCheck() throws {
        var zip = try BundleCorpus.clean()
        for index in 0..<10 { zip = zip.adding("panels/p\(index).html", text: Self.aborting[index % 2]) }
        let bytes = zip.bytes()
        let start = ValidationReport(file: "ad.zip", product: .defaultProduct)
        func run(expiringAt call: Int) -> (report: ValidationReport, asked: Int) {
            var asked = 0
            let inspection = BundleValidator.inspect(bytes, report: start, isExpired: {
                asked += 1
                return asked >= call
            }, decodedSize: { _ in 1 }) { _, name, _ in ValidationReport(file: name, product: .defaultProduct) }
            return (inspection.report, asked)
        }
        // Asked: 17 entries read (1-17), then before each file in name order: css/, fonts/,
        // images/ (18-21), index.html (22), where every HTML file is read: after each panel but
        // the last that ended a child, before the next child (23-31); then js/ (32), the panels
        // (33-42), static.png (43), and around the three images (44-49).
        let whole = run(expiringAt: .max)
        XCTAssertEqual(whole.asked, 49)
        XCTAssertEqual(whole.report.errors.map(\.code), Array(repeating: .unparseableHTML, count: 10), summary(whole.report))
        for call in 1...whole.asked {
            let stopped = run(expiringAt: call)
            XCTAssertEqual(stopped.asked, call, "the check stops at the first expired answer")
            let codes = stopped.report.errors.map(\.code)
            XCTAssertEqual(codes.last, .timeout, summary(stopped.report))
            XCTAssertEqual(codes.filter { $0 == .unparseableHTML }.count, max(0, min(10, call - 33)), "stopped at \(call)")
        }
        // Stopped while the HTML files are read: at index.html.
        XCTAssertTrue(run(expiringAt: 25).report.errors.last?.message.hasSuffix("(the bundle check was at index.html)")
                      ?? false)
    }

    func testProbesFromManyThreadsAtOnce() throws {
        let aborting = try BundleCorpus.clean(html: BundleCorpus.html(body: Self.aborting[0])).bytes()
        let clean = try BundleCorpus.clean().bytes()
        let results = Results()
        DispatchQueue.concurrentPerform(iterations: 16) { index in
            let report = Validator.validate(index % 2 == 0 ? aborting : clean, fileName: "ad.zip")
            results.add(index, report.errors.map(\.code))
        }
        for (index, codes) in results.all {
            XCTAssertEqual(codes, index % 2 == 0 ? [.unparseableHTML] : [], "validation \(index)")
        }
        XCTAssertEqual(results.all.count, 16)
    }

    /// The causes ``GumboProbe/check(_:isExpired:)`` gives, or its refusal.
    private func causes(_ documents: [[UInt8]], isExpired: () -> Bool = { false }) -> Result<[String?], HTMLRefusal> {
        do throws(HTMLRefusal) {
            return .success(try GumboProbe.check(documents, isExpired: isExpired).map { $0?.cause })
        } catch {
            return .failure(error)
        }
    }
}

private final class Results: @unchecked Sendable {
    private let lock = NSLock()
    private var codes: [Int: [ValidationCode]] = [:]

    func add(_ index: Int, _ value: [ValidationCode]) { lock.withLock { codes[index] = value } }
    var all: [(Int, [ValidationCode])] { lock.withLock { codes.sorted { $0.key < $1.key } } }
}
