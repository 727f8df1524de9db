import Foundation
import XCTest
@testable import CreativeService

/// Paths and a server started on an ephemeral loopback port for one test.
enum Fixture {
    static let packageRoot = URL(fileURLWithPath: #filePath)
        .deletingLastPathComponent().deletingLastPathComponent().deletingLastPathComponent()

    static func testImage(_ size: String) throws -> [UInt8] {
        [UInt8](try Data(contentsOf: packageRoot.appendingPathComponent("TestImages/test-artwork-\(size).png")))
    }

    /// Starts a server on port 0 (the kernel picks a free one) with request logging off.
    static func server(_ configure: (inout ServiceConfig) -> Void = { _ in }) throws -> Server {
        var config = ServiceConfig()
        config.port = 0
        config.adminPort = 0
        config.logRequests = false
        configure(&config)
        return try Server(config: config)
    }

    /// The built `creative-tool` beside the test bundle (`swift build` puts both in one folder).
    static let binary: URL = URL(fileURLWithPath: "/proc/self/exe").resolvingSymlinksInPath()
        .deletingLastPathComponent().appendingPathComponent("creative-tool")
}
