import CreativeCore
import CreativeImaging
import CreativeOperations

/// `GET /v1/guidance` and `GET /v1/prompt`: text computed from the one catalog, no pixels.
enum ContentHandlers {
    /// ``GuidanceRequest`` by its query names: `?format=json|markdown|html` (default json)
    /// `&product=`: the same text as `creative-tool guidance`; with `format=html`,
    /// `&brand=&headline=&cta=&colors=` fill its prompts; `&profile=` gives one platform's guidance instead.
    static func guidance(_ request: Request, _ context: ServiceContext) throws(ServiceError) -> Response {
        let guidance = try ServiceError.reading { () throws(CoreError) in try GuidanceRequest(request.query) }
        let prompts: [RenderedPrompt]
        do { prompts = try guidance.prompts() } catch { throw .internalError(error.description) }
        let body = Guidance(product: guidance.product).render(guidance.format, prompts: prompts, testArtworkBase: "/v1/test-artwork/",
                                                               profile: guidance.profile)
        var response = Response(contentType: guidance.format.mediaType, body: Array(body.utf8))
        if guidance.format == .html {
            // Its inline style sheet, style attributes and Copy-button script, by hash; nothing else.
            response.headers = [(SecurityHeaders.name, SecurityHeaders.pagePolicy(for: body)), ("Referrer-Policy", "no-referrer")]
        }
        return response
    }

    /// ``PromptRequest`` by its query names, `?size=WxH&brand=&headline=&cta=&colors=&product=`:
    /// `{"prompts": [...]}`, the prompt objects that `creative-tool prompt --json` prints one per
    /// line (one per recommended size without `size`).
    static func prompt(_ request: Request, _ context: ServiceContext) throws(ServiceError) -> Response {
        let prompt = try ServiceError.reading { () throws(CoreError) in try PromptRequest(request.query) }
        let prompts: [RenderedPrompt]
        do {
            prompts = try prompt.prompts()
        } catch {
            if case .templateError(let message) = error { throw .internalError(message) }
            throw .badRequest("size: \(error.description)")
        }
        return .json(.object([("prompts", .array(prompts.map(\.json)))]))
    }
}
