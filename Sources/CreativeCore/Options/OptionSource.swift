/// Where an operation reads its options from: the command line (`ParsedArguments`) or an HTTP
/// query (`Query`). Both give text by the declared name; the typed readers below are the one
/// reading both share, so the two accept the same text and say the same thing about the rest.
/// Every failure is a ``CoreError`` whose sentence names the option as this caller spells it.
public protocol OptionSource {
    /// The text given for an option, nil when absent; for a ``OptionDeclaration/Kind/toggle``
    /// `true` or `false` (a flag given on the command line is the opposite of the default).
    func given(_ option: OptionDeclaration) -> String?
    /// Every text given for a repeatable option, in order.
    func every(_ option: OptionDeclaration) -> [String]
    /// How this caller writes the option in messages: `--slot` or `slot`.
    func spelling(_ option: OptionDeclaration) -> String
}

extension OptionSource {
    /// Whether the option was given.
    public func has(_ option: some DeclaresOption) -> Bool { given(option.declaration) != nil }

    /// How this caller writes a typed option in messages (``spelling(_:)`` of its declaration).
    public func spelling(_ option: some DeclaresOption) -> String { spelling(option.declaration) }

    /// The first of `options` that was given, for rules that refuse them together.
    public func firstGiven(_ options: [any DeclaresOption]) -> OptionDeclaration? {
        options.lazy.map(\.declaration).first { given($0) != nil }
    }

    /// An ``IntegerOption``: a whole number in its range.
    public func int(_ option: IntegerOption) throws(CoreError) -> Int? {
        guard let text = given(option.declaration) else { return nil }
        return try TypedValue.int(text, name: spelling(option.declaration), in: option.range, quoteLimit: 64)
    }

    /// A ``OptionDeclaration/Kind/number`` option.
    public func number(_ option: OptionDeclaration) throws(CoreError) -> Double? {
        guard let text = given(option) else { return nil }
        let value = try TypedValue.double(text, name: spelling(option), quoteLimit: 64)
        if case .number(let range) = option.kind, !range.contains(value) {
            throw .invalidNumber("\(spelling(option)) must be a number from \(TextFormat.scale(range.lowerBound)) to "
                                 + "\(TextFormat.scale(range.upperBound)), not '\(TextFormat.clipped(text))'")
        }
        return value
    }

    /// A `WxH` option.
    public func size(_ option: OptionDeclaration) throws(CoreError) -> PixelSize? {
        guard let text = given(option) else { return nil }
        do { return try PixelSize(parsing: text) } catch {
            throw .invalidSize("\(spelling(option)): \(TextFormat.clipped(error.description, 200))")
        }
    }

    /// A slot option: `WxH` (points) with no scale, or `WxH@Nx` with its scale.
    public func slot(_ option: OptionDeclaration) throws(CoreError) -> (points: PixelSize, scale: Double?)? {
        guard let text = given(option) else { return nil }
        let at = text.firstIndex(of: "@") ?? text.endIndex
        let sizeText = String(text[..<at])
        let points: PixelSize
        do { points = try PixelSize(parsing: sizeText) } catch {
            throw .invalidSize("\(spelling(option)): \(TextFormat.clipped(error.description, 200))")
        }
        guard at < text.endIndex else { return (points, nil) }
        var scaleText = Substring(text[text.index(after: at)...])
        if scaleText.last == "x" || scaleText.last == "X" { scaleText = scaleText.dropLast() }
        guard let scale = Double(scaleText), scale.isFinite else {
            throw .invalidSize("\(spelling(option)): '\(TextFormat.clipped(text))' is not WxH or WxH@Nx (for example 390x61@3x)")
        }
        try SlotMath.checkScale(scale)
        return (points, scale)
    }

    /// A ``OptionDeclaration/Kind/choice`` option as an enum; a near miss names the value meant.
    public func choice<Choice: RawRepresentable & CaseIterable>(_ option: OptionDeclaration, _ type: Choice.Type)
        throws(CoreError) -> Choice? where Choice.RawValue == String {
        guard let text = given(option) else { return nil }
        return try TypedValue.choice(text, name: spelling(option), type, quoteLimit: 64,
                                     mistakenValues: option.mistakenValues)
    }

    /// A ``OptionDeclaration/Kind/text`` option, at most its length.
    public func text(_ option: OptionDeclaration) throws(CoreError) -> String? {
        guard let text = given(option) else { return nil }
        if case .text(let maxLength) = option.kind, text.count > maxLength {
            throw .invalidValue("\(spelling(option)) is over \(maxLength) characters")
        }
        return text
    }

    /// A toggle: what was given, else its default.
    public func toggle(_ option: OptionDeclaration) throws(CoreError) -> Bool {
        guard let text = given(option) else { return option.defaultValue == "true" }
        return try TypedValue.bool(text, name: spelling(option), quoteLimit: 64)
    }

    /// A ``ByteSizeOption`` in bytes: in its range, a bare number counting its bare unit.
    public func bytes(_ option: ByteSizeOption) throws(CoreError) -> Int? {
        guard let text = given(option.declaration) else { return nil }
        return try Quantity.bytes(text, name: spelling(option.declaration), in: option.range,
                                  bareUnit: option.declaration.bareUnit)
    }

    /// A ``DurationOption`` in seconds, in its range.
    public func seconds(_ option: DurationOption) throws(CoreError) -> Double? {
        guard let text = given(option.declaration) else { return nil }
        return try Quantity.seconds(text, name: spelling(option.declaration), in: option.range)
    }

    /// A device of the table named by the option; a near miss names the device meant.
    public func device(_ option: OptionDeclaration) throws(CoreError) -> Device? {
        guard let name = given(option) else { return nil }
        if let device = Devices.named(name) { return device }
        let names = Devices.all.map(\.name)
        if let meant = KeySuggestion.nearest(to: name, in: names) {
            throw .invalidValue("\(spelling(option)) '\(TextFormat.clipped(name))' is not in the device table; "
                                 + "did you mean '\(meant)'?")
        }
        throw .invalidValue("\(spelling(option)) '\(TextFormat.clipped(name))' is not in the device table; one of: "
                             + names.joined(separator: ", "))
    }
}
