import CreativeCore
import CreativeImaging

/// `fix` (`creative-tool fix`, `POST /v1/fix`): an upload-ready file from one that almost passes,
/// put together here once: the upload opened (one image, not a bundle), the charge from its
/// header, the output formats (the one asked for or named, else the input's with JPEG and WebP after
/// it), the fix (``Fixer``),
/// and its failures told apart. The surfaces read the upload and present the fixed file.
public struct FixOperation: Sendable {
    public let request: FixRequest
    /// The largest image opened, in pixels.
    public let maxPixels: Int

    public init(_ request: FixRequest, maxPixels: Int = Catalog.defaultMaxPixels) {
        self.request = request
        self.maxPixels = maxPixels
    }

    /// The upload opened, its header only (``Fixer/open(_:maxPixels:)``), once for the charge and the fix.
    public func open(_ upload: Upload) -> Result<ImageSource, ImagingError> {
        Fixer.open(upload, maxPixels: maxPixels)
    }

    /// The memory the fix of `upload` holds at its peak, from its header alone, within
    /// `memoryBudget` (``Fixer/plannedCost(_:request:memoryBudget:)``); 0 for an upload refused
    /// before anything is decoded.
    public func memory(_ upload: Upload, memoryBudget: Int) -> Int {
        guard case .success(let source) = open(upload) else { return 0 }
        return Fixer.plannedCost(source, request: request, memoryBudget: memoryBudget)?.memory ?? 0
    }

    /// The fix of `upload` within `limits` (one deadline for the fix and a failure's report),
    /// written under `outputName` (nil: `fixed.` and the format's extension).
    /// - Throws: ``OperationError/invalidRequest(_:)`` for a request the upload cannot meet (a
    ///   frame it lacks); else the failure as
    ///   ``OperationError/rejection(_:upload:product:profiles:limits:)`` tells it (a refused fix: rejected with the
    ///   upload's report).
    public func run(_ upload: Upload, outputName: String? = nil, limits: JobLimits) throws(OperationError) -> FixedUpload {
        try limits.asJob { (limits) throws(OperationError) in try fixing(upload, outputName: outputName, limits: limits) }
    }

    /// ``run(_:outputName:limits:)`` with the job's deadline started and bound.
    private func fixing(_ upload: Upload, outputName: String?, limits: JobLimits) throws(OperationError) -> FixedUpload {
        let source: ImageSource
        do throws(ImagingError) { source = try open(upload).get() } catch {
            throw .rejection(error, upload: upload, product: request.product, profiles: request.profiles, limits: limits)
        }
        let formats = request.outputFormats(for: source.format)
        do throws(ImagingError) {
            return try Fixer.fix(source, request: request, format: formats[0], fallbacks: Array(formats.dropFirst()),
                                 formatReason: request.formatReason(for: source.format), outputName: outputName,
                                 limits: limits)
        } catch .unfixable(let refusal) where refusal.isUsage {
            throw .invalidRequest(refusal.message)
        } catch {
            throw .rejection(error, upload: upload, product: request.product, profiles: request.profiles, limits: limits)
        }
    }
}
