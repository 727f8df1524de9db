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
    private var inspected: ImageSource?

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

    /// The report and, for a valid creative, the image its renders are made from (the source
    /// opened from the bytes, or a bundle's static version), once ``Validator`` inspected these
    /// bytes; nil before. A campaign's approval is this, passed down to its render.
    public var inspection: (report: ValidationReport, source: ImageSource?)? {
        lock.locked { madeReport.map { ($0, $0.valid ? inspected : nil) } }
    }

    /// Lets go of the pixels a strict decode kept in the sources these bytes opened (the upload's
    /// own, and the one its inspection handed back): a campaign's approval that keeps only bytes.
    public func releasePixels() {
        let sources = lock.locked { [inspected, try? opened?.result.get()] }
        for source in sources { source?.releasePixels() }
    }

    func record(_ report: ValidationReport, source: ImageSource? = nil) {
        lock.locked {
            madeReport = report
            inspected = source
        }
    }
}
