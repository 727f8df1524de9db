import CreativeCore
import CreativeImaging

/// `creative-tool test-artwork`: writes the public test artwork PNGs.
enum TestArtworkCommand: Subcommand {
    static let name = "test-artwork"
    static let summary = "write the public test artwork PNGs (960x150, 1320x204, 2184x270)"
    static let usage = """
    usage: creative-tool test-artwork [--output-dir DIR] [--redraw]
      --output-dir DIR  folder to write into (default: the current folder; created if missing)
      --redraw          draw each PNG anew with this libvips (to change the artwork) instead of
                        writing the artwork built into the tool
    Writes the public artwork byte for byte as the tool has it built in (and `serve` serves it).
    Drawn anew, the bytes match only on the libvips series that drew the built-in files: fonts,
    Pango and the palette quantiser differ between libvips builds.
    """
    static let options: Set<String> = ["--output-dir"]
    static let flags: Set<String> = ["--redraw"]

    static func run(_ arguments: ParsedArguments) throws(CLIError) -> Int32 {
        guard arguments.positionals.isEmpty else { throw .usage("unexpected argument '\(arguments.positionals[0])'") }
        let directory = arguments.value("--output-dir") ?? "."
        do { try FileIO.makeDirectory(directory) } catch {
            throw .failed(code: "io_error", message: "cannot create \(directory)")
        }
        for size in TestArtwork.sizes {
            let bytes: [UInt8]
            if arguments.flag("--redraw") {
                do { bytes = try TestArtwork.generate(size) } catch { throw .imaging(error) }
            } else {
                guard let builtIn = TestArtwork.embedded(size) else {
                    throw .imaging(.operationFailed("test artwork \(size) is not built in"))
                }
                bytes = builtIn
            }
            let path = directory + "/" + TestArtwork.fileName(for: size)
            try Inputs.write(bytes, to: path)
            try Streams.outEscaped("wrote \(path) (\(size), \(bytes.count) bytes)")
        }
        return ExitCode.success
    }
}
