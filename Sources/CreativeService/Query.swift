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
                let known = allowed.sorted().joined(separator: ", ")
                throw .badRequest("unknown query parameter '\(Query.clip(name))'"
                                  + (known.isEmpty ? "; this route takes none" : "; known: \(known)"))
            }
            guard seen.insert(name).inserted else { throw .badRequest("query parameter '\(name)' is given twice") }
        }
    }

    /// The value of a parameter, or nil.
    public func value(_ name: String) -> String? { pairs.first { $0.0 == name }?.1 }

    /// A whole number within a range.
    public func int(_ name: String, in range: ClosedRange<Int>) throws(ServiceError) -> Int? {
        guard let text = value(name) else { return nil }
        guard let number = Int(text), range.contains(number) else {
            throw .badRequest("\(name) must be a whole number from \(range.lowerBound) to \(range.upperBound), "
                              + "not '\(Query.clip(text))'")
        }
        return number
    }

    /// A finite number.
    public func double(_ name: String) throws(ServiceError) -> Double? {
        guard let text = value(name) else { return nil }
        guard let number = Double(text), number.isFinite else {
            throw .badRequest("\(name) must be a number, not '\(Query.clip(text))'")
        }
        return number
    }

    /// `true` or `false`.
    public func bool(_ name: String) throws(ServiceError) -> Bool? {
        guard let text = value(name) else { return nil }
        switch text.lowercased() {
        case "true", "1", "yes": return true
        case "false", "0", "no": return false
        default: throw .badRequest("\(name) must be true or false, not '\(Query.clip(text))'")
        }
    }

    /// One of an enum's raw values.
    public func choice<Choice: RawRepresentable & CaseIterable>(_ name: String, _ type: Choice.Type)
        throws(ServiceError) -> Choice? where Choice.RawValue == String {
        guard let text = value(name) else { return nil }
        guard let choice = Choice(rawValue: text.lowercased()) else {
            let allowed = Choice.allCases.map(\.rawValue).joined(separator: ", ")
            throw .badRequest("\(name) must be one of \(allowed), not '\(Query.clip(text))'")
        }
        return choice
    }

    /// A `WxH` size.
    public func size(_ name: String) throws(ServiceError) -> PixelSize? {
        guard let text = value(name) else { return nil }
        do {
            return try PixelSize(parsing: text)
        } catch {
            throw .badRequest("\(name): \(Query.clip(error.description, 200))")
        }
    }

    /// Caller text cut short before it goes into a message.
    static func clip(_ text: String, _ limit: Int = 64) -> String {
        text.count <= limit ? text : String(text.prefix(limit)) + "..."
    }
}
