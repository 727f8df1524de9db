import CreativeCore
import CreativeImaging

/// A render (`creative-tool render`, `POST /v1/render`), put together here once: whether it has
/// the artwork it needs, which artwork it renders (the creative, or the built-in test artwork
/// picked for the canvas), what it is charged, the render, the notes on an artwork `validate`
/// would reject, and what a failure is. The surfaces read the ``RenderRequest`` and the input,
/// and present the ``Outcome``.
///
/// In three steps, so that a surface can charge the job before it runs it: ``init(_:input:)``
/// refuses a render without the artwork it needs before any work, ``open()`` opens the artwork
/// from its header (``cost(_:memoryBudget:)`` is charged from it, its ``Artwork/notes`` read from it once),
/// ``run(_:limits:)`` renders.
public struct RenderOperation: Sendable {
    /// The artwork a render is given.
    public enum Input: Sendable {
        /// Uploaded bytes (the service's body), opened by the operation: an image, or an HTML5
        /// bundle's static version; a rejection's report is made on them. No bytes is no artwork:
        /// as ``none``.
        case upload(Upload)
        /// Artwork the caller opened itself (the command line opens the file it read, or the one
        /// picked among several from their headers); a rejection carries no report.
        case opened(ImageSource)
        /// No artwork: the built-in test artwork picked for the canvas.
        case none
    }

    /// The artwork opened for the render.
    public struct Artwork: Sendable {
        public let source: ImageSource
        /// Whether it is the built-in test artwork (no artwork was given).
        public let isTestArtwork: Bool
        /// What the surfaces say before or beside the render, made once when the artwork is
        /// opened: one sentence per reason `validate` would reject it
        /// (``RenderNotes/rejections(_:request:maxBytes:)``; none for the test artwork), and
        /// `upscaled_render` when the canvas enlarges it more than 2x (``RenderOperation/upscaled(_:)``).
        public let notes: [String]
    }

    /// A finished render.
    public struct Rendered: Sendable {
        /// The file, its format and how it was encoded.
        public let encoded: EncodedRender
        /// Where the artwork sits on the canvas.
        public let placement: Placement
        /// The artwork's size as displayed (after its EXIF orientation).
        public let artwork: PixelSize
        /// One sentence per reason `validate` would reject the artwork (``RenderNotes``); none
        /// for the test artwork.
        public let notes: [String]
    }

    /// A render, or why there is none.
    public typealias Outcome = Result<Rendered, OperationError>

    public let request: RenderRequest
    public let input: Input

    /// - Throws: ``OperationError/needsArtwork(_:)`` when no artwork is given (no input, or an
    ///   upload of no bytes) and the request fits it in a full screen's safe area.
    public init(_ request: RenderRequest, input: Input) throws(OperationError) {
        self.request = request
        self.input = input
        if givesNoArtwork, request.settings.area != nil { throw .needsArtwork(request.product) }
    }

    /// Whether no artwork was given: the test artwork stands in.
    private var givesNoArtwork: Bool {
        switch input {
        case .upload(let upload): upload.bytes.isEmpty
        case .opened: false
        case .none: true
        }
    }

    /// Opens the artwork from its header (nothing is decoded): the upload's source (a bundle is
    /// validated for its static version), the caller's, or the test artwork the adaptive rule
    /// picks for the canvas; or the error opening it (a damaged upload, a rejected bundle).
    public func open() -> Result<Artwork, ImagingError> {
        do throws(ImagingError) {
            switch input {
            case .upload(let upload) where !upload.bytes.isEmpty:
                return .success(artwork(try Validator.renderSource(upload), isTestArtwork: false))
            case .opened(let source):
                return .success(artwork(source, isTestArtwork: false))
            case .upload, .none:
                return .success(artwork(try TestArtwork.source(for: request.settings.canvas), isTestArtwork: true))
            }
        } catch {
            return .failure(error)
        }
    }

    /// The job's whole cost (``JobCost/render(_:settings:memoryBudget:)``: decode, resampling
    /// window, canvas, encoders) from the artwork's header.
    public func cost(_ artwork: Artwork, memoryBudget: Int) -> JobCost {
        JobCost.render(artwork.source, settings: request.settings, memoryBudget: memoryBudget)
    }

    /// `source` opened as the render's artwork, with its notes (``Artwork/notes``).
    private func artwork(_ source: ImageSource, isTestArtwork: Bool) -> Artwork {
        let rejections = isTestArtwork ? [] : RenderNotes.rejections(source, request: request)
        return Artwork(source: source, isTestArtwork: isTestArtwork,
                       notes: rejections + (upscaled(source.displayedSize).map { [$0.note] } ?? []))
    }

    /// The render's `upscaled_render`: its artwork enlarged more than 2x in the canvas, or nil.
    public func upscaled(_ artwork: PixelSize) -> UpscaledRender? {
        UpscaledRender(artwork: artwork, shown: request.settings.placement(of: artwork).content)
    }

    /// Renders the artwork ``open()`` gave within `limits`: one deadline for the render and, when
    /// it fails, the report made on the upload. An artwork that could not be opened fails as a
    /// render of it would.
    public func run(_ opened: Result<Artwork, ImagingError>, limits: JobLimits) -> Outcome {
        limits.asJob { limits in
            do throws(ImagingError) {
                let artwork = try opened.get()
                let source = artwork.source
                let encoded = try Renderer.render(source, settings: request.settings, limits: limits)
                return .success(Rendered(encoded: encoded, placement: request.settings.placement(of: source.displayedSize),
                                         artwork: source.displayedSize, notes: artwork.notes))
            } catch {
                return .failure(failure(error, limits: limits))
            }
        }
    }

    /// A failed render as a surface presents it (``OperationError``). A processing failure on the
    /// test artwork is the tool's own, said with its code.
    private func failure(_ error: ImagingError, limits: JobLimits) -> OperationError {
        if givesNoArtwork, case .operationFailed = error { return .fault(error, message: error.description) }
        switch (input, error) {
        case (.upload(let upload), _): return .rejection(error, upload: upload, product: request.product, limits: limits)
        case (_, .timeout), (_, .cancelled): return .stopped(error)
        default: return .rejected(error, report: nil)
        }
    }
}
