import CreativeCore
import CreativeImaging
#if canImport(Glibc)
import Glibc
#endif

/// The artwork `render` renders: the one file, the best of several (picked by the product's
/// selection rule for the request, from the headers alone), or the built-in test artwork.
enum RenderSources {
    /// The artwork, a name for it, and for a choice among several files the sentence that says
    /// which was picked and why.
    struct Picked {
        let source: ImageSource
        let stem: String
        /// The file read, nil for the test artwork.
        let path: String?
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

    static func pick(_ files: [String], request: RenderRequest, maxBytes: Int, maxPixels: Int) throws(CLIError) -> Picked {
        if files.filter({ $0 == "-" }).count > 1 { throw .usage("standard input ('-') can be read only once") }
        let (pixels, mode) = request.selection
        if files.isEmpty {
            if isatty(0) != 1, let piped = try pipedInput(maxBytes: maxBytes, maxPixels: maxPixels) {
                return piped
            }
            if request.settings.area != nil { throw .usage("give at least one FILE (the \(request.product) artwork)") }
            do {
                let artwork = try TestArtwork.source(for: pixels)
                return Picked(source: artwork, stem: "test-artwork-\(artwork.displayedSize)", path: nil, choice: nil)
            } catch { throw .imaging(error) }
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
