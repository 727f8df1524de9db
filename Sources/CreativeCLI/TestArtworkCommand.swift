import CreativeCore
import CreativeImaging

/// `creative-tool test-artwork`: writes the public test artwork PNGs.
enum TestArtworkCommand: Subcommand {
    static let name = "test-artwork"
    static let summary = "write the public test artwork PNGs (960x150, 1320x204, 2184x270)"
    static let usage = """
    usage: creative-tool test-artwork [--output-dir DIR]
      --output-dir DIR  folder to write into (default: the current folder; created if missing)
    Draws each PNG anew; the result is byte-identical to the artwork built into the tool.
    """
    static let options: Set<String> = ["--output-dir"]
    static let flags: Set<String> = []

    static func run(_ arguments: ParsedArguments) throws(CLIError) -> Int32 {
        guard arguments.positionals.isEmpty else { throw .usage("unexpected argument '\(arguments.positionals[0])'") }
        let directory = arguments.value("--output-dir") ?? "."
        do { try FileIO.makeDirectory(directory) } catch {
            throw .failed(code: "io_error", message: "cannot create \(directory)")
        }
        for size in TestArtwork.sizes {
            let bytes: [UInt8]
            do { bytes = try TestArtwork.generate(size) } catch { throw .imaging(error) }
            let path = directory + "/" + TestArtwork.fileName(for: size)
            try Inputs.write(bytes, to: path)
            try Streams.outEscaped("wrote \(path) (\(size), \(bytes.count) bytes)")
        }
        return ExitCode.success
    }
}
