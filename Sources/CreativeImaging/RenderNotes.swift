import CreativeCore

/// What `render` says about an artwork it renders although `validate` would reject it: the
/// CLI's notes on standard error, `render --json`'s `note`, the service's `X-Creative-Note`.
/// Only the checks that read no pixels run (the render decodes them anyway): the size on disk
/// (`file_too_large`), animation (`animated`) and the catalog size (`dimensions_not_allowed`).
public enum RenderNotes {
    /// One sentence per rejection, each naming its code; empty when validate's cheap checks pass.
    public static func rejections(_ source: ImageSource, request: RenderRequest,
                                  maxBytes: Int = Catalog.defaultMaxBytes) -> [String] {
        var report = ValidationReport(file: "", product: request.product)
        if source.bytes.count > maxBytes {
            report.add(.fileTooLarge, Validator.tooLargeMessage(source.bytes.count, limit: maxBytes))
        }
        Validator.checkAnimation(source, bytes: source.bytes, report: &report)
        var notes = report.errors.map { "validate would reject it (\($0.code.rawValue)): \($0.message)" }
        if let size = request.note(forArtwork: source.displayedSize) { notes.append(size) }
        return notes
    }
}
