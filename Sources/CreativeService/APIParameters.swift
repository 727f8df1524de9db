import CreativeCore

/// Every route's query parameters as OpenAPI writes them (name, type, enum, range, default),
/// made from the operations' declarations: `serve --api-parameters` prints it, and
/// `scripts/check-openapi-parameters.py` compares `openapi.yaml` against it.
public enum APIParameters {
    /// `{"routes": {"get /v1/slot": [{"name": "width", "type": "integer", ...}], ...}}`, every
    /// route (printed as a document, with the version fields first).
    public static var json: JSONValue {
        .object([("routes", .object(Router.service.routes.map { route in
            ("\(route.method.lowercased()) \(route.pattern)", .array(route.parameters.on(.query).map(schema)))
        }))])
    }

    /// One parameter: its name and its schema's type, enum, minimum, maximum, maxLength and default.
    static func schema(_ option: OptionDeclaration) -> JSONValue {
        var fields: [(String, JSONValue)] = [("name", .string(option.name))]
        switch option.kind {
        case .integer(let range):
            fields += [("type", .string("integer")), ("minimum", .int(range.lowerBound)), ("maximum", .int(range.upperBound))]
        case .number(let range):
            fields += [("type", .string("number")), ("minimum", .double(range.lowerBound)),
                       ("maximum", .double(range.upperBound))]
        case .choice(let names):
            fields += [("type", .string("string")), ("enum", .array(names.map(JSONValue.string)))]
        case .text(let maxLength):
            fields += [("type", .string("string")), ("maxLength", .int(maxLength))]
        case .size, .slot:
            fields += [("type", .string("string"))]
        case .toggle:
            fields += [("type", .string("boolean"))]
        case .byteSize:
            // A size with its unit (`40K`, `1M`) or bare bytes: text, whose range the message gives.
            fields += [("type", .string("string"))]
        case .duration(let range):
            fields += [("type", .string("number")), ("minimum", .double(range.lowerBound)),
                       ("maximum", .double(range.upperBound))]
        }
        if let value = option.defaultValue { fields.append(("default", typed(value, option.kind))) }
        return .object(fields)
    }

    /// A declared default as the JSON value OpenAPI's `default:` holds.
    private static func typed(_ text: String, _ kind: OptionDeclaration.Kind) -> JSONValue {
        switch kind {
        case .integer: Int(text).map(JSONValue.int) ?? .string(text)
        case .number: Double(text).map(JSONValue.double) ?? .string(text)
        case .toggle: .bool(text == "true")
        default: .string(text)
        }
    }
}
