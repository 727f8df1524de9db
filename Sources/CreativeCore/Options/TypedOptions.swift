/// Something that declares one option: an ``OptionDeclaration`` itself, or a typed declaration
/// (``IntegerOption``, ``ByteSizeOption``, ``DurationOption``) that carries the range its value
/// is read in. Lists of options and the rules that name options take any of them.
public protocol DeclaresOption: Sendable {
    /// The declaration: name, kind, help, surfaces.
    var declaration: OptionDeclaration { get }
}

extension OptionDeclaration: DeclaresOption {
    /// Itself.
    public var declaration: OptionDeclaration { self }
}

/// What the text of a ranged option is read as: the type of its bounds and the
/// ``OptionDeclaration/Kind`` a range of them declares.
public protocol RangedReading: Sendable {
    associatedtype Bound: Comparable & Sendable
    /// The kind of a declaration accepting `range`.
    static func kind(_ range: ClosedRange<Bound>) -> OptionDeclaration.Kind
}

/// A whole number (``OptionSource/int(_:)``).
public enum WholeNumberReading: RangedReading {
    public static func kind(_ range: ClosedRange<Int>) -> OptionDeclaration.Kind { .integer(range) }
}

/// A number of bytes with an optional `K`, `M`, `G` (``OptionSource/bytes(_:)``).
public enum ByteSizeReading: RangedReading {
    public static func kind(_ range: ClosedRange<Int>) -> OptionDeclaration.Kind { .byteSize(range) }
}

/// Seconds with an optional `ms`, `s`, `m` (``OptionSource/seconds(_:)``).
public enum DurationReading: RangedReading {
    public static func kind(_ range: ClosedRange<Double>) -> OptionDeclaration.Kind { .duration(range) }
}

/// A declaration whose kind is made from its range, so the reader that takes it is the only one
/// that compiles: ``OptionSource/int(_:)`` reads an ``IntegerOption``, ``OptionSource/bytes(_:)``
/// a ``ByteSizeOption``, ``OptionSource/seconds(_:)`` a ``DurationOption``. The declaration's
/// properties read through (`option.help`, `option.flag`).
@dynamicMemberLookup
public struct RangedOption<Reading: RangedReading>: DeclaresOption {
    public let declaration: OptionDeclaration
    /// The values accepted; the declaration's kind holds the same range, for help and OpenAPI.
    public let range: ClosedRange<Reading.Bound>

    /// The parameters are ``OptionDeclaration``'s, with the range for its kind.
    /// - Parameter bareUnit: for a byte size, the bytes a bare number counts (1 for bytes, 1 << 20 for MiB).
    public init(_ name: String, _ range: ClosedRange<Reading.Bound>, placeholder: String = "", help: String,
                defaultValue: String? = nil, products: [Product] = [], surfaces: OptionDeclaration.Surfaces = .both,
                mistakenNames: [String] = [], bareUnit: Int = 1) {
        self.init(declaration: OptionDeclaration(name, Reading.kind(range), placeholder: placeholder, help: help,
                                                 defaultValue: defaultValue, products: products, surfaces: surfaces,
                                                 mistakenNames: mistakenNames, bareUnit: bareUnit),
                  range: range)
    }

    private init(declaration: OptionDeclaration, range: ClosedRange<Reading.Bound>) {
        self.declaration = declaration
        self.range = range
    }

    /// A property of the declaration.
    public subscript<Value>(dynamicMember property: KeyPath<OptionDeclaration, Value>) -> Value {
        declaration[keyPath: property]
    }

    /// A copy for other products or another help sentence, as ``OptionDeclaration/with(help:defaultValue:products:surfaces:)``.
    public func with(help: String? = nil, defaultValue: String?? = nil, products: [Product]? = nil,
                     surfaces: OptionDeclaration.Surfaces? = nil) -> Self {
        Self(declaration: declaration.with(help: help, defaultValue: defaultValue, products: products, surfaces: surfaces),
             range: range)
    }
}

/// A whole-number option, read by ``OptionSource/int(_:)``.
public typealias IntegerOption = RangedOption<WholeNumberReading>
/// A byte-size option, read by ``OptionSource/bytes(_:)``.
public typealias ByteSizeOption = RangedOption<ByteSizeReading>
/// A duration option, read by ``OptionSource/seconds(_:)``.
public typealias DurationOption = RangedOption<DurationReading>
