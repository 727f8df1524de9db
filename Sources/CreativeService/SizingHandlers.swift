import CreativeCore

/// `GET /v1/slot` and `POST /v1/select`: the sizing rules, no pixels touched. The JSON is the
/// same as `creative-tool slot --json` and `creative-tool select --json`.
enum SizingHandlers {
    /// `?width=W` (points, required) `&screen_height=H&rule=qartvelo|google&scale=N`, or
    /// `&inline=true&max_height=H&scale=N` for inline sizing; or
    /// `?product=interstitial&device=NAME&orientation=portrait|landscape` for a full-screen slot;
    /// `?product=companion&device=NAME` for a device's fixed standard slot.
    static func slot(_ request: Request, _ context: ServiceContext) throws(ServiceError) -> Response {
        let query = request.query
        try query.check(allowed: ["width", "screen_height", "rule", "inline", "max_height", "scale",
                                  "product", "device", "orientation"])
        let product = try query.product()
        if product.slotRule == .fixedStandardSlot {
            for other in ["width", "screen_height", "rule", "inline", "max_height", "scale", "orientation"] where query.value(other) != nil {
                throw .badRequest("\(other) is not for \(product) slots; the slot is fixed per device: give device=NAME")
            }
            guard let device = try query.device() else { throw .badRequest("device=NAME is required for \(product) slots") }
            guard let slot = DeviceSlot.standard(device, product: product) else {
                throw .badRequest("\(product) has no standard slot for \(device.name)")
            }
            return .json(SizingJSON.standard(slot))
        }
        if product.slotRule == .fullScreenSafeArea {
            for banner in ["width", "screen_height", "rule", "inline", "max_height", "scale"] where query.value(banner) != nil {
                throw .badRequest("\(banner) is for banner slots; an interstitial slot comes from device and orientation")
            }
            guard let slot = try query.fullScreenSlot() else { throw .badRequest("device=NAME is required for interstitials") }
            return .json(SizingJSON.fullScreen(slot))
        }
        if query.value("device") != nil || query.value("orientation") != nil {
            throw .badRequest("device and orientation are for product=interstitial")
        }
        guard let width = try query.int("width", in: 1...PixelSize.maximumSide) else {
            throw .badRequest("width=W is required (points)")
        }
        let scale = try query.double("scale") ?? 1
        do { try SlotMath.checkScale(scale) } catch { throw .badRequest(error.description) }
        if try query.bool("inline") ?? false {
            if query.value("rule") != nil || query.value("screen_height") != nil {
                throw .badRequest("rule and screen_height are for anchored slots, not inline=true")
            }
            let maxHeight = SlotMath.inlineMaxHeight(try query.int("max_height", in: 1...PixelSize.maximumSide))
            return .json(SizingJSON.inline(width: width, maxHeight: maxHeight, scale: scale))
        }
        if query.value("max_height") != nil { throw .badRequest("max_height needs inline=true") }
        let rule = try query.choice("rule", AnchoredRule.self) ?? .qartvelo
        let screenHeight = try query.int("screen_height", in: 1...PixelSize.maximumSide)
        return .json(SizingJSON.anchored(width: width, screenHeight: screenHeight, rule: rule, scale: scale))
    }

    /// Largest number of candidates in one selection.
    static let maxCandidates = 100

    /// Body: `{"width": PX, "height": PX, "mode": "adaptive|inline|legacy", "candidates": ["WxH", ...]}`
    /// (`height` and `mode` optional, as the CLI's flags). `?product=interstitial`: the full-screen
    /// rule (`mode` full_screen, the default, `height` required). No eligible candidate -> 422.
    static func select(_ request: Request, _ context: ServiceContext) throws(ServiceError) -> Response {
        try request.query.check(allowed: ["product"])
        let product = try request.query.product()
        let modes = SelectionMode.modes(for: product)
        let document: JSONValue
        do { document = try JSONParser.parse(request.body) } catch {
            throw .badRequest("the body is not JSON: \(error.message)")
        }
        guard case .object(let fields) = document else { throw .badRequest("the body must be a JSON object") }
        var seen: Set<String> = []
        for (key, _) in fields {
            guard ["width", "height", "mode", "candidates"].contains(key) else {
                throw .badRequest("unknown field '\(TextFormat.clipped(key))'; known: width, height, mode, candidates")
            }
            guard seen.insert(key).inserted else { throw .badRequest("field '\(key)' is given twice") }
        }
        func field(_ name: String) -> JSONValue? { fields.first { $0.0 == name }?.1 }
        func integer(_ name: String) throws(ServiceError) -> Int? {
            guard let value = field(name), value != .null else { return nil }
            guard case .int(let number) = value, (1...100_000).contains(number) else {
                throw .badRequest("\(name) must be a whole number from 1 to 100000")
            }
            return number
        }
        guard let width = try integer("width") else { throw .badRequest("width (pixels) is required") }
        let height = try integer("height")
        var mode: SelectionMode = modes.contains(.adaptive) ? (height == nil ? .legacy : .adaptive) : modes[0]
        if let value = field("mode"), value != .null {
            guard case .string(let text) = value, let chosen = SelectionMode(rawValue: text), modes.contains(chosen) else {
                throw .badRequest("mode for \(product) must be one of \(modes.map(\.rawValue).joined(separator: ", "))")
            }
            mode = chosen
        }
        if mode != .legacy && height == nil { throw .badRequest("mode \(mode.rawValue) needs height") }
        guard case .array(let list)? = field("candidates"), !list.isEmpty, list.count <= maxCandidates else {
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
            result = try Selection.select(sizes, mode: mode, width: width, height: height, product: product)
        } catch {
            throw .unprocessable(code: "no_eligible_creative", message: error.description, report: nil)
        }
        return .json(SizingJSON.selection(result, names: names))
    }
}
