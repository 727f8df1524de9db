import CreativeCore
import CreativeImaging

/// `creative-tool test-artwork`: writes the public test artwork PNGs.
enum TestArtworkCommand: DeclaredCommand {
    static let name = "test-artwork"
    static let summary = "write the public test artwork PNGs (960x150, 1320x204, 2184x270)"
    static let outputDirectory = OptionDeclaration(
        "output_dir", .text(maxLength: 4096), placeholder: "DIR",
        help: "folder to write into (created if missing)", defaultValue: "the current folder", surfaces: .commandLine,
        mistakenNames: ["output", "o"])
    static let redraw = OptionDeclaration(
        "redraw", .toggle, help: "draw each PNG anew with this libvips (to change the artwork) instead of writing the "
            + "artwork built into the tool", defaultValue: "false", surfaces: .commandLine)
    static let declared = [outputDirectory, redraw, JobLimitOptions.quiet]
    static let help = CommandHelp(
        synopsis: ["[--output-dir DIR] [--redraw]"],
        notes: ["Writes the public artwork byte for byte as the tool has it built in (and `serve` serves it).",
                "Drawn anew, the bytes match only on the libvips series that drew the built-in files: fonts,",
                "Pango and the palette quantiser differ between libvips builds."],
        examples: ["--output-dir artwork"])

    static func run(_ arguments: ParsedArguments) throws(CLIError) -> Int32 {
        guard arguments.positionals.isEmpty else { throw .usage("unexpected argument '\(arguments.positionals[0])'") }
        let directory = arguments.value(outputDirectory.flag) ?? "."
        do { try FileIO.makeDirectory(directory) } catch {
            throw .failed(code: "io_error", message: "cannot create \(directory)")
        }
        for size in TestArtwork.sizes {
            let bytes: [UInt8]
            if arguments.flag(redraw.flag) {
                do { bytes = try TestArtwork.generate(size) } catch { throw .imaging(error) }
            } else {
                guard let builtIn = TestArtwork.embedded(size) else {
                    throw .imaging(.operationFailed("test artwork \(size) is not built in"))
                }
                bytes = builtIn
            }
            let path = directory + "/" + TestArtwork.fileName(for: size)
            try Inputs.write(bytes, to: path)
            if !arguments.flag(JobLimitOptions.quiet.flag) { try Streams.outEscaped("wrote \(path) (\(size), \(bytes.count) bytes)") }
        }
        return ExitCode.success
    }
}
