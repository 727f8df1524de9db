import CreativeCore

/// The published reference of every command, written from the same declarations as `--help`
/// (``DeclaredCommand``): `creative-tool help --format markdown|man|bash|zsh` prints
/// `docs/commands.md`, the man page `creative-tool.1`, or a shell's completion script.
enum CommandReference {
    /// The formats `help --format` writes.
    enum Format: String, CaseIterable {
        case markdown, man, bash, zsh
    }

    /// The whole document of one format.
    static func text(_ format: Format) -> String {
        switch format {
        case .markdown: return ReferenceMarkdown.document()
        case .man: return ReferenceManPage.document()
        case .bash: return ReferenceCompletions.bash()
        case .zsh: return ReferenceCompletions.zsh()
        }
    }

    /// What the value is read as: `integer`, `one of`, `size in bytes`, ...
    static func kind(_ option: OptionDeclaration) -> String {
        switch option.kind {
        case .integer: return "integer"
        case .number: return "number"
        case .size: return "size WxH"
        case .slot: return "slot WxH or WxH@Nx"
        case .choice: return "one of"
        case .text: return "text"
        case .toggle: return "flag"
        case .byteSize: return "size"
        case .duration: return "duration"
        }
    }

    /// The values it takes: `1 to 100`, the choices, at most N characters; empty for none.
    static func range(_ option: OptionDeclaration) -> String {
        switch option.kind {
        case .integer(let range): return "\(range.lowerBound) to \(range.upperBound)"
        case .number(let range): return "\(TextFormat.scale(range.lowerBound)) to \(TextFormat.scale(range.upperBound))"
        case .choice(let names): return names.joined(separator: ", ")
        case .text(let maxLength): return "at most \(maxLength) characters"
        case .byteSize(let range): return "\(Quantity.describe(bytes: range.lowerBound)) to \(Quantity.describe(bytes: range.upperBound))"
        case .duration(let range):
            let lower = range.lowerBound > 0 && range.lowerBound < 0.001 ? "more than 0" : TextFormat.scale(range.lowerBound) + " s"
            return "\(lower) to \(TextFormat.scale(range.upperBound)) s"
        case .size, .slot, .toggle: return ""
        }
    }

    /// The unit the kind itself fixes (a slot's points, bytes, seconds); empty when the help says it.
    static func unit(_ option: OptionDeclaration) -> String {
        switch option.kind {
        case .slot: return "points (pixels = points x scale)"
        case .byteSize:
            let bare = option.bareUnit == 1 << 20 ? "MiB" : option.bareUnit == 1 ? "bytes" : "\(option.bareUnit) bytes"
            return "bytes; K, M, G suffixes (powers of 1024); a bare number counts \(bare)"
        case .duration: return "seconds; ms, s, m suffixes"
        default: return ""
        }
    }

    /// The default in words: the value, `on`/`off` for a flag; empty when there is none.
    static func defaultValue(_ option: OptionDeclaration) -> String {
        guard let value = option.defaultValue else { return "" }
        if option.isFlag { return value == "true" ? "on (this flag turns it off)" : "off" }
        return value
    }

    /// `all`, or the products named.
    static func products(_ option: OptionDeclaration) -> String {
        option.products.isEmpty ? "all" : option.products.map(\.rawValue).joined(separator: ", ")
    }

    /// `--quality Q`, `--no-enlarge`.
    static func spelling(_ option: OptionDeclaration) -> String {
        option.flag + (option.placeholder.isEmpty ? "" : " " + option.placeholder)
    }

    /// The notes of a help page, line by line as `--help` breaks them (sentences, lists, wrapped lines).
    static func notes(_ help: CommandHelp) -> [String] {
        help.notes.map { String($0.drop(while: { $0 == " " })) }.filter { !$0.isEmpty }
    }

    /// What the value names on disk, for completion.
    enum ValueKind { case file, directory, choices([String]), other }

    static func valueKind(_ option: OptionDeclaration) -> ValueKind {
        if option.placeholder == "DIR" || option.name.hasSuffix("_dir") { return .directory }
        if case .text = option.kind, option.name == "output" || option.name.hasSuffix("file") { return .file }
        if case .choice(let names) = option.kind { return .choices(names) }
        return .other
    }
}
