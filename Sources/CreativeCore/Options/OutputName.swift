/// An output name as `render --output` takes it: the file name, and save options in brackets
/// after it as libvips writes them (`banner.jpg[Q=60]`, `banner.webp[lossless]`,
/// `banner.webp[effort=6,Q=90]`).
///
/// Each save option stands for a render option and is read as that option's flag would be
/// (``options(over:)``): `Q` is `--quality`, `lossless` is `--lossless`, `effort` is `--effort`.
/// A name that does not end in `]` has no options (`out[1].png` is a file name).
public struct OutputName: Sendable, Equatable {
    /// The file to write, without the bracketed options.
    public let path: String
    /// The options in the brackets: the render option's name and its text, in the order given.
    public let saveOptions: [(name: String, text: String)]
    /// The name as given, for messages.
    public let given: String

    /// The save options a name may carry and the render option each stands for.
    public static let keys: [(key: String, option: String)] = [("Q", "quality"), ("lossless", "lossless"),
                                                                 ("effort", "effort")]

    /// Splits `text` into the file name and its save options.
    /// - Throws: ``CoreError/invalidRequest(_:)`` for an empty name, an unknown or repeated key.
    public init(parsing text: String) throws(CoreError) {
        given = text
        guard text.hasSuffix("]"), let open = text.lastIndex(of: "["), !text[open...].contains("/") else {
            path = text
            saveOptions = []
            return
        }
        path = String(text[..<open])
        guard !path.isEmpty else { throw .invalidRequest("output '\(TextFormat.clipped(text))' names no file before '['") }
        var found: [(name: String, text: String)] = []
        let inside = text[text.index(after: open)..<text.index(before: text.endIndex)]
        for item in inside.split(separator: ",", omittingEmptySubsequences: true) {
            let parts = item.split(separator: "=", maxSplits: 1, omittingEmptySubsequences: false)
            let key = parts[0].trimmingSpaces
            let known = Self.keys.map(\.key)
            guard let entry = Self.keys.first(where: { $0.key.lowercased() == key.lowercased() }) else {
                let meant = KeySuggestion.nearest(to: key, in: known).map { "; did you mean '\($0)'?" } ?? ""
                throw .invalidRequest("output '\(TextFormat.clipped(text))': unknown save option '"
                                      + "\(TextFormat.clipped(key))'\(meant) (known: \(known.joined(separator: ", ")))")
            }
            guard !found.contains(where: { $0.name == entry.option }) else {
                throw .invalidRequest("output '\(TextFormat.clipped(text))' gives \(entry.key) twice")
            }
            // A bare key is a switch turned on: `[lossless]`.
            found.append((entry.option, parts.count == 2 ? parts[1].trimmingSpaces : "true"))
        }
        saveOptions = found
    }

    /// The options of `base` with this name's save options added, each read as if its flag were
    /// given (``SaveOptionSource/checkAgreement(_:)`` refuses a flag that says otherwise).
    public func options<Base: OptionSource>(over base: Base) -> SaveOptionSource<Base> {
        SaveOptionSource(base: base, name: self)
    }

    public static func == (lhs: OutputName, rhs: OutputName) -> Bool { lhs.given == rhs.given }
}

/// A render's options with the save options of its output name (``OutputName``) added.
public struct SaveOptionSource<Base: OptionSource>: OptionSource {
    let base: Base
    let name: OutputName

    public func given(_ option: OptionDeclaration) -> String? { saved(option) ?? base.given(option) }

    public func every(_ option: OptionDeclaration) -> [String] { base.every(option) }

    public func spelling(_ option: OptionDeclaration) -> String {
        guard saved(option) != nil, let key = OutputName.keys.first(where: { $0.option == option.name })?.key else {
            return base.spelling(option)
        }
        return "\(key) in '\(TextFormat.clipped(name.given))'"
    }

    private func saved(_ option: OptionDeclaration) -> String? {
        name.saveOptions.first(where: { $0.name == option.name })?.text
    }

    /// Refuses a save option whose flag is given too with another value (`o.jpg[Q=60] --quality 80`).
    /// - Throws: ``CoreError/invalidRequest(_:)``.
    public func checkAgreement(_ options: [OptionDeclaration]) throws(CoreError) {
        for option in options {
            guard let saved = saved(option), let flagged = base.given(option) else { continue }
            if saved.lowercased() != flagged.lowercased() {
                throw .invalidRequest("\(spelling(option)) and \(base.spelling(option)) \(option.isFlag ? "" : flagged + " ")"
                                      + "disagree; give the option once")
            }
        }
    }
}

extension Substring {
    /// Without spaces at either end.
    fileprivate var trimmingSpaces: String {
        String(drop(while: { $0 == " " }).reversed().drop(while: { $0 == " " }).reversed())
    }
}
