import CreativeCore

/// The limits and accepted contents of an HTML5 bundle (`000`, section "HTML5 ads").
public enum BundleRules {
    /// At most 2 MiB uncompressed per ad (the SDK downloads the files ahead).
    public static let maxUncompressedBytes = 2 * 1024 * 1024
    /// At most this many entries in the central directory.
    public static let maxEntries = 100
    /// An entry may inflate at most this many times its compressed size (zip bombs)...
    public static let maxCompressionRatio = 100
    /// ...once it is larger than this (small text files may compress better).
    public static let ratioCheckedAbove = 64 * 1024
    /// Most start tags an HTML or SVG file may have (parsing deep nesting takes quadratic time).
    public static let maxTagsPerFile = 10_000
    /// Most attributes one element may have, counted before parsing (``MarkupCensus``): gumbo
    /// checks each attribute against the element's others, in time quadratic in their number
    /// (40,000 took 6 s). The `<html>` tags count as one element, and so do the `<body>` tags
    /// (gumbo merges them). Ads have a few per element; one at the limit parses in about 0.3 ms.
    public static let maxAttributesPerElement = 256
    /// Most attributes an HTML or SVG file may have in all, its `srcdoc` documents included
    /// (gumbo's time and memory grow with them): a file at this and the per-element limit parses
    /// in about 13 ms. Ads have hundreds, at most a few thousand.
    public static let maxAttributesPerFile = 20_000
    /// Most elements and attributes the tree builder may copy re-creating formatting elements
    /// left open (``MarkupCensus/formattingCopies``: formatting tags with their attributes, times
    /// all the tags). 1,000 `<b>` tags left open before 9,000 `<p>x</p>` made gumbo copy 9 million
    /// elements: 9 s and 3.4 GB; at the limit a file made that way parses in about 6 ms. An ad
    /// with 25 formatting tags and attributes (links, bold text) may have 2,000 tags.
    public static let maxFormattingCopies = 50_000
    /// How deep `<iframe srcdoc>` documents inside one another are read (each is checked as HTML).
    public static let maxSrcdocDepth = 3
    /// Accepted file types, by extension.
    public static let fileTypes: Set<String> = ["html", "htm", "css", "js", "json", "png", "jpg", "jpeg", "gif",
                                                "webp", "svg", "woff", "woff2", "mp4"]
    /// Images checked by the image validator (structure and a strict decode; any size).
    public static let imageTypes: Set<String> = ["png", "jpg", "jpeg", "gif", "webp"]
    /// Names (without extension) and types of the static version at the root.
    public static let staticNames = ["static", "backup", "fallback"]
    public static let staticTypes: Set<String> = ["png", "jpg", "jpeg", "gif"]
    /// Sizes in points an `ad.size` may give: the standard banner sizes of the catalog.
    public static var adSizes: [PixelSize] { Product.banner.entries.filter { $0.sizeClass == .standard }.map(\.size) }
    /// Largest difference between the static image's and `ad.size`'s aspect ratios.
    public static let aspectTolerance = 0.01
}

/// The caps for the images inside a bundle: banner artwork and its pieces are small, and the
/// whole validation of a bundle stays within 64 MB.
public enum BundleImageLimits {
    /// Most pixels an image in a bundle may have (the largest catalog size is 0.6 megapixels).
    public static let maxPixels = 4_000_000
    /// The decode budget of one image in a bundle.
    public static let memoryBudget = 16 << 20
    /// Most bytes of decoded samples all the images of a bundle may add up to (width x height x
    /// bands x bytes per sample, from each header before it is decoded): 64 MiB, 16 megapixels of
    /// 8-bit RGBA, under the 96 MiB one job may decode and at most about 0.5 s of decoding (PNG
    /// at its slowest, 7 ns a byte). The image that goes over it and those after it are not
    /// decoded (`too_many_pixels`).
    public static let maxTotalDecodedBytes = 64 << 20
}

/// Checks an image found in a bundle with the image validator: `asBanner` true for the static
/// version (the ordinary banner validation, catalog sizes included), false for an image the ad
/// uses (structure and a strict decode; its size is free).
public typealias BundleImageCheck = (_ bytes: [UInt8], _ name: String, _ asBanner: Bool) -> ValidationReport

/// The bytes an image found in a bundle takes decoded, read from its header without decoding:
/// width x height x bands x bytes per sample, or nil when the header cannot be read (its check
/// then says why). Charged against
/// ``BundleImageLimits/maxTotalDecodedBytes`` before the image is checked.
public typealias BundleImageSize = (_ bytes: [UInt8]) -> Int?

/// The job's deadline passed during the bundle check (`timeout`): where it stopped.
struct BundleDeadlinePassed: Error {
    /// The entry or file the check was at.
    let place: String

    var message: String { "the job ran past its deadline and was stopped (the bundle check was at \(place))" }
}

/// What a bundle check found: the report, and the static version's bytes when the bundle is valid.
public struct BundleInspection: Sendable {
    public var report: ValidationReport
    /// The static image (name and bytes) of a valid bundle, which `render` and `process` use.
    public var staticImage: (name: String, bytes: [UInt8])?
}

/// Validates an HTML5 ad bundle (a zip) for the locked web view. The central directory is read
/// first and decides the limits before anything is inflated; then every entry is read into
/// memory (never to disk), the HTML parsed, the CSS and scripts scanned, every reference
/// resolved, the images and the static version checked. Every problem found is reported.
///
/// The check honours the job's deadline: it is asked between entries, between files and before
/// and after each image, and once it has passed the check stops with `timeout`.
public enum BundleValidator {
    /// True when the bytes start like a zip (a local file header, or the end record of an empty one).
    public static func looksLikeZip(_ bytes: [UInt8]) -> Bool {
        bytes.count >= 4 && bytes[0] == 0x50 && bytes[1] == 0x4B
            && ((bytes[2] == 3 && bytes[3] == 4) || (bytes[2] == 5 && bytes[3] == 6))
    }

    /// The report of a bundle refused before its archive is read (over the upload's byte limit).
    public static func refused(_ report: ValidationReport) -> ValidationReport {
        var report = report
        report.bundle = BundleFacts(files: 0, bytesUncompressed: 0)
        return report
    }

    /// Validates the bundle into `report` (which already holds the file name and byte count).
    /// - Parameters:
    ///   - isExpired: true once the job's deadline has passed (or the job is cancelled); the
    ///     check then stops at once with `timeout`, keeping what it found before.
    ///   - decodedSize: each image's decoded size from its header, charged against the bundle's
    ///     total (``BundleImageLimits/maxTotalDecodedBytes``) before `imageCheck` decodes it.
    ///   - imageCheck: the image validator, for the images and the static version.
    public static func inspect(_ bytes: [UInt8], report start: ValidationReport, isExpired: () -> Bool,
                               decodedSize: BundleImageSize, imageCheck: BundleImageCheck) -> BundleInspection {
        var report = start
        report.bundle = BundleFacts(files: 0, bytesUncompressed: 0)
        let archive: ZipArchive
        do {
            archive = try ZipArchive(bytes: bytes)
        } catch {
            if error.duplicateName {
                report.add(.duplicateEntry, "two entries of the zip have the same name; keep one")
            } else {
                report.add(.corruptBundle, "the zip cannot be read (\(error.message)); export the bundle again")
            }
            return BundleInspection(report: report)
        }
        guard let listing = list(archive, report: &report) else { return BundleInspection(report: report) }
        var files: [String: [UInt8]] = [:]
        for (name, entry) in listing {
            if isExpired() {
                report.add(.timeout, BundleDeadlinePassed(place: name).message)
                return BundleInspection(report: report)
            }
            do {
                let content = try archive.read(entry)
                if EntryName.fileExtension(name) != "zip", looksLikeZip(content) {
                    report.add(.nestedArchive, "\(name) is a zip inside the bundle; put its files in the bundle itself")
                } else {
                    files[name] = content
                }
            } catch {
                report.add(.corruptBundle, "\(name) cannot be read (\(error.message)); export the bundle again")
            }
        }
        var contents = BundleContents(files: files)
        do {
            try contents.check(into: &report, isExpired: isExpired, decodedSize: decodedSize, imageCheck: imageCheck)
        } catch {
            report.add(.timeout, error.message)
            return BundleInspection(report: report)
        }
        return BundleInspection(report: report, staticImage: report.valid ? contents.staticImage : nil)
    }

    /// The bytes of the bundle's static version as ``inspect(_:report:isExpired:decodedSize:imageCheck:)``
    /// would find it (the root `static.*`, `backup.*` or `fallback.*` PNG, JPEG or GIF), read
    /// alone and unchecked, so a job can be charged for rendering it before the bundle is
    /// checked; nil when there is none, or it cannot be read within the bundle's limits.
    public static func staticVersion(_ bytes: [UInt8]) -> [UInt8]? {
        guard let archive = try? ZipArchive(bytes: bytes), archive.count <= BundleRules.maxEntries else { return nil }
        var root: [(String, ZipEntry)] = []
        for index in 0..<archive.count {
            guard let entry = try? archive.entry(index), !entry.isDirectory, !entry.encrypted, !entry.symlink else { continue }
            let name = String(decoding: entry.rawName, as: UTF8.self)
            if !name.contains("/"), EntryName.unsafeReason(entry.rawName) == nil { root.append((name, entry)) }
        }
        root.sort { $0.0 < $1.0 }
        for stem in BundleRules.staticNames {
            guard let (_, entry) = root.first(where: { name, _ in
                name.lowercased().hasPrefix(stem + ".") && BundleRules.staticTypes.contains(EntryName.fileExtension(name))
            }) else { continue }
            guard entry.size <= BundleRules.maxUncompressedBytes,
                  entry.size <= BundleRules.ratioCheckedAbove
                    || entry.size / max(entry.compressedSize, 1) <= BundleRules.maxCompressionRatio else { return nil }
            return try? archive.read(entry)
        }
        return nil
    }

    /// Reads the central directory: counts, sizes, names, kinds. Returns the entries to read, or
    /// nil when a limit is broken (then nothing is inflated).
    private static func list(_ archive: ZipArchive, report: inout ValidationReport) -> [(String, ZipEntry)]? {
        let count = archive.count
        report.bundle?.files = count
        if count > BundleRules.maxEntries {
            report.add(.tooManyFiles, "\(count) entries, over the limit of \(BundleRules.maxEntries); "
                       + "combine files (sprites, one script, one style sheet)")
            return nil
        }
        var total = 0
        var bomb = false
        // Names compared as Unicode text: a name in NFC and the same in NFD are one file to a
        // file system that normalises (and to `String`'s `==`), so two such entries are duplicates.
        var seen: [String: [UInt8]] = [:]
        var readable: [(String, ZipEntry)] = []
        for index in 0..<count {
            let entry: ZipEntry
            do { entry = try archive.entry(index) } catch {
                report.add(.corruptBundle, "entry \(index) cannot be read (\(error.message)); export the bundle again")
                return nil
            }
            total = total.addingReportingOverflow(entry.size).overflow ? Int.max : total + entry.size
            let shown = String(decoding: entry.rawName, as: UTF8.self)
            if let reason = EntryName.unsafeReason(entry.rawName)
                ?? (entry.rawName.contains(0x20) && archive.namesStoredWithNUL.contains(entry.rawName)
                    ? "a NUL byte in the name" : nil) {
                report.add(.unsafePath, "\(shown.debugDescription) is refused: \(reason)")
                continue
            }
            if let first = seen[shown] {
                report.add(.duplicateEntry, first == entry.rawName ? "\(shown) is in the zip twice; keep one"
                           : "\(shown) is in the zip twice, its name written in two Unicode forms (such as NFC and NFD); keep one")
                continue
            }
            seen[shown] = entry.rawName
            if EntryName.isIgnored(shown) {
                report.add(.ignoredFile, "\(shown) is ignored (a file the Mac adds); leave it out")
                continue
            }
            if entry.symlink {
                report.add(.symlinkEntry, "\(shown) is a symbolic link; put the file itself in the bundle")
                continue
            }
            if entry.encrypted {
                report.add(.encryptedEntry, "\(shown) is encrypted; the SDK cannot read it, zip it without a password")
                continue
            }
            if entry.size > BundleRules.ratioCheckedAbove,
               entry.size / max(entry.compressedSize, 1) > BundleRules.maxCompressionRatio {
                report.add(.compressionRatioTooHigh, "\(shown) inflates \(entry.compressedSize) bytes to \(entry.size), "
                           + "over \(BundleRules.maxCompressionRatio) times (a zip bomb); nothing was inflated")
                bomb = true
                continue
            }
            if entry.isDirectory { continue }
            let type = EntryName.fileExtension(shown)
            if type == "zip" {
                report.add(.nestedArchive, "\(shown) is a zip inside the bundle; put its files in the bundle itself")
                continue
            }
            if !BundleRules.fileTypes.contains(type) {
                report.add(.unsupportedFileType, "\(shown): .\(type.isEmpty ? "(no extension)" : type) files are not "
                           + "accepted; use " + BundleRules.fileTypes.sorted().joined(separator: ", "))
                continue
            }
            readable.append((shown, entry))
        }
        report.bundle?.bytesUncompressed = total
        if total > BundleRules.maxUncompressedBytes {
            report.add(.bundleTooLarge, "the files add up to \(total) bytes uncompressed, over the limit of "
                       + "\(BundleRules.maxUncompressedBytes) (2 MiB per ad); nothing was inflated")
            return nil
        }
        return bomb ? nil : readable
    }
}
