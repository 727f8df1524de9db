import Foundation
import XCTest

/// A test class that runs `creative-tool worker` against the real servers: one ``FleetServers``
/// per class (started by its first test, stopped after its last), and per test a stream and a
/// store prefix of its own, so tests never see each other's jobs.
class FleetTestCase: XCTestCase {
    nonisolated(unsafe) static var started: FleetServers?
    var servers: FleetServers!
    var stream = ""
    var prefix = ""

    override class func tearDown() {
        started?.shutdown()
        started = nil
    }

    override func setUpWithError() throws {
        if Self.started == nil { Self.started = try FleetServers() }
        servers = Self.started
        let tag = UUID().uuidString.prefix(8).lowercased()
        stream = "jobs-\(tag)"
        prefix = "run-\(tag)"
    }
}
