import CreativeCore
import XCTest
@testable import CreativeService

/// Routes are declared in groups that say their listener, auth and body rule (``RouteGroup``):
/// a route's auth is its group's, never read from its path.
final class RouteGroupTests: XCTestCase {
    private let handler: Handler = { _, _ throws(ServiceError) in .json(.object([])) }

    // Over a real socket with a token configured: every route of the main listener but the page,
    // the probes and the metrics answers 401 without the token; the admin listener has those three.
    func testOnlyTheOpenGroupsRoutesAnswerWithoutTheToken() throws {
        let server = try Fixture.server { $0.token = "0123456789abcdef" }
        defer { server.stop(grace: 1) }
        var open: [String] = []
        for route in Router.service.routes {
            let path = route.pattern.replacingOccurrences(of: "{size}", with: "320x50")
            if HTTPClient.request(server.port, route.method, path, body: route.takesBody ? [0] : []).status != 401 {
                open.append(route.pattern)
            }
        }
        XCTAssertEqual(open.sorted(), ["/", "/healthz", "/metrics", "/readyz"])
        XCTAssertEqual(Router.admin.routes.map(\.pattern).sorted(), ["/healthz", "/metrics", "/readyz"])
        XCTAssertTrue(Router.admin.routes.allSatisfy { !$0.needsAuth && !$0.takesBody })
    }

    // A route under a new prefix takes its group's rules: a /v2 route in a token group asks for
    // the token, where the old rule (auth for paths under /v1/) would have left it open.
    func testAnotherPrefixGetsItsGroupsAuthAndBodyLimit() {
        let groups = [
            RouteGroup(name: "v2 uploads", listeners: .main, auth: .token, body: .upload,
                       routes: [Route("POST", "/v2/render", handler: handler)]),
            RouteGroup(name: "v2 lint", listeners: .main, auth: .token, body: .limited(4096),
                       routes: [Route("POST", "/v2/lint", handler: handler)]),
            RouteGroup(name: "v2 probes", listeners: [.main, .admin], auth: .open, body: .none,
                       routes: [Route("GET", "/v2/healthz", handler: handler)]),
        ]
        let main = Router(groups: groups, listener: .main)
        let render = try? main.resolve(method: "POST", path: "/v2/render").get()
        XCTAssertEqual(render?.needsAuth, true)
        XCTAssertEqual(render?.bodyLimit(uploads: 8_000_000, json: 64_000), 8_000_000)
        let lint = try? main.resolve(method: "POST", path: "/v2/lint").get()
        XCTAssertEqual(lint?.bodyLimit(uploads: 8_000_000, json: 64_000), 4096)
        let health = try? main.resolve(method: "GET", path: "/v2/healthz").get()
        XCTAssertEqual(health?.needsAuth, false)
        XCTAssertEqual(health?.takesBody, false)
        XCTAssertEqual(Router(groups: groups, listener: .admin).routes.map(\.pattern), ["/v2/healthz"])
    }

    // The service's own groups: uploads take --max-body-bytes, the JSON bodies and bodiless
    // routes --max-json-body-bytes, companion lint its own limit.
    func testEachRouteHasItsGroupsBodyLimit() throws {
        func limit(_ method: String, _ path: String) -> Int? {
            (try? Router.service.resolve(method: method, path: path).get())?.bodyLimit(uploads: 1, json: 2)
        }
        XCTAssertEqual(limit("POST", "/v1/render"), 1)
        XCTAssertEqual(limit("POST", "/v1/campaign"), 1)
        XCTAssertEqual(limit("POST", "/v1/select"), 2)
        XCTAssertEqual(limit("GET", "/v1/slot"), 2)
        XCTAssertEqual(limit("POST", "/v1/companion/lint"), TraffickingInput.maxBytes)
    }
}
