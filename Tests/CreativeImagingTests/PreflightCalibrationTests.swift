import CreativeCore
import CreativeTestSupport
import Foundation
@testable import CreativeImaging
import XCTest

/// The calibration corpus through the whole validator: the confusion matrix of each pre-flight
/// warning (printed; docs/validation.md, "Pre-flight checks", shows it), no false positive on the clean set,
/// recall of at least 0.9 on the bad cases.
final class PreflightCalibrationTests: XCTestCase {
    func testConfusionMatrixMeetsTheTargets() throws {
        let cases = try PreflightCorpus.cases()
        var found: [String: Set<ValidationCode>] = [:]
        for item in cases {
            let report = Validator.validate(item.png, fileName: "\(item.name).png")
            XCTAssertTrue(report.valid, "\(item.name): \(report.errors)")
            XCTAssertTrue(report.decoded, item.name)
            found[item.name] = Set(report.warnings.map(\.code)).intersection(PreflightCorpus.warnings)
            for warning in report.warnings where PreflightCorpus.warnings.contains(warning.code) {
                print("preflight: \(item.name): \(warning.code.rawValue): \(warning.message)")
            }
        }
        print("preflight confusion matrix (\(cases.count) cases: \(cases.count - TestArtwork.sizes.count) generated, "
              + "the \(TestArtwork.sizes.count) public test PNGs):")
        print("| warning | true pos. | false neg. | false pos. | true neg. | recall | false pos. on clean set |")
        print("|---|---|---|---|---|---|---|")
        for warning in PreflightCorpus.warnings {
            var truePositive = 0, falseNegative = 0, falsePositive = 0, trueNegative = 0, cleanFalse = 0
            for item in cases {
                let expected = item.expected.contains(warning), got = found[item.name]?.contains(warning) ?? false
                switch (expected, got) {
                case (true, true): truePositive += 1
                case (true, false): falseNegative += 1
                case (false, true):
                    falsePositive += 1
                    if item.group == "clean" { cleanFalse += 1 }
                case (false, false): trueNegative += 1
                }
                XCTAssertFalse(item.group == "clean" && got, "\(item.name): false \(warning.rawValue)")
            }
            let recall = Double(truePositive) / Double(max(1, truePositive + falseNegative))
            print("| `\(warning.rawValue)` | \(truePositive) | \(falseNegative) | \(falsePositive) | \(trueNegative) | "
                  + "\(String(format: "%.2f", recall)) | \(cleanFalse) |")
            XCTAssertGreaterThanOrEqual(recall, 0.9, warning.rawValue)
            XCTAssertGreaterThan(truePositive, 0, warning.rawValue)
        }
        for item in cases {
            let missed = item.expected.subtracting(found[item.name] ?? [])
            let extra = (found[item.name] ?? []).subtracting(item.expected)
            if !missed.isEmpty || !extra.isEmpty {
                print("preflight: \(item.name): missed \(missed.map(\.rawValue).sorted()), extra \(extra.map(\.rawValue).sorted())")
            }
        }
    }
}
