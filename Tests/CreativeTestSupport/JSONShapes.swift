/// Reading the published JSON shapes (schema version 2) in parsed form (`JSONSerialization`):
/// a size `{"width", "height"}` and a position `{"x", "y"}`.
public enum JSONShapes {
    /// A size object as `"WxH"`, or nil when `value` is not one (absent, null, another shape).
    public static func size(_ value: Any?) -> String? {
        guard let object = value as? [String: Any], let width = object["width"] as? Int,
              let height = object["height"] as? Int else { return nil }
        return "\(width)x\(height)"
    }

    /// A position object as `[x, y]`, or nil when `value` is not one.
    public static func position(_ value: Any?) -> [Int]? {
        guard let object = value as? [String: Any], let x = object["x"] as? Int, let y = object["y"] as? Int else { return nil }
        return [x, y]
    }
}

extension Dictionary where Key == String, Value == Any {
    /// The size object under `key` as `"WxH"` (``JSONShapes/size(_:)``).
    public func sizeText(_ key: String) -> String? { JSONShapes.size(self[key]) }

    /// The position object under `key` as `[x, y]` (``JSONShapes/position(_:)``).
    public func position(_ key: String) -> [Int]? { JSONShapes.position(self[key]) }
}
