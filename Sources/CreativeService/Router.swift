import CreativeCore
/// Handles one request; throws a ``ServiceError`` for every failure.
typealias Handler = @Sendable (Request, ServiceContext) throws(ServiceError) -> Response

/// One route: method, path pattern (with at most one `{name}` segment), and its handler.
struct Route: Sendable {
    let method: String
    /// The path, or a pattern such as `/v1/test-artwork/{size}.png`; also the route's label in logs and metrics.
    let pattern: String
    /// Whether the route takes a request body (others discard one, within the small limit).
    let takesBody: Bool
    /// Whether the body is an image upload (`--max-body-bytes`, megabytes); other routes take at
    /// most `--max-json-body-bytes` (a few KB).
    let uploads: Bool
    /// A route's own body limit, when neither of those suits it (413 above it).
    var bodyLimit: Int? = nil
    /// The query parameters the route takes (an operation's declarations): the allow-list that
    /// ``RequestIntake`` checks before the handler runs, and what `openapi.yaml` must list.
    var parameters = OptionList([])
    let handler: Handler

    /// `/v1` routes need the token when one is configured; health and metrics routes never do.
    var needsAuth: Bool { pattern.hasPrefix("/v1/") }

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

    /// The admin listener's routes (`--admin-port`): probes and metrics only.
    static let admin = Router(routes: service.routes.filter { !$0.needsAuth && $0.pattern != TryItPage.path })

    /// Every route of the service.
    static let service = Router(routes: [
        Route(method: "GET", pattern: TryItPage.path, takesBody: false, uploads: false, handler: TryItPage.page),
        Route(method: "GET", pattern: "/healthz", takesBody: false, uploads: false, handler: HealthHandlers.healthz),
        Route(method: "GET", pattern: "/readyz", takesBody: false, uploads: false, handler: HealthHandlers.readyz),
        Route(method: "GET", pattern: "/metrics", takesBody: false, uploads: false, handler: HealthHandlers.metrics),
        Route(method: "POST", pattern: "/v1/validate", takesBody: true, uploads: true, parameters: ValidateRequest.options,
              handler: ImageHandlers.validate),
        Route(method: "POST", pattern: "/v1/render", takesBody: true, uploads: true, parameters: RenderRequest.options,
              handler: ImageHandlers.render),
        Route(method: "GET", pattern: "/v1/slot", takesBody: false, uploads: false, parameters: SlotRequest.options,
              handler: SizingHandlers.slot),
        Route(method: "POST", pattern: "/v1/select", takesBody: true, uploads: false, parameters: OptionList([CommonOptions.product]),
              handler: SizingHandlers.select),
        Route(method: "GET", pattern: "/v1/test-artwork/{size}.png", takesBody: false, uploads: false, handler: ArtworkHandlers.artwork),
        Route(method: "GET", pattern: "/v1/guidance", takesBody: false, uploads: false, parameters: GuidanceRequest.options,
              handler: ContentHandlers.guidance),
        Route(method: "GET", pattern: "/v1/prompt", takesBody: false, uploads: false, parameters: PromptRequest.options,
              handler: ContentHandlers.prompt),
        Route(method: "POST", pattern: "/v1/fix", takesBody: true, uploads: true, parameters: FixRequest.options,
              handler: FixHandlers.fix),
        Route(method: "POST", pattern: "/v1/process", takesBody: true, uploads: true, parameters: ProcessRequest.options,
              handler: ProcessHandlers.process),
        Route(method: "POST", pattern: "/v1/campaign", takesBody: true, uploads: true,
              parameters: OptionList([CommonOptions.product, ProcessRequest.format, ProcessRequest.with,
                                      ProcessRequest.weightBudget, ProcessRequest.profile]),
              handler: CampaignHandlers.campaign),
        Route(method: "POST", pattern: "/v1/companion/lint", takesBody: true, uploads: false,
              bodyLimit: TraffickingInput.maxBytes, parameters: CompanionLintRequest.options, handler: CompanionHandlers.lint),
    ])
}
