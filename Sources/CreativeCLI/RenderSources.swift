import CreativeCore
import CreativeImaging
#if canImport(Glibc)
import Glibc
#endif

/// The file `render` renders: the one file, or the best of several (picked by the product's
/// selection rule for the request, from the headers alone), or standard input's bytes; none
/// leaves the render its test artwork (``RenderOperation``). Which files are read, how far, and
/// what standard error says of those left out is the command line's: the service takes one body.
enum RenderSources {
    /// The artwork opened from the file, a name for it, and for a choice among several files the
    /// sentence that says which was picked and why.
    struct Picked {
        let source: ImageSource
        let stem: String
        /// The file read (`-` for standard input).
        let path: String
        let choice: String?
    }

    /// Standard input as the one artwork when it gives bytes (a pipe, a redirected file); nil
    /// when it is empty (`< /dev/null`, a closed pipe), which leaves the test artwork.
    private static func pipedInput(maxBytes: Int, maxPixels: Int) throws(CLIError) -> Picked? {
        let bytes = try Inputs.readBytes("-", maxBytes: maxBytes)
        guard !bytes.isEmpty else { return nil }
        do {
            let source = try Validator.renderSource(bytes, fileName: "-", maxPixels: maxPixels)
            return Picked(source: source, stem: RenderCommand.stem(of: "-"), path: "-", choice: nil)
        } catch {
            throw .imaging(error, file: "standard input")
        }
    }

    /// The file picked, or nil when none is given and standard input gives no bytes.
    static func pick(_ files: [String], request: RenderRequest, maxBytes: Int, maxPixels: Int) throws(CLIError) -> Picked? {
        if files.filter({ $0 == "-" }).count > 1 { throw .usage("standard input ('-') can be read only once") }
        let (pixels, mode) = request.selection
        if files.isEmpty {
            return isatty(0) != 1 ? try pipedInput(maxBytes: maxBytes, maxPixels: maxPixels) : nil
        }
        if files.count == 1 {
            return Picked(source: try Inputs.openSource(files[0], maxBytes: maxBytes, maxPixels: maxPixels),
                          stem: RenderCommand.stem(of: files[0]), path: files[0], choice: nil)
        }
        // Only the winner is opened. Standard input cannot be read twice, so its source is kept
        // (there is at most one). A file over the read limit drops out of the choice (a note
        // says so); the others still compete.
        var candidates: [(path: String, size: PixelSize)] = []
        var standardInput: ImageSource?
        for path in files {
            guard let candidate = try Inputs.candidate(path, maxBytes: maxBytes, maxPixels: maxPixels) else { continue }
            if path == "-" { standardInput = candidate.source }
            candidates.append((path, candidate.size))
        }
        guard !candidates.isEmpty else {
            throw .failed(code: ValidationCode.fileTooLarge.rawValue,
                          message: "every candidate is over the read limit of \(maxBytes) bytes (--max-bytes)")
        }
        let result: SelectionResult
        do {
            result = try Selection.select(candidates.map(\.size), mode: mode, width: pixels.width,
                                          height: pixels.height, product: request.product)
        } catch {
            throw .failed(code: "no_eligible_creative", message: error.description)
        }
        let path = candidates[result.winner].path
        let choice = "picked \(path) (\(candidates[result.winner].size)) of \(files.count) files by the \(mode.rawValue) "
            + "rule for \(pixels) px" + (candidates.count < files.count ? "; \(files.count - candidates.count) left out" : "")
        let source: ImageSource
        if path == "-", let standardInput {
            source = standardInput
        } else {
            source = try Inputs.openSource(path, maxBytes: maxBytes, maxPixels: maxPixels)
        }
        return Picked(source: source, stem: RenderCommand.stem(of: path), path: path, choice: choice)
    }
}
