import Foundation
import XCTest

/// `scripts/test-summary.sh` prints the suite's closing line from XCTest's own output; CI reads
/// that line, so it must take the overall counts, never one suite's.
final class TestSummaryTests: XCTestCase {
    private func summarize(_ log: String) throws -> (status: Int32, output: String) {
        let process = Process()
        process.executableURL = URL(fileURLWithPath: "/bin/bash")
        process.arguments = [Tool.packageRoot.appendingPathComponent("scripts/test-summary.sh").path]
        let input = Pipe(), output = Pipe()
        process.standardInput = input
        process.standardOutput = output
        process.standardError = FileHandle.nullDevice
        try process.run()
        input.fileHandleForWriting.write(Data(log.utf8))
        try input.fileHandleForWriting.close()
        let text = String(decoding: output.fileHandleForReading.readDataToEndOfFile(), as: UTF8.self)
        process.waitUntilExit()
        return (process.terminationStatus, text)
    }

    private func closingLine(_ log: String) throws -> String? {
        try summarize(log).output.split(separator: "\n").last.map(String.init)
    }

    func testTheOverallLineWinsOverTheLastSuitesLine() throws {
        let log = """
            Test Suite 'ParsingTests' passed at 2026-11-30 21:46:16.595
            \t Executed 9 tests, with 0 failures (0 unexpected) in 0.5 (0.5) seconds
            Test Suite 'debug.xctest' passed at 2026-11-30 21:46:19.787
            \t Executed 233 tests, with 1 test skipped and 0 failures (0 unexpected) in 30.7 (30.7) seconds
            Test Suite 'All tests' passed at 2026-11-30 21:46:19.787
            \t Executed 233 tests, with 1 test skipped and 0 failures (0 unexpected) in 30.7 (30.7) seconds

            """
        XCTAssertEqual(try closingLine(log), "tests: 232 passed, 0 failed, 1 skipped")
    }

    func testFailedTestCasesAreCountedNotFailedAssertions() throws {
        let log = """
            Test Case 'InputFormatTests.testDamage' started at 2026-11-30 21:46:16.400
            Test Case 'InputFormatTests.testDamage' failed (0.148 seconds)
            Test Case 'RenderTests.testBars' failed (0.010 seconds)
            Test Suite 'All tests' failed at 2026-11-30 21:46:19.787
            \t Executed 233 tests, with 2 tests skipped and 10 failures (0 unexpected) in 30.7 (30.7) seconds

            """
        XCTAssertEqual(try closingLine(log), "tests: 229 passed, 2 failed, 2 skipped")
    }

    func testSingularFormsAndNoSkips() throws {
        let one = "Test Suite 'All tests' passed at 2026-11-30 21:46:19.787\n\t Executed 1 test, with 0 failures (0 unexpected) in 0.1 (0.1) seconds\n"
        XCTAssertEqual(try closingLine(one), "tests: 1 passed, 0 failed, 0 skipped")
        let failure = "Test Case 'A.b' failed (0.1 seconds)\nTest Suite 'All tests' failed at 2026-11-30 21:46:19.787\n\t Executed 4 tests, with 1 failure (0 unexpected) in 0.1 (0.1) seconds\n"
        XCTAssertEqual(try closingLine(failure), "tests: 3 passed, 1 failed, 0 skipped")
    }

    /// A skip is never a silent pass: each skipped test is listed with its XCTSkip's reason,
    /// before the closing lines.
    func testEachSkipIsListedWithItsReason() throws {
        let log = """
            Test Case 'AutoFormatChoiceTests.testAVIF' started at 2026-11-30 21:46:16.400
            /src/Tests/CreativeImagingTests/AutoFormatChoiceTests.swift:98: AutoFormatChoiceTests.testAVIF : Test skipped - this libvips has no AV1 encoder: AVIF's charge cannot be checked
            Test Case 'AutoFormatChoiceTests.testAVIF' skipped (0.0 seconds)
            Test Case 'AutoFormatChoiceTests.testPlan' passed (0.1 seconds)
            Test Suite 'All tests' passed at 2026-11-30 21:46:19.787
            \t Executed 2 tests, with 1 test skipped and 0 failures (0 unexpected) in 0.1 (0.1) seconds

            """
        let lines = try summarize(log).output.split(separator: "\n").map(String.init)
        XCTAssertEqual(lines.first, "skipped: AutoFormatChoiceTests.testAVIF: this libvips has no AV1 encoder: AVIF's charge cannot be checked")
        XCTAssertEqual(lines.last, "tests: 1 passed, 0 failed, 1 skipped")
    }

    func testARunWithoutTheOverallLineFails() throws {
        // A crash mid-run leaves only suites' lines: no closing line may be made up from them.
        let crashed = "Test Suite 'ParsingTests' passed at 2026-11-30 21:46:16.595\n\t Executed 9 tests, with 0 failures (0 unexpected) in 0.5 (0.5) seconds\n"
        let result = try summarize(crashed)
        XCTAssertEqual(result.status, 1)
        XCTAssertFalse(result.output.contains("passed"), result.output)
    }
}
