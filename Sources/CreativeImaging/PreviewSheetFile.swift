import CreativeCore

/// A preview sheet's file: PNG where it fits the product's limit (``PreviewSheet/fileLimit(_:)``:
/// flat art, text, the test artwork), else JPEG (photographs and gradients, whose sheet as PNG
/// took 7 to 44 MB), so that every sheet is a file a person opens and a zip answer can carry.
public struct SheetFile: Sendable {
    /// The file's bytes.
    public let bytes: [UInt8]
    /// `.png` or `.jpeg`.
    public let format: OutputFormat

    /// The file's extension, as the sheet's name ends: `png` or `jpg`.
    public var fileExtension: String { format.fileExtension }
    /// How it was written, for the manifest's `encoding`.
    public var encoding: String { format == .png ? "PNG" : "JPEG, quality \(SheetCanvas.jpegQuality)" }

    /// `sheet` as a PNG when its file fits `limit` bytes (its painting stops as soon as it does
    /// not), else as a JPEG.
    init(_ sheet: SheetCanvas, within limit: Int) throws(ImagingError) {
        if let png = try sheet.png(within: limit) {
            bytes = png
            format = .png
        } else {
            bytes = try sheet.jpeg()
            format = .jpeg
        }
    }
}

extension PreviewSheet {
    /// The most bytes a sheet's PNG may take before it is written as JPEG: 2 MB for a banner or
    /// companion job, 8 MB for an interstitial (both in decimal megabytes, so under either reading).
    public static func fileLimit(_ product: Product) -> Int {
        product.isFullScreen ? 8_000_000 : 2_000_000
    }

    /// The sheet's file name, `stem` with the extension of the format it was written in
    /// (`preview.png` or `preview.jpg`).
    public static func fileName(_ stem: String, _ file: SheetFile) -> String {
        "\(stem).\(file.fileExtension)"
    }

    /// Both names a sheet of `stem` may have: PNG's, then JPEG's.
    public static func fileNames(_ stem: String) -> [String] {
        [OutputFormat.png, .jpeg].map { "\(stem).\($0.fileExtension)" }
    }
}
