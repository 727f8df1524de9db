import CreativeCore

/// A JSON body's fields as an operation's options (`POST /v1/select`), the product from the
/// query: numbers for numeric options, strings for the rest, `null` as absent. A value of
/// another JSON type is given as its JSON text, which the option's reading then refuses.
struct BodyFields: OptionSource {
    let fields: [(String, JSONValue)]
    let query: Query

    /// The field of a name, nil when absent or `null`.
    func field(_ name: String) -> JSONValue? {
        guard let value = fields.first(where: { $0.0 == name })?.1, value != .null else { return nil }
        return value
    }

    func given(_ option: OptionDeclaration) -> String? {
        if option.name == CommonOptions.product.name { return query.given(option) }
        guard let value = field(option.name) else { return nil }
        switch (value, option.kind) {
        case (.int(let number), .integer), (.int(let number), .number): return String(number)
        case (.double(let number), .number): return String(number)
        case (.string(let text), .choice), (.string(let text), .text), (.string(let text), .size),
             (.string(let text), .slot):
            return text
        default: return value.serialized()
        }
    }

    func every(_ option: OptionDeclaration) -> [String] { given(option).map { [$0] } ?? [] }

    func spelling(_ option: OptionDeclaration) -> String { option.name }

    /// Rejects fields the operation does not declare (the product is the query's) and repeated fields.
    func check(_ options: OptionList, extra: Set<String>) throws(ServiceError) {
        let known = options.queryNames.subtracting([CommonOptions.product.name]).union(extra)
        var seen: Set<String> = []
        for (key, _) in fields {
            guard known.contains(key) else {
                let meant = KeySuggestion.nearest(to: key, in: known.sorted()).map { "; did you mean '\($0)'?" } ?? ""
                throw .badRequest("unknown field '\(TextFormat.clipped(key))'\(meant); known: \(known.sorted().joined(separator: ", "))")
            }
            guard seen.insert(key).inserted else { throw .badRequest("field '\(key)' is given twice") }
        }
    }
}
