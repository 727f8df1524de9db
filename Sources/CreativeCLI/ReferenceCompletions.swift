import CreativeCore

/// The bash and zsh completion scripts: the commands, each command's flags, the choices of a
/// choice option, files and folders where a value names one; from the same declarations as `--help`.
enum ReferenceCompletions {
    private static func header(_ shell: String) -> String {
        "Written by 'creative-tool help --format \(shell)'; do not edit: scripts/generate-docs.sh rewrites it."
    }

    /// `complete -F _creative_tool creative-tool`: self-contained (no bash-completion helpers).
    static func bash() -> String {
        let commands = CommandLineTool.subcommands
        let names = commands.map { $0.name }.joined(separator: " ")
        let formats = CommandReference.Format.allCases.map { shellQuoted($0.rawValue) }.joined(separator: " ")
        var lines = [
            "# bash completion for creative-tool. " + header("bash"),
            "_creative_tool() {",
            "    local cur=\"${COMP_WORDS[COMP_CWORD]}\" prev=\"${COMP_WORDS[COMP_CWORD-1]}\" options=\"\"",
            "    local commands=\"\(names)\"",
            "    COMPREPLY=()",
            "    if [ \"$COMP_CWORD\" -eq 1 ]; then",
            "        mapfile -t COMPREPLY < <(compgen -W \"$commands help --help --version\" -- \"$cur\")",
            "        return 0",
            "    fi",
            "    case \"${COMP_WORDS[1]}\" in",
            "        help)",
            "            if [ \"$prev\" = --format ]; then _creative_tool_words \(formats); return 0; fi",
            "            options=\"--format\"",
            "            [ \"$COMP_CWORD\" -eq 2 ] && [[ \"$cur\" != -* ]] && _creative_tool_words \(commands.map { shellQuoted($0.name) }.joined(separator: " ")) ;;",
        ]
        for command in commands {
            lines.append("        \(command.name))")
            var valueCases: [String] = []
            for option in command.declared where !option.isFlag {
                switch CommandReference.valueKind(option) {
                case .file: valueCases.append("                \(option.flag)) mapfile -t COMPREPLY < <(compgen -f -- \"$cur\"); return 0 ;;")
                case .directory: valueCases.append("                \(option.flag)) mapfile -t COMPREPLY < <(compgen -d -- \"$cur\"); return 0 ;;")
                case .choices(let choices):
                    let words = choices.map(shellQuoted).joined(separator: " ")
                    valueCases.append("                \(option.flag)) _creative_tool_words \(words); return 0 ;;")
                case .other: continue
                }
            }
            if !valueCases.isEmpty { lines += ["            case \"$prev\" in"] + valueCases + ["            esac"] }
            if !command.actions.isEmpty {
                let words = command.actions.map(shellQuoted).joined(separator: " ")
                lines.append("            [ \"$COMP_CWORD\" -eq 2 ] && [[ \"$cur\" != -* ]] && { _creative_tool_words \(words); return 0; }")
            }
            let flags = command.declared.map(\.flag) + ["--help"]
            lines.append("            options=\"\(flags.joined(separator: " "))\" ;;")
        }
        lines += [
            "    esac",
            "    if [[ \"$cur\" == -* ]]; then mapfile -t COMPREPLY < <(compgen -W \"$options\" -- \"$cur\"); fi",
            "    return 0",
            "}",
            "# The words given (one argument each, spaces allowed) that start with the word being completed",
            "# as typed, unquoted: `iPhone\\ 1` and `\"iPhone 1` are both `iPhone 1`. Readline then quotes",
            "# what it inserts as it quotes a file name (`iPhone\\ 15`, or inside the open quote), so a",
            "# device name stays one argument.",
            "_creative_tool_words() {",
            "    local word cur=\"${COMP_WORDS[COMP_CWORD]}\"",
            "    cur=\"${cur#[\\\"\\']}\"",
            "    cur=\"${cur//\\\\/}\"",
            "    compopt -o filenames 2>/dev/null",
            "    for word in \"$@\"; do",
            "        [[ \"$word\" == \"$cur\"* ]] && COMPREPLY+=(\"$word\")",
            "    done",
            "}",
            "complete -o default -F _creative_tool creative-tool",
        ]
        return lines.joined(separator: "\n") + "\n"
    }

    /// `#compdef creative-tool`, for a folder on `fpath` (site-functions).
    static func zsh() -> String {
        let commands = CommandLineTool.subcommands
        var lines = [
            "#compdef creative-tool",
            "# zsh completion for creative-tool. " + header("zsh"),
            "_creative-tool() {",
            "    local state line",
            "    local -a commands",
            "    commands=(",
        ]
        lines += commands.map { "        " + shellQuoted("\($0.name):\($0.summary)") }
        lines += [
            "        'help:a command'\\''s help, or (--format) this reference'",
            "    )",
            "    _arguments -C '(- *)--help[the commands]' '(- *)--version[the version and the libvips loaded]' \\",
            "        '1: :->command' '*:: :->arguments'",
            "    case $state in",
            "        command) _describe -t commands 'creative-tool command' commands ;;",
            "        arguments)",
            "            case $words[1] in",
            "                help) _arguments '1:command:(\(commands.map { $0.name }.joined(separator: " ")))' "
                + "'--format[what to write]:format:(\(CommandReference.Format.allCases.map(\.rawValue).joined(separator: " ")))' ;;",
        ]
        for command in commands {
            var specs = command.declared.map(spec)
            specs.append("'(- *)--help[this command'\\''s options]'")
            if !command.actions.isEmpty { specs.append(shellQuoted("1:action:(\(command.actions.joined(separator: " ")))")) }
            if !command.help.operands.isEmpty { specs.append("'*:file:_files'") }
            lines.append("                \(command.name)) _arguments -s \\")
            lines += specs.dropLast().map { "                    \($0) \\" }
            lines.append("                    \(specs[specs.count - 1]) ;;")
        }
        lines += ["            esac ;;", "    esac", "}", "_creative-tool \"$@\""]
        return lines.joined(separator: "\n") + "\n"
    }

    /// One `_arguments` spec: `'--quality[JPEG or WebP quality, 1 to 100]:Q: '`.
    private static func spec(_ option: OptionDeclaration) -> String {
        let description = brief(option.help).replacing("[", with: "\\[").replacing("]", with: "\\]")
        var spec = (option.repeatable ? "*" : "") + option.flag + "[" + description + "]"
        if !option.isFlag {
            let message = String(option.placeholder.filter { !"[]:".contains($0) })
            switch CommandReference.valueKind(option) {
            case .file: spec += ":\(message):_files"
            case .directory: spec += ":\(message):_files -/"
            case .choices(let choices):
                let words = choices.map { $0.replacing(" ", with: "\\ ").replacing("(", with: "\\(").replacing(")", with: "\\)") }
                spec += ":\(message):(\(words.joined(separator: " ")))"
            case .other: spec += ":\(message): "
            }
        }
        return shellQuoted(spec)
    }

    /// The help up to its first `;` or `(`, at most 80 characters, for a completion menu.
    private static func brief(_ help: String) -> String {
        var text = Substring(help)
        if let stop = text.firstIndex(where: { $0 == ";" || $0 == "(" }) { text = text[..<stop] }
        if text.count > 80 { text = text.prefix(80) }
        return String(text.reversed().drop(while: { $0 == " " || $0 == "," || $0 == ":" }).reversed())
    }

    /// `'text'`, a `'` inside written `'\''`.
    private static func shellQuoted(_ text: String) -> String {
        "'" + text.replacing("'", with: "'\\''") + "'"
    }
}
