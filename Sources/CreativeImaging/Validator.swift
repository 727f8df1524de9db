import CVips
import CreativeBundle
import CreativeCore

/// Limits of one validation run.
public struct ValidationLimits: Sendable {
    /// Largest accepted file, in bytes (`file_too_large` above it).
    public var maxBytes: Int
    /// Largest accepted width x height, decided from the header (`too_many_pixels` above it).
    public var maxPixels: Int
    /// The memory budget and deadline of the decode (and of `process`'s renders).
    public var job: JobLimits
    /// The product whose sizes are accepted (`dimensions_not_allowed` for any other).
    public var product: Product
    /// Runs the pre-flight checks on the pixels of a decoded creative (``Preflight``); the CLI's
    /// `--no-preflight` turns them off (and with them a profile's border rule).
    public var preflight = true
    /// The platform profiles whose rules are checked (`--profile`, docs/profiles.md); empty for the
    /// default, the product's own checks. A profile's size list replaces the product's.
    public var profiles: [PlatformProfile] = []

    public init(maxBytes: Int = Catalog.defaultMaxBytes, maxPixels: Int = Catalog.defaultMaxPixels,
                job: JobLimits = JobLimits(), product: Product = .defaultProduct) {
        self.maxBytes = maxBytes
        self.maxPixels = maxPixels
        self.job = job
        self.product = product
    }

    /// ``JobLimits/asJob(_:)`` for a validation's limits: `work` runs with the job's deadline started and bound.
    public func asJob<Result, Failure: Error>(_ work: (ValidationLimits) throws(Failure) -> Result) throws(Failure) -> Result {
        try job.asJob { (job) throws(Failure) in
            var limits = self
            limits.job = job
            return try work(limits)
        }
    }
}

/// Checks an upload, cheapest first, so nothing hostile is decoded (docs/reference.md, "validate"):
/// size on disk -> format from the bytes -> header (pixel cap, allowed size, JPEG scan count) ->
/// animation -> a strict full decode (libpng for PNG, libvips for the rest) -> colour and weight
/// warnings. Every problem found by the checks that apply is reported, not only the first. The
/// strict decode runs only for a size the catalog accepts, within the memory budget and the
/// deadline; a report says whether it ran (`decoded`).
public enum Validator {
    /// Validates a whole file held in memory. `fileName` is only used for the report and
    /// the extension check; the format always comes from the bytes.
    /// `totalBytes` is the file's real size when `bytes` is only its beginning (a file over the limit).
    public static func validate(_ bytes: [UInt8], fileName: String, limits: ValidationLimits = ValidationLimits(),
                                totalBytes: Int? = nil) -> ValidationReport {
        inspect(bytes, fileName: fileName, limits: limits, totalBytes: totalBytes).report
    }

    /// Validates and, for a valid creative, hands back the opened source, so a job that renders
    /// next (`process`) does not open the bytes a second time.
    /// A zip is an HTML5 bundle: checked by ``BundleValidator``, and its source is the bundle's
    /// static version.
    public static func inspect(_ bytes: [UInt8], fileName: String, limits: ValidationLimits = ValidationLimits(),
                               totalBytes: Int? = nil) -> (report: ValidationReport, source: ImageSource?) {
        inspect(Upload(bytes, fileName: fileName), limits: limits, totalBytes: totalBytes)
    }

    /// ``inspect(_:fileName:limits:totalBytes:)`` on an upload a job holds: its source is the one
    /// the upload already opened (for the service's reservation, or a render), and the report is
    /// recorded in it (``Upload/report``) for a rejection to reuse.
    public static func inspect(_ upload: Upload, limits: ValidationLimits = ValidationLimits(),
                               totalBytes: Int? = nil) -> (report: ValidationReport, source: ImageSource?) {
        DecodeLedger.noteValidation()
        let inspection = inspect(upload, limits: limits, totalBytes: totalBytes, anySize: false)
        upload.record(inspection.report, source: inspection.source)
        return inspection
    }

    /// ``validate(_:fileName:limits:totalBytes:)`` on an upload a job holds (``inspect(_:limits:totalBytes:)``).
    public static func validate(_ upload: Upload, limits: ValidationLimits = ValidationLimits()) -> ValidationReport {
        inspect(upload, limits: limits).report
    }

    /// True when the bytes are a zip: an HTML5 bundle.
    public static func isBundle(_ bytes: [UInt8]) -> Bool { BundleValidator.looksLikeZip(bytes) }

    /// A bundle's static version opened (header only) as its validation would open it to be
    /// rendered, from the zip alone, before the bundle is checked: what a job on the bundle is
    /// charged for beside the check. Nil without one, or one that cannot be opened.
    public static func bundleStaticSource(_ bytes: [UInt8], maxPixels: Int = Catalog.defaultMaxPixels) -> ImageSource? {
        guard let still = BundleValidator.staticVersion(bytes) else { return nil }
        return try? ImageSource(bytes: still, maxPixels: min(maxPixels, BundleImageLimits.maxPixels))
    }

    /// The image to render for an upload: the image itself, or a valid bundle's static version.
    /// - Throws: what opening the image throws, or ``ImagingError/rejectedBundle(_:)`` for a
    ///   bundle that does not validate.
    public static func renderSource(_ bytes: [UInt8], fileName: String,
                                    maxPixels: Int = Catalog.defaultMaxPixels) throws(ImagingError) -> ImageSource {
        try renderSource(Upload(bytes, fileName: fileName), maxPixels: maxPixels)
    }

    /// ``renderSource(_:fileName:maxPixels:)`` for an upload a job holds: the image is the source
    /// the upload opened; a bundle's report is recorded in the upload.
    public static func renderSource(_ upload: Upload,
                                    maxPixels: Int = Catalog.defaultMaxPixels) throws(ImagingError) -> ImageSource {
        guard isBundle(upload.bytes) else { return try upload.source(maxPixels: maxPixels).get() }
        let (report, source) = inspect(upload, limits: ValidationLimits(maxPixels: maxPixels))
        guard let source else {
            throw .rejectedBundle(report.errors.first ?? ValidationIssue(.corruptBundle, "no static version to render"))
        }
        return source
    }

    /// `anySize`: an image inside a bundle, whose size is the ad's business; it is decoded
    /// strictly whatever its size, and no catalog size is required.
    /// `upload`: the bytes and where the source is opened (once per job).
    private static func inspect(_ upload: Upload, limits: ValidationLimits, totalBytes: Int?,
                                anySize: Bool) -> (report: ValidationReport, source: ImageSource?) {
        // One deadline for the whole job: a bundle's images count from the bundle's start.
        limits.asJob { limits in inspecting(upload, limits: limits, totalBytes: totalBytes, anySize: anySize) }
    }

    /// ``inspect(_:limits:totalBytes:anySize:)`` with the job's deadline started and bound.
    private static func inspecting(_ upload: Upload, limits: ValidationLimits, totalBytes: Int?,
                                   anySize: Bool) -> (report: ValidationReport, source: ImageSource?) {
        let (bytes, fileName) = (upload.bytes, upload.fileName)
        let deadline = limits.job.startDeadline()
        var report = ValidationReport(file: fileName, product: limits.product, profiles: anySize ? [] : limits.profiles)
        let size = totalBytes ?? bytes.count
        report.bytes = size
        guard size > 0 else {
            report.add(.emptyFile, "the file is empty; upload the exported image itself")
            return (report, nil)
        }
        let tooLarge = size > limits.maxBytes
        if tooLarge { report.add(.fileTooLarge, tooLargeMessage(size, limit: limits.maxBytes)) }
        if !anySize, BundleValidator.looksLikeZip(bytes) {
            return tooLarge ? (BundleValidator.refused(report), nil) : inspectBundle(bytes, report: report, limits: limits)
        }
        let format: ImageFormat
        switch ImageFormat.sniff(bytes) {
        case .notAnImage:
            report.add(.notAnImage, ImagingError.notAnImageMessage)
            return (report, nil)
        case .unsupported(let name):
            report.add(.unsupportedFormat, "\(name) is not accepted; export it as PNG, JPEG, GIF or WebP")
            return (report, nil)
        case .accepted(let accepted):
            format = accepted
        }
        report.format = format
        for profile in report.profiles {
            if let issue = ProfileChecks.formatIssue(format, profile: profile) { report.add(issue) }
        }
        if let issue = ValidationRules.extensionIssue(fileName: fileName, format: format) {
            report.add(issue.code, issue.message)
        }
        let claimed = HeaderProbe.dimensions(bytes, format: format)
        // Reports give the size as displayed, also for files that are never decoded.
        let shown = claimed.map { size in
            HeaderProbe.orientation(bytes, format: format) >= 5 ? PixelSize(width: size.height, height: size.width) : size
        }
        if let claimed, let shown, claimed.exceeds(pixelCap: limits.maxPixels) {
            report.dimensions = shown
            report.add(.tooManyPixels, "the header claims \(claimed) pixels, over the cap of \(limits.maxPixels); "
                       + "nothing was decoded")
            addDimensions(shown, to: &report)
            return (report, nil)
        }
        if let claimed, let shown, let issue = DecodeShapeIssue.check(claimed) {
            report.add(issue.code, issue.message(for: claimed))
            // A side of 0 is damage: no size to compare with the catalog's.
            if issue != .zeroSide {
                report.dimensions = shown
                addDimensions(shown, to: &report)
            }
            return (report, nil)
        }
        if tooLarge {
            if let shown {
                report.dimensions = shown
                addDimensions(shown, to: &report)
            }
            return (report, nil)
        }
        // A GIF's frames are counted by walking its blocks, before libvips is asked about pages
        // (it refuses thousands of frames as damage); nothing is decoded, the walk also finds a
        // cut or data after the trailer. A bundle's own images may move: they are decoded on.
        if !anySize, format == .gif, AnimationProbe.isAnimatedGIF(bytes) {
            if let shown {
                report.dimensions = shown
                addDimensions(shown, to: &report)
            }
            addAnimated(format, to: &report)
            if let damage = HeaderProbe.endDamage(bytes, format: format) {
                report.add(.corruptImage, "the GIF is damaged (\(damage)); export it again")
            }
            return (report, nil)
        }
        let source: ImageSource
        do {
            source = try upload.source(maxPixels: limits.maxPixels).get()
        } catch {
            if case .tooManyPixels(let width, let height, _) = error {
                report.dimensions = PixelSize(width: width, height: height)
            } else if let shown {
                report.dimensions = shown
            }
            var message = error.message
            if format == .png, case .corruptImage = error, let detail = pngDamage(bytes, limits: limits) {
                message = "the PNG is damaged (\(detail)); export it again"
            }
            report.add(ValidationCode(rawValue: error.code) ?? .corruptImage, message)
            if let dimensions = report.dimensions { addDimensions(dimensions, to: &report) }
            return (report, nil)
        }
        report.dimensions = source.displayedSize
        addDimensions(source.displayedSize, to: &report)
        checkAnimation(source, bytes: bytes, report: &report)
        var highBitDepth = source.header.isSixteenBit
        var pngPixels: PreflightPixels?
        // A size the product does not accept is already a rejection: its pixels are never
        // decoded, only its container walked.
        if anySize || ProfileChecks.accepts(source.displayedSize, product: limits.product, profiles: report.profiles) {
            // libpng decodes an upright PNG's pixels anyway: kept for the pre-flight checks
            // when the budget holds them too (not for the images inside a bundle).
            let keep = !anySize && limits.preflight && source.format == .png && source.orientation == 1
                && (try? limits.job.charge(source.strictDecodeMemory + Preflight.memory(for: source.storedSize))) != nil
            (highBitDepth, pngPixels) = checkDecodes(source, job: limits.job, deadline: deadline, keepingPNGPixels: keep,
                                                   report: &report)
            // Every row of the PNG was read: an alpha channel that hides nothing costs a WebP's
            // encoder no more than transparent bars (JobCost.AlphaBand).
            if let pngPixels, source.header.hasAlpha, pngPixels.everyAlphaOpaque() { source.markAlphaOpaque() }
        } else if let damage = source.containerDamage() {
            report.add(.corruptImage, "the \(source.format.rawValue.uppercased()) is damaged (\(damage)); export it again")
        }
        addWarnings(source, highBitDepth: highBitDepth, report: &report)
        // A sound image is looked at even when a profile's rule already refuses it (its weight, its
        // format): the border rule is one more a platform would refuse it for.
        if limits.preflight, !anySize, report.decoded, report.errors.allSatisfy({ $0.profile != nil }) {
            checkPreflight(source, pngPixels: pngPixels, job: limits.job, deadline: deadline, report: &report)
            for profile in report.profiles {
                for finding in report.warnings {
                    if let issue = ProfileChecks.borderIssue(finding, profile: profile) { report.add(issue) }
                }
            }
        }
        return (report, report.valid ? source : nil)
    }

    /// Checks a bundle (``BundleValidator``); its images go through this validator: the static
    /// version as a banner, the others at any size, within a smaller pixel cap and budget.
    private static func inspectBundle(_ bytes: [UInt8], report: ValidationReport,
                                      limits: ValidationLimits) -> (report: ValidationReport, source: ImageSource?) {
        // The job's deadline (started by `inspect`): the bundle's checks stop once it passes,
        // and its images share it.
        let deadline = limits.job.startDeadline()
        var imageLimits = limits
        // A bundle is checked by the bundle rules; the profiles are for image uploads.
        imageLimits.profiles = []
        // The upload's byte limit is the zip's; its images are bounded by the bundle's own 2 MiB.
        imageLimits.maxBytes = Catalog.defaultMaxBytes
        imageLimits.maxPixels = min(limits.maxPixels, BundleImageLimits.maxPixels)
        imageLimits.job.memoryBudget = min(limits.job.memoryBudget, BundleImageLimits.memoryBudget)
        let inspection = BundleValidator.inspect(bytes, report: report, isExpired: { deadline?.hasPassed ?? false },
                                                 decodedSize: { image in
            (try? ImageSource(bytes: image, maxPixels: imageLimits.maxPixels)).map { JobCost.strictDecode($0).decodedSamples }
        }) { image, name, asBanner in
            if asBanner { return validate(image, fileName: name, limits: imageLimits) }
            // The ad's own images may have any size, and may move (an animated GIF in an HTML5 ad).
            return inspect(Upload(image, fileName: name), limits: imageLimits, totalBytes: nil, anySize: true).report
                .dropping(.dimensionsNotAllowed).dropping(.animated)
        }
        guard let still = inspection.staticImage,
              let source = try? ImageSource(bytes: still.bytes, maxPixels: imageLimits.maxPixels) else {
            return (inspection.report, nil)
        }
        return (inspection.report, source)
    }

    /// The sentence of `file_too_large`.
    static func tooLargeMessage(_ size: Int, limit: Int) -> String {
        "\(size) bytes is over the limit of \(limit) bytes; export it smaller (the guideline is "
            + "\(Catalog.weightGuidelineText))"
    }

    /// The size rules (the product's, or each profile's), and each profile's weight for the size
    /// (not for a file over `--max-bytes`, which was only read in part).
    private static func addDimensions(_ size: PixelSize, to report: inout ValidationReport) {
        guard !report.profiles.isEmpty else {
            if let issue = ValidationRules.dimensionsIssue(size, product: report.product) { report.add(issue.code, issue.message) }
            return
        }
        for profile in report.profiles {
            if let issue = ProfileChecks.dimensionsIssue(size, profile: profile, product: report.product) { report.add(issue) }
            if let bytes = report.bytes, !report.has(.fileTooLarge),
               let issue = ProfileChecks.weightIssue(bytes: bytes, size: size, profile: profile) {
                report.add(issue)
            }
        }
    }
}
