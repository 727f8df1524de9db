import CreativeCore

/// One uploaded file as a job holds it from its validation through its renders: the bytes, the
/// source opened from them once (or why it could not be opened), and the validation report once
/// it is made. The service sizes a job's memory reservation from this source, the validator and
/// the renders use the same one, and a failed job's rejection reuses the report already made
/// (docs/cost-model.md, "One decode per job").
public final class Upload: @unchecked Sendable {
    /// The bytes as given.
    public let bytes: [UInt8]
    /// The name the report carries (only a label, never opened).
    public let fileName: String
    private let lock = Lock()
    private var opened: (pixelCap: Int, result: Result<ImageSource, ImagingError>)?
    private var madeReport: ValidationReport?

    public init(_ bytes: [UInt8], fileName: String) {
        self.bytes = bytes
        self.fileName = fileName
    }

    /// The image opened from the bytes (``ImageSource``, header only), the first time it is asked
    /// for; the same source, or the same failure, afterwards. Opened again only for another pixel cap.
    public func source(maxPixels: Int = Catalog.defaultMaxPixels) -> Result<ImageSource, ImagingError> {
        lock.locked {
            if let opened, opened.pixelCap == maxPixels { return opened.result }
            let result: Result<ImageSource, ImagingError>
            do throws(ImagingError) {
                result = .success(try ImageSource(bytes: bytes, maxPixels: maxPixels))
            } catch {
                result = .failure(error)
            }
            opened = (maxPixels, result)
            return result
        }
    }

    /// The validation report, once ``Validator`` made one for these bytes.
    public var report: ValidationReport? { lock.locked { madeReport } }

    func record(_ report: ValidationReport) { lock.locked { madeReport = report } }
}
