import CreativeCore
/// Handles one request; throws a ``ServiceError`` for every failure.
typealias Handler = @Sendable (Request, ServiceContext) throws(ServiceError) -> Response

/// Who may call a group's routes.
enum RouteAuth: Sendable {
    /// The bearer token, when one is configured (`--token-file`): 401 without it.
    case token
    /// Anyone who reaches the listener: the probes, the metrics and the try-it page.
    case open
}

/// The listeners that serve a group's routes.
struct RouteListeners: OptionSet, Sendable {
    let rawValue: Int
    /// `--port`: the API and the page.
    static let main = RouteListeners(rawValue: 1)
    /// `--admin-port`: the probes and the metrics, for the orchestrator.
    static let admin = RouteListeners(rawValue: 2)
}

/// What a route's body may be, and so its limit (413 above it).
enum RouteBody: Sendable {
    /// No body: one is discarded, within `--max-json-body-bytes`.
    case none
    /// A small JSON document, up to `--max-json-body-bytes`.
    case json
    /// An image or a bundle upload, up to `--max-body-bytes`.
    case upload
    /// A body with a limit of its own, in bytes.
    case limited(Int)
}

/// Routes that share a listener, an auth rule and a body rule, declared once for them all: a
/// route's auth is what its group says, never inferred from its path, so a route added under a
/// new prefix (`/v2/`) is open only when it is put in an open group. ``Router/init(groups:)``
/// checks the groups: an open group has no body and no parameters (probes, metrics, the page).
struct RouteGroup: Sendable {
    /// What the group is, for its routes' documentation and the check's message.
    let name: String
    let listeners: RouteListeners
    let auth: RouteAuth
    let body: RouteBody
    let routes: [Route]
}

/// One route: method, path pattern (with at most one `{name}` segment), and its handler. Its
/// auth and body rule are its group's (``RouteGroup``), set when the router is made.
struct Route: Sendable {
    let method: String
    /// The path, or a pattern such as `/v1/test-artwork/{size}.png`; also the route's label in logs and metrics.
    let pattern: String
    /// The query parameters the route takes (an operation's declarations): the allow-list that
    /// ``RequestIntake`` checks before the handler runs, and what `openapi.yaml` must list.
    var parameters = OptionList([])
    let handler: Handler
    /// Its group's auth rule.
    private(set) var auth = RouteAuth.token
    /// Its group's body rule.
    private(set) var body = RouteBody.none

    init(_ method: String, _ pattern: String, parameters: OptionList = OptionList([]), handler: @escaping Handler) {
        self.method = method
        self.pattern = pattern
        self.parameters = parameters
        self.handler = handler
    }

    /// The route as its group serves it.
    fileprivate func inGroup(_ group: RouteGroup) -> Route {
        var route = self
        route.auth = group.auth
        route.body = group.body
        return route
    }

    /// Whether the token is asked for (when one is configured).
    var needsAuth: Bool { auth == .token }

    /// Whether the route takes a request body (others discard one, within the small limit).
    var takesBody: Bool {
        if case .none = body { return false }
        return true
    }

    /// The largest body the route takes, given the service's two limits.
    func bodyLimit(uploads: Int, json: Int) -> Int {
        switch body {
        case .none, .json: json
        case .upload: uploads
        case .limited(let bytes): bytes
        }
    }

    /// Whether `path` matches the pattern.
    func matches(_ path: String) -> Bool {
        guard let open = pattern.firstIndex(of: "{"), let close = pattern.firstIndex(of: "}") else {
            return path == pattern
        }
        let prefix = pattern[..<open]
        let suffix = pattern[pattern.index(after: close)...]
        guard path.count > prefix.count + suffix.count, path.hasPrefix(prefix), path.hasSuffix(suffix) else {
            return false
        }
        let middle = path.dropFirst(prefix.count).dropLast(suffix.count)
        return !middle.isEmpty && !middle.contains("/")
    }

    /// The `{name}` segment of a matching path.
    func parameter(of path: String) -> String {
        guard let open = pattern.firstIndex(of: "{"), let close = pattern.firstIndex(of: "}") else { return "" }
        let prefix = pattern[..<open].count
        let suffix = pattern[pattern.index(after: close)...].count
        return String(path.dropFirst(prefix).dropLast(suffix))
    }
}

/// Method + path -> route; 404 when no route has the path, 405 when none has it with this method.
struct Router: Sendable {
    let routes: [Route]

    /// The label used for requests that match no route (keeps metric labels bounded).
    static let unmatched = "unmatched"

    /// The routes of the groups served on `listener`, each with its group's rules.
    /// Checked once, here: a group open to anyone takes no body and no parameters (the probes,
    /// the metrics, the page), and no pattern is in two groups.
    init(groups: [RouteGroup], listener: RouteListeners) {
        for group in groups where group.auth == .open {
            precondition(!group.routes.contains { !$0.parameters.options.isEmpty }, "open group \(group.name) takes parameters")
            if case .none = group.body {} else { preconditionFailure("open group \(group.name) takes a body") }
        }
        let all = groups.flatMap { group in group.routes.map { "\($0.method) \($0.pattern)" } }
        precondition(Set(all).count == all.count, "a route is declared twice")
        routes = groups.filter { $0.listeners.contains(listener) }.flatMap { group in group.routes.map { $0.inGroup(group) } }
    }

    /// The route for a request. `HEAD` is answered by the `GET` route.
    func resolve(method: String, path: String) -> Result<Route, ServiceError> {
        let candidates = routes.filter { $0.matches(path) }
        guard !candidates.isEmpty else { return .failure(.notFound(TextFormat.clipped(path, 200))) }
        let wanted = method == "HEAD" ? "GET" : method
        if let route = candidates.first(where: { $0.method == wanted }) { return .success(route) }
        var allowed = candidates.map(\.method)
        if allowed.contains("GET") { allowed.append("HEAD") }
        return .failure(.methodNotAllowed(allowed: allowed))
    }

    /// The label of the first route whose path matches, for metrics of a 405.
    func label(for path: String) -> String {
        routes.first { $0.matches(path) }?.pattern ?? Router.unmatched
    }

    /// The main listener's routes (`--port`).
    static let service = Router(groups: groups, listener: .main)

    /// The admin listener's routes (`--admin-port`): the probes and the metrics.
    static let admin = Router(groups: groups, listener: .admin)

    /// Every route of the service, in its group.
    static let groups = [
        RouteGroup(name: "page", listeners: .main, auth: .open, body: .none, routes: [
            Route("GET", TryItPage.path, handler: TryItPage.page),
        ]),
        RouteGroup(name: "probes and metrics", listeners: [.main, .admin], auth: .open, body: .none,
                   routes: probes(readyz: HealthHandlers.readyz, metrics: HealthHandlers.metrics)),
        RouteGroup(name: "uploads", listeners: .main, auth: .token, body: .upload, routes: [
            Route("POST", "/v1/validate", parameters: ValidateRequest.options, handler: ImageHandlers.validate),
            Route("POST", "/v1/render", parameters: RenderRequest.options, handler: ImageHandlers.render),
            Route("POST", "/v1/fix", parameters: FixRequest.options, handler: FixHandlers.fix),
            Route("POST", "/v1/process", parameters: ProcessRequest.options, handler: ProcessHandlers.process),
            Route("POST", "/v1/campaign", parameters: OptionList([CommonOptions.product, ProcessRequest.format, ProcessRequest.formats,
                                                                  ProcessRequest.with,
                                                                  ProcessRequest.weightBudget, ProcessRequest.profile]),
                  handler: CampaignHandlers.campaign),
        ]),
        RouteGroup(name: "queries", listeners: .main, auth: .token, body: .none, routes: [
            Route("GET", "/v1/slot", parameters: SlotRequest.options, handler: SizingHandlers.slot),
            Route("GET", "/v1/test-artwork/{size}.png", handler: ArtworkHandlers.artwork),
            Route("GET", "/v1/guidance", parameters: GuidanceRequest.options, handler: ContentHandlers.guidance),
            Route("GET", "/v1/prompt", parameters: PromptRequest.options, handler: ContentHandlers.prompt),
        ]),
        RouteGroup(name: "JSON bodies", listeners: .main, auth: .token, body: .json, routes: [
            Route("POST", "/v1/select", parameters: OptionList([CommonOptions.product]), handler: SizingHandlers.select),
        ]),
        RouteGroup(name: "trafficking fields", listeners: .main, auth: .token, body: .limited(TraffickingInput.maxBytes), routes: [
            Route("POST", "/v1/companion/lint", parameters: CompanionLintRequest.options, handler: CompanionHandlers.lint),
        ]),
    ]

    /// `GET /healthz`, `/readyz` and `/metrics`, with the readiness and metrics of their process
    /// (the service's own, or the worker's through ``AdminServer``).
    static func probes(readyz: @escaping Handler, metrics: @escaping Handler) -> [Route] {
        [Route("GET", "/healthz", handler: HealthHandlers.healthz),
         Route("GET", "/readyz", handler: readyz),
         Route("GET", "/metrics", handler: metrics)]
    }
}
