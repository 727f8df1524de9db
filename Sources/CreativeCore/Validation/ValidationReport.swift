/// The stable codes of a validation report (docs/validation.md, "Codes"); callers switch on them.
public enum ValidationCode: String, Sendable, CaseIterable {
    // Errors: any one makes the creative invalid.
    case fileNotFound = "file_not_found"
    /// A folder, FIFO, device or socket: only regular files are read (a FIFO would block).
    case notAFile = "not_a_file"
    case emptyFile = "empty_file"
    case fileTooLarge = "file_too_large"
    case notAnImage = "not_an_image"
    case unsupportedFormat = "unsupported_format"
    case corruptImage = "corrupt_image"
    case tooManyPixels = "too_many_pixels"
    /// A side longer than ``Catalog/maxDecodedSide``, decided from the header.
    case sideTooLong = "side_too_long"
    /// Long side over short side above ``Catalog/maxAspectRatio``, decided from the header.
    case extremeAspectRatio = "extreme_aspect_ratio"
    case animated = "animated"
    case dimensionsNotAllowed = "dimensions_not_allowed"
    case timeout = "timeout"
    // Platform profiles (`--profile`, docs/profiles.md): each names the profile whose rule it breaks.
    /// A format the tool accepts but the profile's platform does not (WebP for Google Ads).
    case formatNotAllowed = "format_not_allowed"
    /// Heavier than the profile's weight limit for the size (153,600 bytes for Google Ads).
    case overWeightLimit = "over_weight_limit"
    /// CMYK colour, which the profile's platform refuses (Google Ad Manager).
    case cmykNotAllowed = "cmyk_not_allowed"
    /// A white or black edge without a contrasting border, which the profile's platform requires
    /// (the pre-flight's `edge_without_border` finding, as an error).
    case borderRequired = "border_required"
    // HTML5 bundles (a zip): the archive.
    /// The zip cannot be read (damaged directory, bad checksum, an entry longer than declared).
    case corruptBundle = "corrupt_bundle"
    /// Over 2 MiB uncompressed, decided from the central directory before anything is inflated.
    case bundleTooLarge = "bundle_too_large"
    /// More than 100 entries.
    case tooManyFiles = "too_many_files"
    /// An entry inflates more than the ratio cap allows (a zip bomb).
    case compressionRatioTooHigh = "compression_ratio_too_high"
    /// An entry name with `..`, a leading `/`, a backslash, a drive letter, NUL, or not UTF-8.
    case unsafePath = "unsafe_path"
    case symlinkEntry = "symlink_entry"
    case encryptedEntry = "encrypted_entry"
    case duplicateEntry = "duplicate_entry"
    /// A zip inside the bundle.
    case nestedArchive = "nested_archive"
    /// A file type the web view bundle does not carry.
    case unsupportedFileType = "unsupported_file_type"
    // HTML5 bundles: the ad.
    /// An HTML or SVG file over a limit counted before it is parsed (`BundleRules`), its
    /// `<iframe srcdoc>` documents included: more than 10,000 start tags, 256 attributes in one
    /// element or 20,000 in all, 50,000 elements and attributes the parser may copy re-creating
    /// formatting elements left open, or `srcdoc` documents nested more than 3 deep. Not parsed.
    case tooManyElements = "too_many_elements"
    /// An HTML or SVG file the HTML parser fails on, found by parsing it first in a child
    /// process: the child ended by a signal (gumbo's assertions abort on some malformed HTML),
    /// went over its memory or time, or could not be started. The file is not parsed in the
    /// process itself, so nothing in it is checked.
    case unparseableHTML = "unparseable_html"
    case noEntryHTML = "no_entry_html"
    case ambiguousEntryHTML = "ambiguous_entry_html"
    case missingAdSize = "missing_ad_size"
    /// A relative reference to a file the bundle does not hold.
    case missingFile = "missing_file"
    /// An `http:`, `https:`, protocol-relative or other non-bundle reference: blocked on devices.
    case remoteResourceBlocked = "remote_resource_blocked"
    /// A `javascript:` URL anywhere but a link's `href` (the click handler).
    case javascriptURL = "javascript_url"
    /// No `static.*`, `backup.*` or `fallback.*` image at the root (SDKs before 0.6.0 show it).
    case missingStaticVersion = "missing_static_version"
    /// The static image's aspect ratio differs from `ad.size` by more than 1%.
    case staticVersionMismatch = "static_version_mismatch"
    // Warnings: reported, never a reason to reject.
    case extensionMismatch = "extension_mismatch"
    case heavyFile = "heavy_file"
    case notSRGB = "not_srgb"
    case exifOrientation = "exif_orientation"
    case highBitDepth = "high_bit_depth"
    case metadataDropped = "metadata_dropped"
    // Pre-flight warnings: what the artwork looks like (computed on its pixels).
    /// Flat bars of one colour along two opposite edges, part of the artwork.
    case bakedInBars = "baked_in_bars"
    /// A near-white (near-black) outer frame with no contrasting border.
    case edgeWithoutBorder = "edge_without_border"
    /// Much less fine detail than the size holds: enlarged from a smaller original.
    case upscaledArtwork = "upscaled_artwork"
    /// Almost all one colour, fully transparent or flat.
    case mostlyEmpty = "mostly_empty"
    /// A bundle entry that is skipped: `__MACOSX/` and `.DS_Store`.
    case ignoredFile = "ignored_file"
    /// An absolute `http(s)://` URL in a script's string literal (a heuristic): blocked at run time.
    case remoteURLInScript = "remote_url_in_script"

    /// True for the pre-flight warnings: what the artwork looks like, not the file (`fix` changes only
    /// `edge_without_border`, by drawing the border it asks for).
    public var isPreflight: Bool {
        switch self {
        case .bakedInBars, .edgeWithoutBorder, .upscaledArtwork, .mostlyEmpty: true
        default: false
        }
    }

    /// True for the warning codes.
    public var isWarning: Bool {
        switch self {
        case .extensionMismatch, .heavyFile, .notSRGB, .exifOrientation, .highBitDepth, .metadataDropped,
             .bakedInBars, .edgeWithoutBorder, .upscaledArtwork, .mostlyEmpty, .ignoredFile, .remoteURLInScript: true
        default: false
        }
    }
}

/// One problem found, with a sentence that says what to do.
public struct ValidationIssue: Sendable, Equatable {
    public let code: ValidationCode
    public let message: String
    /// Where on the artwork the issue is, in its pixels (baked-in bars, edges without a border),
    /// for a page to draw it; empty when it is about the whole file. In JSON as `regions_pixels`, only
    /// when there are any.
    public let regions: [PixelRect]
    /// The platform profile whose rule the issue is about (`google-ads`), nil for the tool's own
    /// checks. In JSON as `profile`, only when set.
    public let profile: String?

    public init(_ code: ValidationCode, _ message: String, regions: [PixelRect] = [], profile: String? = nil) {
        self.code = code
        self.message = message
        self.regions = regions
        self.profile = profile
    }

    /// The issue as a report lists it: `code`, `message`, then `profile` and `regions_pixels` when set.
    public var json: JSONValue {
        .object([("code", .string(code.rawValue)), ("message", .string(message))]
                + (profile.map { [("profile", .string($0))] } ?? [])
                + (regions.isEmpty ? [] : [("regions_pixels", .array(regions.map(\.json)))]))
    }
}

/// What an HTML5 bundle holds, for its report (`files`, `bytes_uncompressed`, `entry`).
public struct BundleFacts: Sendable, Equatable {
    /// Entries counted in the central directory (folders and ignored files included).
    public var files: Int
    /// Sum of the entries' uncompressed sizes, from the central directory.
    public var bytesUncompressed: Int
    /// The HTML file that starts the ad, when there is exactly one.
    public var entry: String?

    public init(files: Int, bytesUncompressed: Int, entry: String? = nil) {
        self.files = files
        self.bytesUncompressed = bytesUncompressed
        self.entry = entry
    }
}

/// What validation found about one file: the JSON report of docs/reference.md, "validate".
public struct ValidationReport: Sendable {
    /// The name the caller gave (a path, `-`, or an upload's file name).
    public var file: String
    /// The format sniffed from the bytes, when it is an accepted one.
    public var format: ImageFormat?
    /// Size as displayed (after EXIF orientation), when the header was read.
    public var dimensions: PixelSize?
    /// Size of the file in bytes (nil when it could not be read).
    public var bytes: Int?
    /// True when every pixel was decoded strictly (the damage check ran). False when the file
    /// was refused before that: a size the catalog does not accept, a cap, an unreadable header.
    public var decoded = false
    /// Set for an HTML5 bundle (a zip): the report's format is then `html5` and its dimensions
    /// are the `ad.size` in points.
    public var bundle: BundleFacts?
    public private(set) var errors: [ValidationIssue] = []
    public private(set) var warnings: [ValidationIssue] = []
    /// The product whose sizes the file is checked against.
    public var product: Product
    /// The platform profiles checked (``ValidationLimits/profiles``); empty for the default,
    /// the product's own checks (the `network` profile's rules).
    public var profiles: [PlatformProfile]

    public init(file: String, product: Product, profiles: [PlatformProfile] = []) {
        self.file = file
        self.product = product
        self.profiles = profiles
    }

    /// The names of the profiles checked, in JSON as `profiles`: `network` for the default.
    public var profileNames: [String] { profiles.isEmpty ? [PlatformProfile.defaultName] : profiles.map(\.name) }

    /// Valid when no error was found; warnings never reject.
    public var valid: Bool { errors.isEmpty }

    /// The product's catalog entry the dimensions match, if any.
    public var catalogEntry: CatalogEntry? { dimensions.flatMap(product.entry(for:)) }

    /// Adds an issue to errors or warnings by its code.
    public mutating func add(_ code: ValidationCode, _ message: String, regions: [PixelRect] = []) {
        add(ValidationIssue(code, message, regions: regions))
    }

    /// Adds an issue to errors or warnings by its code.
    public mutating func add(_ issue: ValidationIssue) {
        if issue.code.isWarning { warnings.append(issue) } else { errors.append(issue) }
    }

    /// The report without the issues of one code (a bundle's images need no catalog size).
    public func dropping(_ code: ValidationCode) -> ValidationReport {
        var copy = self
        copy.errors.removeAll { $0.code == code }
        copy.warnings.removeAll { $0.code == code }
        return copy
    }

    /// True when an issue with the code was recorded.
    public func has(_ code: ValidationCode) -> Bool {
        errors.contains { $0.code == code } || warnings.contains { $0.code == code }
    }

    /// The report as JSON, fields in the documented order.
    public var json: JSONValue {
        func issues(_ list: [ValidationIssue]) -> JSONValue { .array(list.map(\.json)) }
        let bundleFields: [(String, JSONValue)] = bundle.map { facts in
            [("file_count", .int(facts.files)), ("uncompressed_bytes", .int(facts.bytesUncompressed)),
             ("entry", .optional(facts.entry))]
        } ?? []
        return .object([
            ("file", .string(file)),
            ("valid", .bool(valid)),
            ("format", .optional(bundle == nil ? format?.rawValue : "html5")),
            ("size_pixels", dimensions?.json ?? .null),
            ("file_bytes", bytes.map { .int($0) } ?? .null),
            ("size_class", .optional(catalogEntry?.sizeClass.rawValue)),
            ("shape", .optional(dimensions?.shape.rawValue)),
            ("decoded", .bool(decoded)),
            ("profiles", .array(profileNames.map(JSONValue.string))),
        ] + bundleFields + [
            ("errors", issues(errors)),
            ("warnings", issues(warnings)),
        ])
    }
}

/// The decisions of validation that need no pixels: sizes, weights, names.
public enum ValidationRules {
    /// `dimensions_not_allowed` with the product's nearest accepted sizes, or nil when the size is accepted.
    public static func dimensionsIssue(_ size: PixelSize, product: Product) -> ValidationIssue? {
        guard product.entry(for: size) == nil else { return nil }
        let nearest = product.nearest(to: size).map(\.description).joined(separator: " or ")
        let rotated = product.entry(for: PixelSize(width: size.height, height: size.width)) != nil
            ? " (it is an accepted size turned on its side)" : ""
        let what = product.isDefault ? "" : " \(product)"
        return ValidationIssue(.dimensionsNotAllowed,
                               "\(size) is not an accepted\(what) size\(rotated)\(otherProduct(size, product)); the "
                               + "nearest are \(nearest). Export the artwork at exactly one of: "
                               + product.sizes.map(\.description).joined(separator: ", "))
    }

    /// ` (it is an interstitial size: give --product interstitial, product=interstitial over HTTP)`
    /// when another product accepts the size, else empty.
    public static func otherProduct(_ size: PixelSize, _ product: Product) -> String {
        guard let other = product.others(accepting: size).first else { return "" }
        return " (it is \(other.withArticle) size: give --product \(other), product=\(other) over HTTP)"
    }

    /// `heavy_file` when over the guideline (``Catalog/weightGuidelineBytes``, 153,600 bytes).
    public static func weightIssue(bytes: Int) -> ValidationIssue? {
        guard bytes > Catalog.weightGuidelineBytes else { return nil }
        return ValidationIssue(.heavyFile, "\(TextFormat.grouped(bytes)) bytes is over the \(Catalog.weightGuidelineText) "
                               + "guideline; compress it (fewer colours, PNG optimiser, or JPEG quality 80-85)")
    }

    /// `extension_mismatch` when the name's extension names another format; nil when it matches or has none.
    public static func extensionIssue(fileName: String, format: ImageFormat) -> ValidationIssue? {
        let base = fileName.split(separator: "/").last.map(String.init) ?? fileName
        guard let dot = base.lastIndex(of: "."), dot != base.startIndex else { return nil }
        let ext = base[base.index(after: dot)...].lowercased()
        guard !ext.isEmpty, !format.extensions.contains(ext) else { return nil }
        return ValidationIssue(.extensionMismatch, "the name ends in .\(ext) but the file is \(format.rawValue.uppercased()); "
                               + "rename it .\(format.extensions[0])")
    }
}
