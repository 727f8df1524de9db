import CreativeCore
import CreativeImaging
import CreativeTestSupport
import Foundation
import XCTest
#if canImport(Glibc)
import Glibc
#endif

/// The cost model in the service: a running `serve`'s peak RSS during one job, over its RSS
/// before it (the peak is reset through `/proc/PID/clear_refs` before each request), is at most
/// what the job was charged (``JobCost``, with the service's per-job budget) plus the request's
/// body and answer, which the service buffers and charges apart.
final class ServiceCostPropertyTests: XCTestCase {
    private func status(_ pid: Int32, _ field: String) -> Int {
        guard let text = try? String(contentsOfFile: "/proc/\(pid)/status", encoding: .utf8) else { return 0 }
        let line = text.split(separator: "\n").first { $0.hasPrefix(field + ":") }
        return (line?.split(separator: " ").dropFirst().first.flatMap { Int($0) } ?? 0) * 1024
    }

    private func resetPeak(_ pid: Int32) -> Bool {
        guard let refs = fopen("/proc/\(pid)/clear_refs", "w") else { return false }
        defer { fclose(refs) }
        return fputs("5", refs) >= 0
    }

    func testEveryRenderIsChargedAtLeastWhatTheServiceHolds() throws {
        let running = try Fixture.startBinary(["--workers", "1"])
        defer {
            kill(running.process.processIdentifier, SIGTERM)
            _ = running.exitStatus(within: 10)
        }
        let pid = running.process.processIdentifier
        guard resetPeak(pid) else { throw XCTSkip("this kernel does not reset peak RSS through clear_refs") }
        let artwork = try Fixture.testImage("2184x270")
        let inputs: [(String, [UInt8])] = [
            ("test artwork 2184x270", artwork),
            ("16-bit RGBA 2184x270", Fixtures.zeroPNG(width: 2184, height: 270, depth: 16)),
            ("RGB strip 512x16384", Fixtures.zeroPNG(width: 512, height: 16384, colourType: 2)),
            ("grey 4096x4096", Fixtures.zeroPNG(width: 4096, height: 4096, colourType: 0)),
            ("interlaced RGBA 2048x1024", Fixtures.zeroPNG(width: 2048, height: 1024, interlaced: true)),
        ]
        // Warm up: the first request maps the code and the libraries of a render.
        _ = HTTPClient.request(running.port, "POST", "/v1/render?slot=390x61&scale=3", body: artwork)
        var failures: [String] = []
        var measured = 0
        for (name, body) in inputs {
            for (query, canvas, format) in [("slot=320x50", PixelSize(width: 320, height: 50), FormatChoice.fixed(.png)),
                                            ("slot=390x61&scale=3&format=auto", PixelSize(width: 1170, height: 183), .auto),
                                            ("slot=390x61&scale=3&format=webp", PixelSize(width: 1170, height: 183), .fixed(.webp)),
                                            ("slot=1024x1366&scale=2&format=jpeg", PixelSize(width: 2048, height: 2732), .fixed(.jpeg))] {
                let settings = try RenderSettings(canvas: canvas, format: format)
                let cost = JobCost.render(try ImageSource(bytes: body), settings: settings,
                                          memoryBudget: JobLimits.serviceMemoryBudget)
                XCTAssertTrue(resetPeak(pid))
                let before = status(pid, "VmRSS")
                let answer = HTTPClient.request(running.port, "POST", "/v1/render?" + query, body: body)
                let used = status(pid, "VmHWM") - before
                guard answer.status == 200 else {
                    XCTAssertEqual(answer.errorCode, "too_many_pixels", "\(name) \(query)")
                    XCTAssertGreaterThan(cost.memory, JobLimits.serviceMemoryBudget, "\(name) \(query): refused within its budget")
                    continue
                }
                measured += 1
                let allowed = cost.memory + 2 * body.count + 2 * answer.body.count
                if used > allowed {
                    failures.append("\(name) \(query): \(used >> 20) MiB held, charged \(cost.memory >> 20) MiB")
                }
            }
        }
        XCTAssertEqual(failures, [])
        XCTAssertGreaterThanOrEqual(measured, 12)
    }
}
