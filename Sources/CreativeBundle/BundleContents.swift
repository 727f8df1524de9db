import CreativeCore
#if canImport(Glibc)
import Glibc
#endif

/// The files of a bundle, read into memory, and the checks over them: entry HTML, `ad.size`,
/// references, scripts, images and the static version.
struct BundleContents {
    /// Path in the bundle -> bytes (folders, ignored and refused entries left out).
    let files: [String: [UInt8]]
    /// The static version found at the root, once ``check(into:imageCheck:)`` ran.
    private(set) var staticImage: (name: String, bytes: [UInt8])?

    init(files: [String: [UInt8]]) { self.files = files }

    private var names: [String] { files.keys.sorted() }

    /// Checks the files into `report`, asking `isExpired` before each file and before and after
    /// each image.
    /// - Throws: ``BundleDeadlinePassed`` once `isExpired` says so (the report keeps what was found).
    mutating func check(into report: inout ValidationReport, isExpired: () -> Bool, decodedSize: BundleImageSize,
                        imageCheck: BundleImageCheck) throws(BundleDeadlinePassed) {
        func stopIfExpired(at place: String) throws(BundleDeadlinePassed) {
            if isExpired() { throw BundleDeadlinePassed(place: place) }
        }
        let entry = entryHTML(report: &report)
        report.bundle?.entry = entry
        let fileSet = Set(files.keys)
        let markupNames = names.filter { ["html", "htm", "svg"].contains(EntryName.fileExtension($0)) }
        var markup: [String: Result<HTMLDocument, HTMLRefusal>]?
        for name in names {
            guard let bytes = files[name] else { continue }
            try stopIfExpired(at: name)
            switch EntryName.fileExtension(name) {
            case "html", "htm", "svg":
                // Every HTML and SVG file is read at the first: their documents go to one child.
                if markup == nil {
                    let read = HTMLDocument.read(markupNames.map { files[$0] ?? [] }, isExpired: isExpired)
                    markup = Dictionary(uniqueKeysWithValues: zip(markupNames, read))
                }
                let document: HTMLDocument
                switch markup?[name] ?? HTMLDocument.read([bytes], isExpired: isExpired)[0] {
                case .success(let read):
                    document = read
                case .failure(let error):
                    switch error {
                    case .overLimit(let message):
                        report.add(.tooManyElements, "\(name) \(message); it was not parsed, simplify it")
                    case .unparseable(let cause, let advice):
                        report.add(.unparseableHTML, "\(name) \(cause), so the file was not parsed and nothing in "
                                   + "it was checked; \(advice)")
                    case .expired:
                        throw BundleDeadlinePassed(place: name)
                    }
                    continue
                }
                if name == entry { checkAdSize(document.adSize, report: &report) }
                for reference in document.references {
                    add(reference.url, place: "\(reference.place) in \(name)", from: name, isLink: reference.isLink,
                        files: fileSet, report: &report)
                }
                for script in document.inlineScripts { checkScript(script, place: "a <script> in \(name)", &report) }
            case "css":
                for url in CSSScanner.urls(in: String(decoding: bytes, as: UTF8.self)) {
                    add(url, place: name, from: name, isLink: false, files: fileSet, report: &report)
                }
            case "js":
                checkScript(String(decoding: bytes, as: UTF8.self), place: name, &report)
            default:
                break
            }
        }
        let staticName = staticVersionName(report: &report)
        var budget = DecodeBudget()
        for name in names where BundleRules.imageTypes.contains(EntryName.fileExtension(name)) && name != staticName {
            guard let bytes = files[name] else { continue }
            try stopIfExpired(at: name)
            guard budget.charge(decodedSize(bytes), name: name, report: &report) else { return }
            for issue in imageCheck(bytes, name, false).errors { report.add(issue.code, "\(name): \(issue.message)") }
            try stopIfExpired(at: name)
        }
        if let staticName, let bytes = files[staticName] {
            try stopIfExpired(at: staticName)
            guard budget.charge(decodedSize(bytes), name: staticName, report: &report) else { return }
            checkStatic(bytes, name: staticName, report: &report, imageCheck: imageCheck)
            try stopIfExpired(at: staticName)
        }
    }

    /// `index.html` at the root, else the only root HTML file.
    private func entryHTML(report: inout ValidationReport) -> String? {
        let root = names.filter { !$0.contains("/") && ["html", "htm"].contains(EntryName.fileExtension($0)) }
        if root.contains("index.html") { return "index.html" }
        if root.count == 1 { return root[0] }
        if root.isEmpty {
            report.add(.noEntryHTML, "no HTML file at the bundle's root; put the ad's index.html there"
                       + folderHint(holding: "index.html"))
        } else {
            report.add(.ambiguousEntryHTML, "\(root.count) HTML files at the root (\(root.joined(separator: ", "))) "
                       + "and no index.html; name the one that starts the ad index.html")
        }
        return nil
    }

    /// The folder every file is in, when the zip holds one folder instead of the ad's files
    /// (`ad/index.html`: the folder was zipped, not its contents); nil otherwise.
    private var wrappingFolder: String? {
        let firsts = Set(names.map { $0.split(separator: "/", maxSplits: 1).first.map(String.init) ?? $0 })
        guard firsts.count == 1, let folder = firsts.first, names.allSatisfy({ $0.hasPrefix(folder + "/") }) else {
            return nil
        }
        return folder
    }

    /// ` (the files are in the folder ad/, with ad/index.html: zip the folder's contents, not the
    /// folder)` when the zip is one folder, else empty. `file` is the file looked for there.
    private func folderHint(holding file: String?) -> String {
        guard let folder = wrappingFolder else { return "" }
        let found = file.map { "\(folder)/\($0)" }.flatMap { names.contains($0) ? ", with \($0)" : nil } ?? ""
        return " (the files are in the folder \(folder)/\(found): zip the folder's contents, not the folder)"
    }

    private func checkAdSize(_ content: String?, report: inout ValidationReport) {
        let example = "<meta name=\"ad.size\" content=\"width=320,height=50\">"
        guard let content else {
            report.add(.missingAdSize, "the entry HTML has no ad.size meta; add \(example)")
            return
        }
        var values: [String: Int] = [:]
        for pair in content.split(whereSeparator: { $0 == "," || $0 == ";" }) {
            let parts = pair.split(separator: "=", maxSplits: 1).map { String($0).trimmingSpace().lowercased() }
            if parts.count == 2, let number = Int(parts[1]) { values[parts[0]] = number }
        }
        guard let width = values["width"], let height = values["height"], width > 0, height > 0 else {
            report.add(.missingAdSize, "ad.size \(content.debugDescription) gives no width and height; write \(example)")
            return
        }
        let size = PixelSize(width: width, height: height)
        report.dimensions = size
        let accepted = BundleRules.adSizes
        guard !accepted.contains(size) else { return }
        let nearest = accepted.sorted { Self.distance($0, size) < Self.distance($1, size) }.prefix(2)
        report.add(.dimensionsNotAllowed, "ad.size \(size) is not an accepted banner size in points; the nearest are "
                   + nearest.map(\.description).joined(separator: " or ") + ". Use one of: "
                   + accepted.map(\.description).joined(separator: ", "))
    }

    private static func distance(_ a: PixelSize, _ b: PixelSize) -> Double {
        abs(log(Double(a.width) / Double(b.width))) + abs(log(Double(a.height) / Double(b.height)))
    }

    private func add(_ url: String, place: String, from: String, isLink: Bool, files: Set<String>,
                     report: inout ValidationReport) {
        let shown = TextFormat.clipped(url, 200)
        switch BundleReference.verdict(url, from: from, isLink: isLink, files: files) {
        case .loads:
            break
        case .blocked(let why):
            report.add(.remoteResourceBlocked, "\(shown) (\(place)): \(why), so the ad breaks on devices; "
                       + "put the file in the bundle and reference it relatively")
        case .javascript:
            report.add(.javascriptURL, "\(shown) (\(place)): javascript: URLs are allowed only in a link's href "
                       + "(the click handler)")
        case .missing(let path):
            report.add(.missingFile, "\(path) is referenced (\(place)) but not in the bundle")
        }
    }

    private func checkScript(_ script: String, place: String, _ report: inout ValidationReport) {
        for url in ScriptScanner.remoteURLs(in: script) where !Self.isClickTag(url, in: script) {
            let shown = TextFormat.clipped(url, 200)
            report.add(.remoteURLInScript, "\(shown) in \(place): a load from it is blocked on devices")
        }
    }

    /// Whether `url` is the value of a `clickTag` (`var clickTag = "https://..."`, any case, also
    /// `window.clickTag`, `clickTag1`): the click-through the SDK opens on a tap, not a load.
    static func isClickTag(_ url: String, in script: String) -> Bool {
        let text = Array(script.utf8), needle = Array(url.utf8)
        guard !needle.isEmpty, needle.count <= text.count else { return false }
        var start = 0
        while start + needle.count <= text.count {
            // The next place the URL starts (a first-byte scan, then a compare).
            guard let at = text[start...].firstIndex(of: needle[0]), at + needle.count <= text.count else { return false }
            if Array(text[at..<(at + needle.count)]) == needle {
                var before = text[..<at].reversed().drop(while: { $0 == UInt8(ascii: "\"") || $0 == UInt8(ascii: "'")
                    || $0 == UInt8(ascii: " ") })
                if before.first == UInt8(ascii: "=") {
                    before = before.dropFirst().drop(while: { $0 == UInt8(ascii: " ") })
                    let name = before.prefix(while: { ($0 >= 0x30 && $0 <= 0x39) || ($0 | 0x20 >= 0x61 && $0 | 0x20 <= 0x7A)
                        || $0 == UInt8(ascii: "_") })
                    if String(decoding: name.reversed(), as: UTF8.self).lowercased().hasPrefix("clicktag") { return true }
                }
            }
            start = at + 1
        }
        return false
    }

    /// The root `static.*`, `backup.*` or `fallback.*` image (PNG, JPEG or GIF), or nil with
    /// `missing_static_version`.
    private func staticVersionName(report: inout ValidationReport) -> String? {
        let root = names.filter { !$0.contains("/") }
        for stem in BundleRules.staticNames {
            for name in root where name.lowercased().hasPrefix(stem + ".")
                && BundleRules.staticTypes.contains(EntryName.fileExtension(name)) {
                return name
            }
        }
        report.add(.missingStaticVersion, "no static image (static.png, backup.jpg or fallback.gif: PNG, JPEG or GIF) "
                   + "at the bundle's root; SDKs before 0.6.0 show it instead of the HTML5 ad"
                   + folderHint(holding: nil))
        return nil
    }

    private mutating func checkStatic(_ bytes: [UInt8], name: String, report: inout ValidationReport,
                                      imageCheck: BundleImageCheck) {
        let image = imageCheck(bytes, name, true)
        for issue in image.errors { report.add(issue.code, "static version \(name): \(issue.message)") }
        report.decoded = image.decoded
        if let shown = image.dimensions, let adSize = report.dimensions, shown.width > 0, shown.height > 0 {
            let ratio = Double(shown.width) / Double(shown.height) / (Double(adSize.width) / Double(adSize.height))
            if abs(ratio - 1) > BundleRules.aspectTolerance {
                report.add(.staticVersionMismatch, "static version \(name) is \(shown), its aspect ratio differs from "
                           + "ad.size \(adSize)'s by \(TextFormat.percent(abs(ratio - 1), decimals: 1)) (at most 1%); "
                           + "export the static image in the ad's proportions")
            }
        }
        if image.valid { staticImage = (name, bytes) }
    }
}

/// The decoded samples of a bundle's images, added up as each is checked
/// (``BundleImageLimits/maxTotalDecodedBytes``).
private struct DecodeBudget {
    private(set) var charged = 0

    /// Adds an image's decoded size. False, with `too_many_pixels` naming the image, when it
    /// goes over the budget: then it and the images after it are not decoded.
    mutating func charge(_ size: Int?, name: String, report: inout ValidationReport) -> Bool {
        let limit = BundleImageLimits.maxTotalDecodedBytes
        let (total, overflow) = charged.addingReportingOverflow(max(0, size ?? 0))
        guard overflow || total > limit else {
            charged = total
            return true
        }
        report.add(.tooManyPixels, "\(name): decoded, it would bring the bundle's images to "
                   + "\(overflow ? "more than \(Int.max)" : String(total)) bytes of samples, over the budget of \(limit) "
                   + "(\(limit >> 20) MiB) for all of them; it and the images after it were not decoded")
        return false
    }
}
