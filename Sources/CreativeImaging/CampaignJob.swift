import CreativeCore

/// One creative of a campaign as the campaign job saw it: its name (the folder its files go
/// in), and what its own job gave, or why it failed.
public struct CampaignMember: Sendable {
    /// The creative's folder inside the campaign's: its file name without the extension, made unique.
    public let name: String
    /// The file as the caller named it.
    public let file: String
    /// The job's result (valid or rejected), or the error of a valid creative that could not be rendered.
    public let outcome: Result<JobResult, ImagingError>

    public init(name: String, file: String, outcome: Result<JobResult, ImagingError>) {
        self.name = name
        self.file = file
        self.outcome = outcome
    }

    /// Whether the creative was rendered: valid, and its job did not fail.
    public var rendered: Bool { if case .success(let result) = outcome { result.report.valid } else { false } }
}

/// Several creatives as one campaign: the ad server chooses among the campaign's approved
/// creatives, so each is rendered only where it wins among the valid ones (and the sizes given
/// with `with`), and `campaign.json` lists every device slot with the creative served there.
public enum CampaignJob {
    /// The campaign's own file, beside the creatives' folders.
    public static let campaignName = "campaign.json"
    /// The contact sheet of every device slot with the creative served in it, without its
    /// extension: `campaign.png`, or `campaign.jpg` for a sheet too heavy for PNG (``SheetFile``).
    public static let sheetStem = "campaign"
    /// Both names the contact sheet may have.
    public static let sheetNames = PreviewSheet.fileNames(sheetStem)

    /// The campaign's sizes: each valid creative's (in order, each size once), then `with`'s.
    /// `reports`: each creative's validation report.
    public static func sizes(valid reports: [ValidationReport], with: [PixelSize]) -> [PixelSize] {
        var sizes: [PixelSize] = []
        for report in reports where report.valid {
            if let size = report.dimensions, !sizes.contains(size) { sizes.append(size) }
        }
        for size in with where !sizes.contains(size) { sizes.append(size) }
        return sizes
    }

    /// Runs each creative's job, in order, among the campaign's sizes (``sizes(valid:with:)`` of
    /// `reports`, each creative's validation report, and `with`): `job(index, sizes)` runs the
    /// creative at `index`. A valid creative of a size an earlier one of the campaign already has
    /// is not run: it fails with `duplicate_size`, naming the one kept (the ad server serves one
    /// creative per size: the first given). `done`
    /// hears each member as soon as it is done.
    public static func run(files: [String], reports: [ValidationReport], with: [PixelSize],
                           job: (Int, [PixelSize]) -> Result<JobResult, ImagingError>,
                           done: (CampaignMember) -> Void = { _ in }) -> [CampaignMember] {
        let sizes = self.sizes(valid: reports, with: with)
        let names = folderNames(files)
        var taken: [PixelSize: String] = [:]
        var members: [CampaignMember] = []
        for (index, file) in files.enumerated() {
            let outcome: Result<JobResult, ImagingError>
            let size = reports[index].valid ? reports[index].dimensions : nil
            if let size, let first = taken[size] {
                outcome = .failure(.duplicateSize(size, kept: first))
            } else {
                if let size { taken[size] = file }
                outcome = job(index, sizes)
            }
            let member = CampaignMember(name: names[index], file: file, outcome: outcome)
            members.append(member)
            done(member)
        }
        return members
    }

    /// What the contact sheet (``CampaignSheet``) draws: each rendered creative's size and the
    /// copy its job made from its decode (``JobResult/sheetCopy``), the first creative of each
    /// size, in order; one without a copy is skipped.
    public static func sheetCreatives(_ members: [CampaignMember]) -> [(PixelSize, VImage)] {
        var creatives: [(PixelSize, VImage)] = []
        for member in members where member.rendered {
            guard case .success(let result) = member.outcome, let size = result.report.dimensions,
                  !creatives.contains(where: { $0.0 == size }), let copy = result.sheetCopy else { continue }
            creatives.append((size, copy))
        }
        return creatives
    }

    /// The names of the creatives' folders: each file's name without its folder and extension,
    /// made safe (`.` at the start, `/` and control characters replaced) and unique (`-2`, `-3`).
    public static func folderNames(_ files: [String]) -> [String] {
        var taken = Set([campaignName] + sheetNames)
        return files.map { file in
            var base = String(file.split(separator: "/").last ?? "creative")
            if let dot = base.lastIndex(of: "."), dot != base.startIndex { base = String(base[..<dot]) }
            var safe = String(base.map { $0.isASCII && ($0.isLetter || $0.isNumber || "-_+@=,".contains($0)) ? $0 : "_" })
            if safe.isEmpty || safe.hasPrefix(".") || safe == "-" { safe = "creative" + safe }
            safe = String(safe.prefix(120))
            var name = safe, counter = 2
            while taken.contains(name) { name = "\(safe)-\(counter)"; counter += 1 }
            taken.insert(name)
            return name
        }
    }

    /// `campaign.json`: ``CreativeJob/writtenBy``, the version fields, the product, the campaign's
    /// sizes and those given with `with`, each creative (its folder, file, size, whether it is
    /// valid, its codes, its failure, its renders), then every device slot of the campaign
    /// (``DevicePlan/campaignPlan(_:product:)``) with the creative served there, its fill and its
    /// render's weight (`file_bytes`), and the contact sheet.
    public static func json(product: Product, members: [CampaignMember], with: [PixelSize],
                            sheet: JobFile?) -> JSONValue {
        let reports = members.compactMap { member -> ValidationReport? in
            guard member.rendered, case .success(let result) = member.outcome else { return nil }
            return result.report
        }
        let sizes = self.sizes(valid: reports, with: with)
        var servedBy: [PixelSize: (CampaignMember, JobResult)] = [:]
        for member in members where member.rendered {
            if case .success(let result) = member.outcome, let size = result.report.dimensions, servedBy[size] == nil {
                servedBy[size] = (member, result)
            }
        }
        let creatives: [JSONValue] = members.map { member in
            var fields: [(String, JSONValue)] = [("name", .string(member.name)), ("file", .string(member.file))]
            switch member.outcome {
            case .success(let result):
                fields += [
                    ("size_pixels", result.report.dimensions.map(\.json) ?? .null),
                    ("valid", .bool(result.report.valid)),
                    ("codes", .array(result.report.errors.map { .string($0.code.rawValue) })),
                    ("warnings", .array(result.report.warnings.map { .string($0.code.rawValue) })),
                    ("failure", .null),
                    ("renders", .int(result.slots.count)),
                ]
            case .failure(let error):
                var failure: [(String, JSONValue)] = [("code", .string(error.code)), ("message", .string(error.message))]
                var size = JSONValue.null
                if case .duplicateSize(let duplicate, let kept) = error {
                    failure.append(("kept", .string(kept)))
                    size = duplicate.json
                }
                fields += [("size_pixels", size), ("valid", .bool(false)), ("codes", .array([])), ("warnings", .array([])),
                           ("failure", .object(failure)), ("renders", .int(0))]
            }
            fields.append(("manifest", .string("\(member.name)/\(JobResult.manifestName)")))
            return .object(fields)
        }
        let slots: [JSONValue] = DevicePlan.campaignPlan(sizes, product: product).map { assignment in
            var served: [(String, JSONValue)] = [("artwork_pixels", assignment.artwork.json)]
            if let (member, result) = servedBy[assignment.artwork],
               let index = result.slots.firstIndex(where: { $0.deviceSlot == assignment.deviceSlot }) {
                let file = result.files[index]
                served += [("creative", .string(member.name)), ("file", .string("\(member.name)/\(file.name)")),
                           ("file_bytes", .int(file.byteCount)), ("format", file.format.map { .string($0.rawValue) } ?? .null)]
            } else {
                // A size given with `with`: uploaded before, rendered by its own job.
                served += [("creative", .null), ("file", .null), ("file_bytes", .null), ("format", .null)]
            }
            return .object(assignment.jsonFields + served)
        }
        var head: [(String, JSONValue)] = [(CreativeJob.writtenBy.0, .string(CreativeJob.writtenBy.1))]
        head += JSONContract.versionFields
        return .object(head + [
            ("product", .string(product.rawValue)),
            ("campaign_pixels", .array(sizes.map(\.json))),
            ("with_pixels", .array(with.map(\.json))),
            ("creatives", .array(creatives)),
            ("slots", .array(slots)),
            ("sheet", sheet.map { .object([("file", .string($0.name)), ("file_bytes", .int($0.byteCount)),
                                           ("sha256", .string($0.sha256))]) } ?? .null),
        ])
    }
}
