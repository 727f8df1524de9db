import CreativeCore
import CreativeTestSupport
import XCTest

/// ``ICCProfileProbe`` on profiles built byte by byte: the stage bomb of "Hostile input, part 4"
/// (a `multiProcessElements` tag whose stages all share one matrix, 8 bytes a stage), the limits
/// at their edges, and tag tables that lie.
final class ICCProfileProbeTests: XCTestCase {
    private func be(_ value: Int, _ count: Int) -> [UInt8] { (0..<count).reversed().map { UInt8((value >> ($0 * 8)) & 0xFF) } }

    /// A profile: the 128-byte header (declared size, `acsp`), a tag table, then the tags' data.
    /// `entries` override the table (name, offset, size) when given.
    private func profile(tags: [(String, [UInt8])], entries: [(String, Int, Int)]? = nil, magic: String = "acsp") -> [UInt8] {
        let tableEnd = 132 + tags.count * 12
        var data: [UInt8] = [], table: [(String, Int, Int)] = []
        for (name, bytes) in tags {
            table.append((name, tableEnd + data.count, bytes.count))
            data += bytes + Array(repeating: 0, count: (4 - bytes.count % 4) % 4)
        }
        var header = Array(repeating: UInt8(0), count: 128)
        header.replaceSubrange(36..<40, with: Array(magic.utf8))
        var bytes = header + be((entries ?? table).count, 4)
        for (name, offset, size) in entries ?? table { bytes += Array(name.utf8) + be(offset, 4) + be(size, 4) }
        bytes += data
        bytes.replaceSubrange(0..<4, with: be(bytes.count, 4))
        return bytes
    }

    /// A 3x3 matrix element of a `multiProcessElements` tag: 12 bytes of header, 12 floats.
    private var matrixElement: [UInt8] { Array("matf".utf8) + be(0, 4) + be(3, 2) + be(3, 2) + Array(repeating: 0, count: 48) }

    /// `multiProcessElements` with `stages` stages, every one pointing at the same matrix.
    private func sharedStages(_ stages: Int) -> [UInt8] {
        let element = 16 + stages * 8
        var tag = Array("mpet".utf8) + be(0, 4) + be(3, 2) + be(3, 2) + be(stages, 4)
        for _ in 0..<stages { tag += be(element, 4) + be(matrixElement.count, 4) }
        return tag + matrixElement
    }

    private func refusal(_ profile: [UInt8]) -> String? {
        if case .refused(let reason) = ICCProfileProbe.verdict(profile) { return reason }
        return nil
    }

    func testTwentyThousandSharedStagesIn160KBAreRefused() {
        let bomb = profile(tags: [("D2B0", sharedStages(20_000))])
        XCTAssertLessThan(bomb.count, 170_000)
        XCTAssertEqual(refusal(bomb), "has a 'D2B0' pipeline of 20000 stages, over the limit of 32")
    }

    func testStagesUpToTheLimitAreCountedAndOneMoreIsRefused() {
        XCTAssertEqual(ICCProfileProbe.verdict(profile(tags: [("D2B0", sharedStages(32))])),
                       .bounded(ICCProfileProbe.Census(tags: 1, stages: 32)))
        XCTAssertEqual(refusal(profile(tags: [("D2B0", sharedStages(33))])),
                       "has a 'D2B0' pipeline of 33 stages, over the limit of 32")
        // Many tags each under the limit: the total is capped too.
        let many = (0..<9).map { ("D2B\($0)", sharedStages(32)) }
        XCTAssertEqual(refusal(profile(tags: many)), "has pipelines of 288 stages in all, over the limit of 256")
    }

    func testTagsSharingDataAreCountedOnceAndPartOverlapsAreRefused() {
        let single = profile(tags: [("D2B0", sharedStages(20))])
        let offset = 132 + 12, size = sharedStages(20).count
        // Two entries, one tag's data (what real profiles do for A2B0 and A2B1): 20 stages, not 40.
        let shared = profile(tags: [("D2B0", sharedStages(20))], entries: [("D2B0", offset + 12, size), ("D2B1", offset + 12, size)])
        XCTAssertEqual(ICCProfileProbe.verdict(shared), .bounded(ICCProfileProbe.Census(tags: 2, stages: 20)))
        XCTAssertEqual(ICCProfileProbe.verdict(single), .bounded(ICCProfileProbe.Census(tags: 1, stages: 20)))
        let overlapping = profile(tags: [("D2B0", sharedStages(20))],
                                  entries: [("D2B0", offset + 12, size), ("D2B1", offset + 16, size - 4)])
        XCTAssertEqual(refusal(overlapping), "has tags that overlap ('D2B1')")
        // Tags that hold no pipeline may overlap (libvips 8.14's Display P3: a 'desc' over 'cprt').
        let text = Array("text".utf8) + be(0, 4) + Array("Public Domain".utf8) + [0, 0, 0]
        let sloppy = profile(tags: [("desc", text)], entries: [("desc", offset + 12, text.count), ("cprt", offset + 20, text.count - 8)])
        XCTAssertEqual(ICCProfileProbe.verdict(sloppy), .bounded(ICCProfileProbe.Census(tags: 2, stages: 0)))
    }

    func testTagTablesThatLieAreRefused() {
        let outside = profile(tags: [("rTRC", Array("curv".utf8) + be(0, 4) + be(0, 4))], entries: [("rTRC", 144, 1 << 20)])
        XCTAssertEqual(refusal(outside), "has tag 0 outside the profile's 156 bytes")
        let tooMany = profile(tags: [], entries: Array(repeating: ("rTRC", 0, 0), count: 101))
        XCTAssertEqual(refusal(tooMany), "lists 101 tags, over the limit of 100")
        XCTAssertEqual(refusal(profile(tags: [], magic: "xxxx")), "is not an ICC profile (no 'acsp' header)")
        let curve = Array("curv".utf8) + be(0, 4) + be(1000, 4) + be(0, 2)
        XCTAssertEqual(refusal(profile(tags: [("rTRC", curve)])), "has a 'rTRC' tag that has a curve longer than its data")
        // A stage count the data cannot hold is refused before any position is read.
        let cut = Array(sharedStages(10).prefix(40))
        XCTAssertEqual(refusal(profile(tags: [("D2B0", cut)])), "has a 'D2B0' tag that lists more stages than its data holds")
    }

    func testLookupTablesMustFitTheirTags() {
        // lut16: 3 inputs, 3 outputs, 33 grid points (107,811 bytes of table) in 100 bytes.
        var lut = Array("mft2".utf8) + be(0, 4) + [3, 3, 33, 0] + Array(repeating: 0, count: 36) + be(2, 2) + be(2, 2)
        lut += Array(repeating: 0, count: 48)
        XCTAssertEqual(refusal(profile(tags: [("A2B0", lut)])), "has a 'A2B0' tag that has tables longer than its data")
        // The same header with 2 grid points, and the tables' bytes there.
        var small = Array("mft2".utf8) + be(0, 4) + [3, 3, 2, 0] + Array(repeating: 0, count: 36) + be(2, 2) + be(2, 2)
        small += Array(repeating: 0, count: 3 * 2 * 2 + 8 * 3 * 2 + 3 * 2 * 2)
        XCTAssertEqual(ICCProfileProbe.verdict(profile(tags: [("A2B0", small)])), .bounded(ICCProfileProbe.Census(tags: 1, stages: 4)))
        // A lookup table of 9 inputs (each doubles its cost).
        let wide = Array("mft1".utf8) + be(0, 4) + [9, 3, 2, 0] + Array(repeating: 0, count: 36)
        XCTAssertEqual(refusal(profile(tags: [("A2B0", wide)])), "has a 'A2B0' tag that has 9 inputs and 3 outputs")
    }

    func testAProfileOverFourMebibytesIsRefusedUnread() {
        let big = profile(tags: [("zzzz", Array(repeating: 0, count: ICCProfileProbe.maxProfileBytes))])
        XCTAssertEqual(refusal(big), "has \(big.count) bytes, over the cap of \(ICCProfileProbe.maxProfileBytes)")
    }
}
