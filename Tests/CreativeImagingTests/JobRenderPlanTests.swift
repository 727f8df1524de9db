import CreativeCore
import CreativeTestSupport
@testable import CreativeImaging
import Synchronization
import XCTest

/// How `process` shares `auto`'s decision among its renders (``JobRenderPlan``), and the
/// memory gate its parallel pieces run within (``PieceGate``).
final class JobRenderPlanTests: XCTestCase {
    private let creative = PixelSize(width: 960, height: 150)

    private func decision(luma: Double, chroma: Double, recipe: AutoRecipe = .lossy(.webp, 40)) -> JobDecision? {
        var render = EncodedRender(bytes: [1], format: recipe.format, detail: recipe.detail, ssim: luma, recipe: recipe)
        render.score = PerceptualScore(luma: luma, chroma: chroma)
        return JobDecision(render, measuredOn: PixelSize(width: 640, height: 100))
    }

    private func placements() -> [Placement] {
        DevicePlan.assignments(for: creative, campaign: [], product: .banner).map(\.placement)
    }

    func testAWideDecisionIsWrittenIntoEveryRenderUnchecked() throws {
        let wide = try XCTUnwrap(decision(luma: 0.99, chroma: 0.98))
        XCTAssertTrue(wide.isWide)
        let all = Array(Set(placements()))
        let first = try XCTUnwrap(all.min { $0.content.area < $1.content.area })
        let plan = JobRenderPlan(all.filter { $0 != first }, creative: creative, first: wide, firstPlacement: first)
        XCTAssertEqual(plan.steps.count, all.count - 1)
        XCTAssertTrue(plan.steps.allSatisfy { !$0.checksClass })
    }

    func testAThinDecisionIsCheckedOncePerScaleClassSmallestFirst() throws {
        // Chroma 0.966 is 0.006 over its target: thin.
        let thin = try XCTUnwrap(decision(luma: 0.996, chroma: 0.966))
        XCTAssertFalse(thin.isWide)
        let all = Array(Set(placements()))
        let first = try XCTUnwrap(all.min { $0.content.area < $1.content.area })
        let rest = all.filter { $0 != first }
        let plan = JobRenderPlan(rest, creative: creative, first: thin, firstPlacement: first)
        let firstClass = JobRenderPlan.scaleClass(first.content, of: creative)
        let classes = Set(rest.map { JobRenderPlan.scaleClass($0.content, of: creative) })
        let checks = plan.steps.filter(\.checksClass)
        // One check per class but the first render's own, and every check before every other step.
        XCTAssertEqual(Set(checks.map(\.scaleClass)), classes.subtracting([firstClass]))
        XCTAssertEqual(checks.count, classes.subtracting([firstClass]).count)
        XCTAssertTrue(plan.steps.prefix(checks.count).allSatisfy(\.checksClass))
        XCTAssertGreaterThan(checks.count, 0, "the test artwork's renders span several scales")
        // Each check is its class's smallest canvas.
        for check in checks {
            let members = rest.filter { JobRenderPlan.scaleClass($0.content, of: creative) == check.scaleClass }
            XCTAssertEqual(check.placement.canvas.area, members.map(\.canvas.area).min(), "\(check)")
        }
        XCTAssertEqual(plan.steps.count, rest.count)
    }

    func testScaleClassesAreAQuarterOctaveWide() {
        XCTAssertEqual(JobRenderPlan.scaleClass(PixelSize(width: 960, height: 150), of: creative), 0)
        XCTAssertEqual(JobRenderPlan.scaleClass(PixelSize(width: 1920, height: 300), of: creative), 4)
        XCTAssertEqual(JobRenderPlan.scaleClass(PixelSize(width: 480, height: 75), of: creative), -4)
        XCTAssertEqual(JobRenderPlan.scaleClass(PixelSize(width: 1000, height: 156), of: creative), 0)
    }

    func testOnlyLosslessAndNearLosslessAreLeftToEachRender() {
        XCTAssertNil(decision(luma: 1, chroma: 1, recipe: .lossless))
        XCTAssertNil(decision(luma: 1, chroma: 1, recipe: .nearLossless(60)))
        XCTAssertNotNil(decision(luma: 1, chroma: 1, recipe: .flatPalette))
        XCTAssertNotNil(decision(luma: 0.98, chroma: 0.97, recipe: .jpegFullChroma(82)))
        // An unmeasured render (fitted to its weight budget) is never wide.
        let fitted = EncodedRender(bytes: [1], format: .webp, detail: "", ssim: nil, recipe: .lossy(.webp, 70))
        XCTAssertEqual(JobDecision(fitted, measuredOn: creative)?.isWide, false)
        // Far above the targets at a higher quality: checked at each scale, where a lower may do.
        XCTAssertEqual(decision(luma: 0.995, chroma: 0.994, recipe: .lossy(.webp, 97))?.isWide, false)
        XCTAssertEqual(decision(luma: 0.999, chroma: 0.999, recipe: .flatPalette)?.isWide, true)
    }

    /// A JPEG decision (made on a render whose content fills its canvas) is not written into a
    /// render with transparent bars: that render searches, and keeps its bars.
    func testAJPEGDecisionIsNotWrittenOverTransparentBars() throws {
        let photo = try Fixtures.photograph(960, 150, grain: 2).materialized()
        let renderer = JobRenderer(settings: ProcessSettings(), limits: JobLimits(), alpha: .bars)
        let jpeg = try XCTUnwrap(decision(luma: 0.99, chroma: 0.99, recipe: .lossy(.jpeg, 82)))
        let barred = Placement(source: creative, canvas: PixelSize(width: 750, height: 150))
        let written = try renderer.apply(jpeg, to: photo, at: barred)
        XCTAssertNotEqual(written.format, .jpeg, written.detail)
        let decoded = try ImageSource(bytes: written.bytes)
        XCTAssertEqual(decoded.displayedSize, barred.canvas)
        XCTAssertTrue(decoded.header.hasAlpha, "the bars stay transparent: \(written.detail)")
        // Where the content fills the canvas, the decision is written as it is.
        let filled = Placement(source: creative, canvas: PixelSize(width: 640, height: 100))
        let same = try renderer.apply(jpeg, to: photo, at: filled)
        XCTAssertTrue(same.detail.contains("as decided on the 640x100 render"), same.detail)
    }

    func testAClassWaitsForItsCheckAndAnUncheckedClassDoesNot() {
        let board = ClassDecisions([1, 2])
        XCTAssertNil(board.decision(for: 7), "a class with no check answers at once")
        let published = decision(luma: 0.99, chroma: 0.99)
        let seen = Mutex<[Bool]>([])
        DispatchQueue.concurrentPerform(iterations: 3) { index in
            if index == 0 {
                usleep(50_000)
                board.publish(published, for: 1)
            } else {
                let got = board.decision(for: 1)
                seen.withLock { $0.append(got?.recipe == .lossy(.webp, 40)) }
            }
        }
        XCTAssertEqual(seen.withLock { $0 }, [true, true])
        board.publish(nil, for: 2)
        XCTAssertNil(board.decision(for: 2))
        XCTAssertNil(board.decision(for: 2), "a decision is read again by every render of the class")
    }

    func testTheGateRunsPiecesSideBySideOnlyWhileTheyFit() throws {
        let gate = PieceGate(capacity: 100)
        let running = Mutex((now: 0, most: 0))
        @Sendable func piece(_ bytes: Int) throws(ImagingError) {
            try gate.run(holding: bytes) { () throws(ImagingError) in
                running.withLock { $0.now += bytes; $0.most = max($0.most, $0.now) }
                usleep(20_000)
                running.withLock { $0.now -= bytes }
            }
        }
        // 60 + 60 never together; 40 + 40 together; 500 (more than the whole) alone.
        for sizes in [[60, 60, 60], [40, 40, 40, 40], [500, 40]] {
            running.withLock { $0 = (0, 0) }
            let failed = Mutex(false)
            DispatchQueue.concurrentPerform(iterations: sizes.count) { index in
                do throws(ImagingError) { try piece(sizes[index]) } catch { failed.withLock { $0 = true } }
            }
            XCTAssertFalse(failed.withLock { $0 })
            let most = running.withLock { $0.most }
            switch sizes[0] {
            case 60: XCTAssertEqual(most, 60)
            case 40: XCTAssertEqual(most, 80)
            default: XCTAssertEqual(most, 500, "a piece charged over the whole runs alone")
            }
        }
    }
}
