import CMicroHTTPD
import CMicroHTTPDLoader
import CreativeImaging
import Foundation
import XCTest
#if canImport(Glibc)
import Glibc
#endif
@testable import CreativeService

/// A zip answer of `/v1/process` stays in memory while its client reads it (40 slow readers held
/// 682 MB against a 160 MiB budget that counted 68 MiB): it is charged against the process-wide
/// budget, taken over from the job's reservation, until libmicrohttpd frees it.
final class AnswerChargeTests: XCTestCase {
    /// The hold moves the answer's bytes out of the job's reservation: the job gives back only the
    /// rest, and the answer's bytes are given back when libmicrohttpd frees the response.
    func testAnAnswersHoldOutlivesItsJobUntilLibmicrohttpdFreesTheResponse() throws {
        XCTAssertEqual(creative_mhd_open(), 1, String(cString: creative_mhd_error()))
        let budget = MemoryBudget(capacity: 1000)
        XCTAssertTrue(budget.reserve(700, waitingUntil: 0))
        let reservation = JobReservation(budget: budget, bytes: 700)
        var response: OpaquePointer?
        do {
            let stream = BodyStream(parts: [Array(repeating: 1, count: 200), Array(repeating: 2, count: 400)],
                                    hold: reservation.answerHold)
            XCTAssertEqual(stream.hold?.bytes, 600)
            response = streamedResponse(stream)
        }
        XCTAssertNotNil(response)
        XCTAssertEqual(reservation.bytes, 100)
        reservation.releaseRest()
        XCTAssertEqual(budget.inUse, 600, "the answer is held after its job has ended")
        XCTAssertFalse(budget.reserve(401, waitingUntil: 0), "a job that does not fit beside the answer waits")
        MHD_destroy_response(response)
        XCTAssertEqual(budget.inUse, 0, "freed with the response")
        XCTAssertTrue(budget.reserve(1000, waitingUntil: 0))
    }

    /// An answer larger than what its job held takes the rest from the budget at once, even past
    /// the capacity (the bytes are in memory either way): jobs after it wait for them.
    func testAnAnswerLargerThanItsJobsReservationIsChargedWhole() {
        let budget = MemoryBudget(capacity: 1000)
        XCTAssertTrue(budget.reserve(300, waitingUntil: 0))
        let reservation = JobReservation(budget: budget, bytes: 300)
        XCTAssertTrue(budget.reserve(500, waitingUntil: 0), "another job")
        var hold: BudgetHold? = reservation.answerHold(900)
        reservation.releaseRest()
        XCTAssertEqual(budget.inUse, 1400)
        XCTAssertEqual(hold?.bytes, 900)
        hold = nil
        XCTAssertEqual(budget.inUse, 500)
    }

    /// Over a socket: a client that reads the answer's headers and nothing more leaves the
    /// answer charged (its bytes cannot all be sent: more than the kernel's largest send buffer
    /// and the client's small receive window hold); once the answer is freed (here: its client
    /// went away), everything is given back. The zip answer, and the JSON answer with the renders
    /// inline (a buffer, not a job's files, charged when it is sent).
    func testAnUnreadZipAnswerIsChargedUntilItIsFreed() throws {
        try checkUnreadAnswer(accept: "application/zip", type: "application/zip")
    }

    func testAnUnreadInlineJSONAnswerIsChargedUntilItIsFreed() throws {
        try checkUnreadAnswer(accept: "application/json", type: "application/json")
    }

    private func checkUnreadAnswer(accept: String, type: String, file: StaticString = #filePath,
                                   line: UInt = #line) throws {
        let server = try Fixture.server { $0.maxInlineFileBytes = 64 << 20 }
        defer { server.stop(grace: 5) }
        // Noise, lossless, with a weight budget that lets each render be as heavy as it is: 13 MB.
        let noise = try VipsOperation("gaussnoise").with("width", .int(960)).with("height", .int(150))
            .with("sigma", .double(60)).image()
        let grey = try VipsOperation("cast").with("in", .image(noise)).with("format", .enumeration("uchar")).image()
        let upload = try VipsOperation("pngsave_buffer").with("in", .image(grey)).bytes()
        let fd = HTTPClient.connectSocket(server.port)
        var closed = false
        defer { if !closed { close(fd) } }
        var small: Int32 = 4096
        setsockopt(fd, SOL_SOCKET, SO_RCVBUF, &small, socklen_t(MemoryLayout<Int32>.size))
        let head = "POST /v1/process?format=png&weight_budget=8M HTTP/1.1\r\nHost: localhost\r\n"
            + "Accept: \(accept)\r\nContent-Type: image/png\r\nContent-Length: \(upload.count)\r\n\r\n"
        HTTPClient.sendAll(fd, Array(head.utf8) + upload)
        let end: [UInt8] = [13, 10, 13, 10]
        var received: [UInt8] = []
        var buffer = [UInt8](repeating: 0, count: 1024)
        while received.firstRange(of: end) == nil {
            let count = buffer.withUnsafeMutableBytes { recv(fd, $0.baseAddress, $0.count, 0) }
            guard count > 0 else { return XCTFail("the connection closed before the headers", file: file, line: line) }
            received += buffer[0..<count]
        }
        let headers = String(decoding: received, as: UTF8.self).lowercased()
        XCTAssertTrue(headers.hasPrefix("http/1.1 200"), headers, file: file, line: line)
        XCTAssertTrue(headers.contains("content-type: \(type)"), headers, file: file, line: line)
        let length = try XCTUnwrap(headers.split(separator: "\r\n").first { $0.hasPrefix("content-length:") }
            .flatMap { Int($0.dropFirst("content-length:".count).trimmingCharacters(in: .whitespaces)) })
        // The kernel's largest send buffer (tcp_wmem's third field), and 1 MiB more.
        let sendBuffer = (try? String(contentsOfFile: "/proc/sys/net/ipv4/tcp_wmem", encoding: .utf8))
            .flatMap { $0.split(whereSeparator: \.isWhitespace).last.flatMap { Int($0) } } ?? 4 << 20
        XCTAssertGreaterThan(length, sendBuffer + (1 << 20), "more than the socket buffers hold", file: file, line: line)
        XCTAssertGreaterThanOrEqual(server.budget.inUse, length, "the unread answer is charged", file: file, line: line)
        // The client goes away unread: libmicrohttpd frees the answer, and its charge with it.
        close(fd)
        closed = true
        let released = Date().addingTimeInterval(10)
        while server.budget.inUse > 0 && Date() < released { usleep(20_000) }
        XCTAssertEqual(server.budget.inUse, 0, "given back once the answer was freed", file: file, line: line)
    }
}
