import CreativeCore
import CreativeImaging
import CreativeOperations

/// A campaign job (the entry's `sources`): its creatives processed as one campaign, as `process
/// a.png b.png --output-dir DIR` does (``CampaignJob``). Every source is read first (a missing
/// one fails the job, nothing written); each valid creative is rendered where it wins among the
/// campaign's sizes; its files go under `PREFIX/campaigns/<key>/<version>/<name>/`, its
/// manifest last, and `campaign.png` then `campaign.json` beside them. `campaign.json`, written
/// last, is the campaign's commit point: one that exists is complete, and answers the same
/// campaign again with no work. `<key>` is the SHA-256 of each creative's folder name and
/// content (its bytes' SHA-256, or for a source over `--max-bytes` its size and head's).
extension JobHandler {
    func executeCampaign(_ sources: [S3Location], settings: JobSettings, entry: String) throws(FleetError) -> Answer {
        var inputs: [JobInput] = []
        for source in sources { inputs.append(try store.get(source, limit: settings.maxBytes)) }
        let files = sources.map(\.description)
        let names = CampaignJob.folderNames(files)
        let key = zip(names, inputs).map { name, input in
            switch input {
            case .bytes(let bytes): "\(name) \(Checksum.sha256(bytes))"
            case .tooLarge(let size, let head): "\(name) over \(size) \(Checksum.sha256(head))"
            }
        }.joined(separator: "\n")
        let folder = config.store.appending("campaigns/\(Checksum.sha256(Array(key.utf8)))/\(settings.version)/")
        let commit = folder.appending(CampaignJob.campaignName)
        let earlier = { () throws(FleetError) -> Answer? in try self.earlierCampaign(commit, folder: folder) }
        if let answer = try earlier() { return answer }
        return try exclusively(folder, entry: entry, answeredBy: earlier) { () throws(FleetError) in
            try self.runCampaign(inputs, files: files, settings: settings, folder: folder)
        }
    }

    /// Validates every creative, runs each valid one's job among the campaign's sizes
    /// (``CampaignOperation``), uploads each one's files as soon as it is done, then the sheet
    /// and `campaign.json`.
    private func runCampaign(_ inputs: [JobInput], files: [String], settings: JobSettings,
                             folder: S3Location) throws(FleetError) -> Answer {
        let operation = CampaignOperation(limits: runner.limits(settings), settings: settings.process)
        let approval = operation.approve(files) { CreativeInput(inputs[$0]) }
        var storeError: FleetError?
        let outcome = operation.run(approval, sink: { _, _ in nil }) { index, output throws(ImagingError) in
            // Written as the job made them, the manifest last: a creative's manifest lists only files there.
            do throws(FleetError) {
                for (name, bytes) in output.files {
                    let file = output.result.files.first { $0.name == name }
                    try retrying { () throws(FleetError) in
                        try self.store.put(bytes, at: folder.appending("\(approval.names[index])/\(name)"),
                                           contentType: file?.mediaType ?? GuidanceFormat.json.mediaType,
                                           sha256: file?.sha256)
                    }
                }
            } catch {
                storeError = error
                throw .io(error.description)
            }
        }
        if let storeError { throw storeError }
        let sheet: JobFile?
        do throws(ImagingError) { sheet = try drawSheet(outcome, operation: operation, folder: folder) } catch {
            return Answer.failed(code: error.code, message: "\(CampaignJob.sheetStem) sheet: \(error.message)")
        }
        let campaign = operation.json(outcome, sheet: sheet)
        TestHook.hold(config.testHook, source: files.joined(separator: "\n"))
        let commit = folder.appending(CampaignJob.campaignName)
        try retrying { () throws(FleetError) in
            try self.store.put(Array((campaign.serialized() + "\n").utf8), at: commit, contentType: GuidanceFormat.json.mediaType)
        }
        return Self.campaignAnswer(campaign, commit: commit, folder: folder, cached: false)
            ?? Answer.failed(.badJob("campaign.json could not be read back"))
    }

    /// `campaign.png` from the rendered creatives' bytes as approved (one per size), uploaded; nil
    /// when none was rendered.
    private func drawSheet(_ outcome: CampaignOperation.Outcome, operation: CampaignOperation,
                           folder: S3Location) throws(ImagingError) -> JobFile? {
        let drawn = try operation.sheet(outcome)
        guard let sheet = drawn else { return nil }
        do throws(FleetError) {
            try retrying { () throws(FleetError) in
                try self.store.put(sheet.bytes, at: folder.appending(sheet.name), contentType: OutputFormat.png.mediaType,
                                   sha256: sheet.sha256)
            }
        } catch {
            throw .io(error.description)
        }
        return sheet
    }

    /// The answer an existing `campaign.json` gives, or nil when there is none.
    private func earlierCampaign(_ commit: S3Location, folder: S3Location) throws(FleetError) -> Answer? {
        let found: S3Download
        do { found = try store.get(commit, limit: 1 << 24) } catch .notFound { return nil }
        guard case .bytes(let bytes) = found,
              let campaign = try? JSONParser.parse(bytes, maxDepth: 16, maxValues: 1 << 20) else { return nil }
        return Self.campaignAnswer(campaign, commit: commit, folder: folder, cached: true)
    }

    /// What `campaign.json` says, for the result entry (the same for a campaign just done and one
    /// found done): `valid` when every creative is valid and none failed, else `rejected`; the
    /// codes of every creative (its validation codes, its failure's, `over_weight_budget` when a
    /// slot of its size has no render), each once; the manifest of each creative that has one.
    static func campaignAnswer(_ campaign: JSONValue, commit: S3Location, folder: S3Location, cached: Bool) -> Answer? {
        guard case .object(let fields) = campaign,
              case .array(let creatives)? = fields.first(where: { $0.0 == "creatives" })?.1 else { return nil }
        var codes: [String] = [], manifests: [String] = [], allValid = true, sizes: [JSONValue] = []
        func add(_ code: String) { if !codes.contains(code) { codes.append(code) } }
        for case .object(let creative) in creatives {
            let value = { (name: String) in creative.first(where: { $0.0 == name })?.1 }
            let failed = value("failure").map { $0 != .null } ?? true
            let valid = value("valid") == .bool(true) && !failed
            allValid = allValid && valid
            if case .array(let list)? = value("codes") { for case .string(let code) in list { add(code) } }
            if failed, case .object(let failure)? = value("failure"),
               case .string(let code)? = failure.first(where: { $0.0 == "code" })?.1 { add(code) }
            if valid, let size = value("size_pixels") { sizes.append(size) }
            if !failed, case .string(let name)? = value("name") {
                manifests.append(folder.appending("\(name)/\(JobResult.manifestName)").description)
            } else {
                manifests.append("")
            }
        }
        guard manifests.count == creatives.count else { return nil }
        if case .array(let slots)? = fields.first(where: { $0.0 == "slots" })?.1 {
            for case .object(let slot) in slots {
                let value = { (name: String) in slot.first(where: { $0.0 == name })?.1 }
                if value("file") == .null, let artwork = value("artwork_pixels"), sizes.contains(artwork) {
                    add(ImagingError.overWeightBudgetCode)
                }
            }
        }
        let sheet = fields.first(where: { $0.0 == "sheet" })?.1 ?? .null
        var answer = Answer(status: allValid ? "valid" : "rejected", codes: codes, manifest: "", cached: cached)
        answer.campaign = commit.description
        answer.sheet = if case .object(let described) = sheet, case .string(let name)? = described.first(where: { $0.0 == "file" })?.1 {
            folder.appending(name).description
        } else { "" }
        answer.manifests = manifests
        return answer
    }
}
