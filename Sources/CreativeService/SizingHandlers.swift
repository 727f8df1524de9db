import CreativeCore

/// `GET /v1/slot` and `POST /v1/select`: the sizing rules, no pixels touched. The JSON is the
/// same as `creative-tool slot --json` and `creative-tool select --json`.
enum SizingHandlers {
    /// ``SlotRequest`` by its query names: `?width=W` (points) `&screen_height=H&rule=qartvelo|google&scale=N`,
    /// or `&inline=true&max_height=H`; or `device=NAME&orientation=O` for the product's slot on
    /// a device (banners: the anchored strip across its screen).
    static func slot(_ request: Request, _ context: ServiceContext) throws(ServiceError) -> Response {
        return .json(try ServiceError.reading { () throws(CoreError) in try SlotRequest(request.query) }.json)
    }

    /// Largest number of candidates in one selection.
    static let maxCandidates = SelectRequest.maxCandidates

    /// Body: `{"width": PX, "height": PX, "mode": "anchored|inline|legacy", "scale": N, "candidates": ["WxH", ...]}`
    /// (``SelectRequest``: `height`, `mode` and `scale` optional, as the CLI's flags; with `scale`,
    /// width and height are points). `?product=`: the product's rule. No eligible candidate -> 422.
    static func select(_ request: Request, _ context: ServiceContext) throws(ServiceError) -> Response {
        let document: JSONValue
        do { document = try JSONParser.parse(request.body) } catch {
            throw .badRequest("the body is not JSON: \(error.message)")
        }
        guard case .object(let fields) = document else { throw .badRequest("the body must be a JSON object") }
        let body = BodyFields(fields: fields, query: request.query)
        try body.check(SelectRequest.options, extra: ["candidates"])
        let selection = try ServiceError.reading { () throws(CoreError) in try SelectRequest(body) }
        guard case .array(let list)? = body.field("candidates"), !list.isEmpty, list.count <= maxCandidates else {
            throw .badRequest("candidates must be an array of 1 to \(maxCandidates) sizes \"WxH\"")
        }
        var names: [String] = []
        var sizes: [PixelSize] = []
        for item in list {
            guard case .string(let text) = item else { throw .badRequest("each candidate must be a string \"WxH\"") }
            do { sizes.append(try PixelSize(parsing: text)) } catch {
                throw .badRequest("candidate \(TextFormat.clipped(error.description, 120))")
            }
            names.append(text)
        }
        let result: SelectionResult
        do {
            result = try selection.select(sizes)
        } catch {
            let hint = selection.hint(for: sizes, widthSpelling: SelectRequest.width.name, scaleSpelling: SelectRequest.scale.name)
            throw .unprocessable(code: "no_eligible_creative", message: error.description + (hint.map { " (\($0))" } ?? ""),
                                 report: nil)
        }
        return .json(SizingJSON.selection(result, names: names))
    }
}
