/// One option of an operation, declared once: the command line's flag, the HTTP query
/// parameter, the help row, the allow-list and the OpenAPI comparison are all read from it.
///
/// The query name is ``name`` (`screen_height`); the flag is `--` and the name with `-` for `_`
/// (`--screen-height`); a ``Kind/toggle`` whose default is on is spelled `--no-NAME` on the
/// command line and `NAME=false` in a query.
public struct OptionDeclaration: Sendable {
    /// What the option's text is read as. The ranged kinds (``integer(_:)``, ``byteSize(_:)``,
    /// ``duration(_:)``) are made by ``IntegerOption``, ``ByteSizeOption`` and ``DurationOption``,
    /// whose readers take the range from the typed declaration; here they are for help and OpenAPI.
    public enum Kind: Sendable, Equatable {
        /// A whole number within the range.
        case integer(ClosedRange<Int>)
        /// A finite number within the range.
        case number(ClosedRange<Double>)
        /// `WxH`.
        case size
        /// A slot: `WxH` in points, or `WxH@Nx` with its scale.
        case slot
        /// One of the names (any case).
        case choice([String])
        /// Free text of at most that many characters.
        case text(maxLength: Int)
        /// On or off: a flag on the command line, `true|false` in a query.
        case toggle
        /// A number of bytes within the range; `K`, `M`, `G` (powers of 1024) may follow, and a
        /// bare number counts in ``OptionDeclaration/bareUnit`` bytes.
        case byteSize(ClosedRange<Int>)
        /// Seconds within the range; `ms`, `s`, `m` may follow.
        case duration(ClosedRange<Double>)
    }

    /// Where an option is taken.
    public struct Surfaces: OptionSet, Sendable {
        public let rawValue: Int
        public init(rawValue: Int) { self.rawValue = rawValue }
        /// A command-line flag.
        public static let commandLine = Surfaces(rawValue: 1)
        /// An HTTP query parameter.
        public static let query = Surfaces(rawValue: 2)
        /// Both.
        public static let both: Surfaces = [.commandLine, .query]
    }

    /// The query name, `snake_case`.
    public let name: String
    public let kind: Kind
    /// The value's placeholder in help (`WxH`, `N`, `NAME`); empty for a toggle.
    public let placeholder: String
    /// One sentence or two for help; it says the unit (points, pixels, bytes, seconds).
    public let help: String
    /// The default as help and OpenAPI write it, nil when there is none.
    public let defaultValue: String?
    /// The products the option is for; empty for every product.
    public let products: [Product]
    public let surfaces: Surfaces
    /// Names people give for this option by mistake (`size` for `slot`, `o` for `output`), for
    /// "did you mean".
    public let mistakenNames: [String]
    /// Values people give by mistake and the value meant (`jpg` for `jpeg`).
    public let mistakenValues: [String: String]
    /// For ``Kind/byteSize``: the bytes a bare number counts (1 for bytes, 1 << 20 for MiB).
    public let bareUnit: Int
    /// Whether the option may be given more than once.
    public let repeatable: Bool

    public init(_ name: String, _ kind: Kind, placeholder: String = "", help: String, defaultValue: String? = nil,
                products: [Product] = [], surfaces: Surfaces = .both, mistakenNames: [String] = [],
                mistakenValues: [String: String] = [:], bareUnit: Int = 1, repeatable: Bool = false) {
        self.name = name
        self.kind = kind
        self.placeholder = placeholder
        self.help = help
        self.defaultValue = defaultValue
        self.products = products
        self.surfaces = surfaces
        self.mistakenNames = mistakenNames
        self.mistakenValues = mistakenValues
        self.bareUnit = bareUnit
        self.repeatable = repeatable
    }

    /// The command-line spelling: `--screen-height`; `--no-enlarge` for a toggle that is on by default.
    public var flag: String {
        let dashed = "--" + String(name.map { $0 == "_" ? "-" : $0 })
        return kind == .toggle && defaultValue == "true" ? "--no-" + dashed.dropFirst(2) : dashed
    }

    /// Whether the command line gives it without a value.
    public var isFlag: Bool { kind == .toggle }

    /// A copy for other products or another help sentence (the same option in another operation).
    public func with(help: String? = nil, defaultValue: String?? = nil, products: [Product]? = nil,
                     surfaces: Surfaces? = nil) -> OptionDeclaration {
        OptionDeclaration(name, kind, placeholder: placeholder, help: help ?? self.help,
                          defaultValue: defaultValue ?? self.defaultValue, products: products ?? self.products,
                          surfaces: surfaces ?? self.surfaces, mistakenNames: mistakenNames,
                          mistakenValues: mistakenValues, bareUnit: bareUnit, repeatable: repeatable)
    }
}

/// The options one operation takes, in help order.
public struct OptionList: Sendable {
    public let options: [OptionDeclaration]

    public init(_ options: [any DeclaresOption]) { self.options = options.map(\.declaration) }

    /// The options of one surface (the command line's, or a query's).
    public func on(_ surface: OptionDeclaration.Surfaces) -> [OptionDeclaration] {
        options.filter { $0.surfaces.contains(surface) }
    }

    /// The query names a route allows.
    public var queryNames: Set<String> { Set(on(.query).map(\.name)) }

    /// The option of a name, for an operation's own reading.
    public subscript(_ name: String) -> OptionDeclaration {
        guard let option = options.first(where: { $0.name == name }) else {
            preconditionFailure("option \(name) is not declared")
        }
        return option
    }
}
