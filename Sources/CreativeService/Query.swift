import CreativeCore

/// The query parameters of a request, already percent-decoded, with typed readers that fail
/// with ``ServiceError/badRequest(_:)`` (400) naming the parameter.
public struct Query: Sendable {
    /// Parameters in the order given (a name may repeat; readers reject that).
    public private(set) var pairs: [(String, String)]

    public init(_ pairs: [(String, String)] = []) { self.pairs = pairs }

    /// Rejects names the route does not know, and any name given twice.
    public func check(allowed: Set<String>) throws(ServiceError) {
        var seen: Set<String> = []
        for (name, _) in pairs {
            guard allowed.contains(name) else {
                let known = allowed.sorted()
                let meant = KeySuggestion.nearest(to: name, in: known).map { "; did you mean '\($0)'?" } ?? ""
                throw .badRequest("unknown query parameter '\(TextFormat.clipped(name))'\(meant)"
                                  + (known.isEmpty ? "; this route takes none" : "; known: \(known.joined(separator: ", "))"))
            }
            guard seen.insert(name).inserted else { throw .badRequest("query parameter '\(name)' is given twice") }
        }
    }

    /// The value of a parameter, or nil.
    public func value(_ name: String) -> String? { pairs.first { $0.0 == name }?.1 }
}

/// A query as an operation's options: each declaration's name.
extension Query: OptionSource {
    public func given(_ option: OptionDeclaration) -> String? { value(option.name) }

    public func every(_ option: OptionDeclaration) -> [String] { pairs.filter { $0.0 == option.name }.map(\.1) }

    public func spelling(_ option: OptionDeclaration) -> String { option.name }

    /// Rejects names the operation does not declare for queries (and `extra` names of the route's own).
    func check(_ options: OptionList, extra: Set<String> = []) throws(ServiceError) {
        try check(allowed: options.queryNames.union(extra))
    }
}

extension ServiceError {
    /// Runs `read`, the reading of an operation's options: a canvas over a format's limit is 400
    /// `canvas_too_large`, every other ``CoreError`` 400 `bad_request` with its sentence.
    static func reading<Value>(_ read: () throws(CoreError) -> Value) throws(ServiceError) -> Value {
        do {
            return try read()
        } catch {
            if case .canvasTooLarge(let text) = error { throw .canvasTooLarge(text) }
            throw .badRequest(TextFormat.clipped(error.description, 300))
        }
    }
}
