import CreativeCore

/// `POST /v1/companion/lint`: trafficking parameters checked by the player SDK's rules, as
/// `creative-tool companion lint --json` checks them. Pure text work: no job slot.
enum CompanionHandlers {
    /// The body is the parameter text (`text/plain`, UTF-8, at most 64 KiB: a bigger body gets
    /// 413 with that limit); `?takeover=true` lints takeover metadata. Answers 200 with the lint
    /// report whether the parameters are valid or not (see `valid` and `errors`).
    static func lint(_ request: Request, _ context: ServiceContext) throws(ServiceError) -> Response {
        guard request.body.count <= TraffickingInput.maxBytes else {
            throw .payloadTooLarge(limit: TraffickingInput.maxBytes)
        }
        let kind = try ServiceError.reading { () throws(CoreError) in try CompanionLintRequest(request.query) }.kind
        return .json(CompanionLint.lint(request.body, kind: kind).json)
    }
}
