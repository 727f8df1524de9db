import CreativeCore
import CreativeImaging
import CreativeOperations
#if canImport(Glibc)
import Glibc
#endif

/// `process` of several files, or of a folder's files: one campaign. Each file is validated
/// first, so the campaign is its valid creatives' sizes (and `--with`'s); each creative is then
/// rendered where it wins among them, into `DIR/NAME/`; `DIR/campaign.json` lists every device
/// slot with the creative served there, and `DIR/campaign.png` shows them (``CampaignOperation``).
/// A rejected or failed creative does not stop the others; the exit code is then 1.
/// Each file is read once, before any is validated, and its bytes are held until the campaign is
/// done: the renders and `campaign.png` use the bytes approved (at most ``maxCreatives`` files of
/// `--max-bytes` each), never a second read of a file that may have changed.
enum ProcessCampaign {
    /// Largest number of creatives in one campaign.
    static let maxCreatives = 256

    static func run(_ arguments: ParsedArguments, request: ProcessRequest, timer: StageTimer) throws(CLIError) -> Int32 {
        if arguments.flag(RenderCommand.cost.flag) { throw .usage("--cost takes one FILE") }
        guard let directory = arguments.value(ProcessCommand.outputDirectory.flag), !directory.isEmpty else {
            throw .usage("--output-dir DIR is required")
        }
        let files = try inputs(arguments.positionals)
        let limits = try ValidateCommand.validationLimits(arguments, checkingProfiles: false)
        var target: DirectoryWriter.Target?
        for file in files { target = try DirectoryWriter.target(directory, input: file) }
        guard let target else { throw .usage("give a FILE (or several, or a folder)") }
        let progress = Progress(total: files.count)
        let operation = CampaignOperation(request, limits: limits)
        // First every file, read once, then its report: the campaign is what is approved, and each
        // creative's render uses the bytes approved (never read again).
        let approval = operation.approve(files) { index in
            progress.show("reading", index, files[index])
            return CreativeInput(read(files[index], limits: limits))
        }
        let partial = try DirectoryWriter.begin(target)
        var manifests: [(String, JSONValue)] = []
        var printFailure: CLIError?
        do throws(CLIError) {
            let outcome = operation.run(approval, sink: { index, folder in
                progress.show("rendering", index, files[index])
                return DirectoryWriter.sink(into: partial, prefix: folder + "/")
            }, keep: { index, output throws(ImagingError) in
                try DirectoryWriter.sink(into: partial, prefix: approval.names[index] + "/")(JobResult.manifestName, output.manifest)
            }, done: { member in
                if case .success(let result) = member.outcome { manifests.append((member.name, result.manifest)) } else {
                    DirectoryWriter.removeTree("\(partial.path)/\(member.name)")
                    manifests.append((member.name, .null))
                }
                guard !arguments.flag("--json"), printFailure == nil else { return }
                // The progress line is cleared first: the summary starts its own line on a terminal.
                progress.clear()
                do throws(CLIError) { try Streams.outEscaped(summary(member)) } catch { printFailure = error }
            })
            if let printFailure { throw printFailure }
            progress.show("drawing the \(CampaignJob.sheetStem) sheet", files.count - 1, "")
            let sheet: JobFile?
            do throws(ImagingError) {
                sheet = try operation.sheet(outcome, writingTo: DirectoryWriter.sink(into: partial))
            } catch {
                throw .imaging(error, file: CampaignJob.sheetStem + " sheet")
            }
            let campaign = operation.json(outcome, sheet: sheet)
            try partial.put(CampaignJob.campaignName, Array((campaign.serialized() + "\n").utf8))
            progress.clear()
            try DirectoryWriter.commit(partial, input: files[0])
            let rendered = outcome.rendered
            if arguments.flag("--json") {
                try Streams.outJSON(.object([("campaign", campaign), ("manifests", .object(manifests))]))
            } else {
                try Streams.outEscaped("campaign of \(files.count) creative\(files.count == 1 ? "" : "s"): \(rendered) rendered, "
                    + "\(files.count - rendered) not; wrote \(directory)/\(CampaignJob.campaignName) and "
                    + (sheet.map { "\(directory)/\($0.name)" } ?? "no sheet") + " in \(StageTimer.milliseconds(timer.elapsed))")
            }
            timer.finish()
            return rendered == files.count ? ExitCode.success : ExitCode.failure
        } catch {
            progress.clear()
            DirectoryWriter.abandon(partial)
            throw error
        }
    }

    /// The extensions of a folder's files that are taken as creatives: the accepted formats',
    /// and image formats that are refused with a reason (`unsupported_format`). A folder's other
    /// files (`README.txt`, `notes.pdf`, `brief.docx`) are left out, as hidden files are; a file
    /// without an extension is taken (its bytes say what it is). A FILE named alone is always taken.
    static let folderImageExtensions: Set<String> = Set(ImageFormat.allCases.flatMap(\.extensions))
        .union(["avif", "heic", "heif", "bmp", "tif", "tiff", "svg", "jxl", "jp2", "j2k", "ico", "psd", "exr"])

    /// True when a folder's file is taken as a creative: its name is not hidden, and it has no
    /// extension or one of ``folderImageExtensions`` (in any case).
    static func takesFromFolder(_ name: String) -> Bool {
        guard !name.hasPrefix(".") else { return false }
        guard let dot = name.lastIndex(of: ".") else { return true }
        return folderImageExtensions.contains(name[name.index(after: dot)...].lowercased())
    }

    /// The files of the operands: each file, and each folder's regular files whose names are
    /// images' (``takesFromFolder(_:)``: not hidden, an image's extension or none), by name.
    private static func inputs(_ operands: [String]) throws(CLIError) -> [String] {
        var files: [String] = []
        for operand in operands {
            if operand == "-" { throw .usage("'-' (standard input) takes one FILE, not a campaign") }
            if FileIO.isDirectory(operand) {
                var folder = operand
                while folder.count > 1 && folder.hasSuffix("/") { folder.removeLast() }
                let inside = DirectoryWriter.names(in: folder).filter(takesFromFolder)
                    .map { "\(folder)/\($0)" }.filter(FileIO.isRegularFile)
                if inside.isEmpty { throw .usage("\(operand): the folder holds no image files") }
                files += inside
            } else {
                files.append(operand)
            }
        }
        guard files.count <= maxCreatives else {
            throw .usage("\(files.count) creatives; a campaign takes at most \(maxCreatives)")
        }
        return files
    }

    private static func read(_ file: String, limits: ValidationLimits) -> Result<[UInt8], FileIO.ReadFailure> {
        Result(catching: { () throws(FileIO.ReadFailure) in try FileIO.read(file, limit: limits.maxBytes) })
    }

    /// One line per creative: valid with its renders, rejected with its first code, or failed.
    static func summary(_ member: CampaignMember) -> String {
        switch member.outcome {
        case .success(let result) where result.report.valid:
            let warnings = result.report.warnings.map(\.code.rawValue)
            return "\(member.file): valid; \(result.slots.count) render\(result.slots.count == 1 ? "" : "s") in \(member.name)/"
                + (warnings.isEmpty ? "" : " - warnings: " + warnings.joined(separator: ", "))
        case .success(let result):
            return ValidateCommand.humanLine(result.report)
        case .failure(.duplicateSize(let size, let kept)):
            return "\(member.file): not rendered: duplicate_size: \(size) is also \(kept)'s size; \(kept) is kept "
                + "(given first; the ad server serves one creative per size)"
        case .failure(let error):
            return "\(member.file): failed: \(error.code): \(error.message)"
        }
    }

    /// The progress line: on a terminal (standard error) only, rewritten in place.
    final class Progress {
        let total: Int
        let shown: Bool

        init(total: Int) {
            self.total = total
            shown = isatty(2) == 1
        }

        func show(_ stage: String, _ index: Int, _ file: String) {
            guard shown else { return }
            let line = "[\(index + 1)/\(total)] \(stage) \(TextFormat.clipped(file, 60))"
            _ = Streams.write(2, Array(("\r\u{1B}[K" + TextFormat.escaped(line)).utf8))
        }

        func clear() {
            if shown { _ = Streams.write(2, Array("\r\u{1B}[K".utf8)) }
        }
    }
}
