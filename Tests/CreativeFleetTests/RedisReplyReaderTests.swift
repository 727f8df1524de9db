import Foundation
import XCTest
@testable import CreativeFleet
#if canImport(Glibc)
import Glibc
#endif

/// The worker's own reply reader (``RedisReplyReader``), fed through a socket pair that keeps
/// message boundaries, so each read brings exactly the pieces written: lines and strings split
/// anywhere, and parts over the limits decided from their headers.
final class RedisReplyReaderTests: XCTestCase {
    /// Reads one reply written as `pieces` (each its own message) within `limits`.
    private func readReply(_ pieces: [[UInt8]], limits: ReplyLimits) throws -> (value: RedisValue, stopped: Bool) {
        var fds: [Int32] = [0, 0]
        XCTAssertEqual(socketpair(AF_UNIX, Int32(SOCK_SEQPACKET.rawValue), 0, &fds), 0)
        defer { close(fds[0]); close(fds[1]) }
        // At most 4 KiB a message: a message longer than the reader's read would be cut.
        for piece in pieces {
            for start in stride(from: 0, to: piece.count, by: 4096) {
                let part = Array(piece[start..<min(piece.count, start + 4096)])
                XCTAssertEqual(part.withUnsafeBytes { send(fds[1], $0.baseAddress, $0.count, 0) }, part.count)
            }
        }
        shutdown(fds[1], Int32(SHUT_WR))
        var reader = RedisReplyReader(fd: fds[0], limits: limits)
        let value = try reader.reply()
        return (value, reader.stopped)
    }

    private let loose = ReplyLimits(bulkBytes: 1 << 20, totalBytes: 1 << 20, elements: 1000)

    func testAReplySplitAtEveryByteIsReadWhole() throws {
        let bytes = Array("*4\r\n$6\r\nhel\nlo\r\n:42\r\n+OK\r\n*2\r\n$-1\r\n-ERR no\r\n".utf8)
        let answer = try readReply(bytes.map { [$0] }, limits: loose)
        XCTAssertEqual(answer.value, .array([.string(Array("hel\nlo".utf8)), .integer(42), .string(Array("OK".utf8)),
                                           .array([.null, .error("ERR no")])]))
        XCTAssertFalse(answer.stopped)
    }

    func testPartsOverTheLimitsAreDecidedFromTheirHeaders() throws {
        // The 64 MiB string is announced, never sent: the reader stops at its header.
        let entry = Array("*1\r\n*2\r\n$6\r\njobs:1\r\n*1\r\n*2\r\n$3\r\n1-0\r\n*4\r\n$6\r\nsource\r\n$4\r\ns3:x\r\n$2\r\nid\r\n$67108864\r\n".utf8)
        let limits = JobFieldLimits.readLimits(entries: 1)
        let answer = try readReply([entry], limits: limits)
        XCTAssertTrue(answer.stopped)
        guard let streams = answer.value.elements, let first = streams.first?.elements, first.count == 2 else {
            return XCTFail("\(answer.value)")
        }
        let entries = RedisConnection.entries(first[1])
        XCTAssertEqual(entries, [StreamEntry(id: "1-0", fields: [("source", "s3:x")],
                                             unread: "field 'id' has 67108864 bytes, over the limit of 4096")])
        // Too many fields, and strings within their own limit but over the entry's in all.
        let many = try readReply([Array("*1\r\n*2\r\n$3\r\n1-0\r\n*1000\r\n".utf8)], limits: limits)
        XCTAssertEqual(RedisConnection.entries(many.value), [StreamEntry(id: "1-0", fields: [],
                                                                         unread: "the job has 500 fields, over the limit of 32")])
        // Each `sources` within its own limit (17504), the fourth past the entry's bytes in all.
        let field = "$7\r\nsources\r\n$17000\r\n" + String(repeating: "s", count: 17000) + "\r\n"
        let wide = try readReply([Array(("*1\r\n*2\r\n$3\r\n1-0\r\n*8\r\n" + String(repeating: field, count: 4)).utf8)],
                            limits: limits)
        XCTAssertTrue(wide.stopped)
        let cut = try XCTUnwrap(RedisConnection.entries(wide.value).first)
        XCTAssertEqual(cut.fields.count, 3)
        XCTAssertEqual(cut.unread, "the job's fields have more than 24576 bytes in all, over the limit of 24576")
    }

    func testABrokenReplyFails() {
        XCTAssertThrowsError(try readReply([Array("$5\r\nhel".utf8)], limits: loose))
        XCTAssertThrowsError(try readReply([Array("?what\r\n".utf8)], limits: loose))
    }
}
