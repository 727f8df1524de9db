import CreativeCore
import CreativeImaging

/// What in an output folder `process` wrote (``DirectoryWriter``'s rule for replacing it): the
/// files its manifest, or a campaign's `campaign.json`, lists with exactly their bytes.
extension DirectoryWriter {
    /// The entries of a folder that process did not write: every entry unless `manifest.json`
    /// is a regular file starting with the marker; then each entry that is not `manifest.json`
    /// or a regular file the manifest lists as a render or the preview with exactly its bytes
    /// (`"file":NAME,"file_bytes":N,"sha256":HEX`, in the order CreativeJob writes them; `"bytes"`
    /// in manifests of schema version 1): a file someone changed or added is never taken for
    /// process's own.
    static func strays(in folder: String) -> [String] {
        let entries = names(in: folder)
        guard !entries.isEmpty else { return [] }
        let manifestPath = "\(folder)/manifest.json"
        let prefix = Array("{\(JSONValue.string(markerKey).serialized()):\(JSONValue.string(markerValue).serialized()),".utf8)
        if !exists(manifestPath), exists("\(folder)/\(campaignName)") { return campaignStrays(in: folder, marker: prefix) }
        guard isRegular(manifestPath), let manifest = try? FileIO.read(manifestPath, limit: 1 << 22),
              manifest.starts(with: prefix), let listing = manifest.firstRange(of: Array("\"renders\":".utf8)) else {
            return entries
        }
        // String values are escaped JSON, so these fields past `"renders":` are a listed file.
        let listed = manifest[listing.upperBound...]
        return entries.filter { name in
            if name == "manifest.json" { return false }
            guard isRegular("\(folder)/\(name)"), let bytes = try? FileIO.read("\(folder)/\(name)", limit: 1 << 26) else {
                return true
            }
            let sha256 = Checksum.sha256(bytes)
            return ["file_bytes", "bytes"].allSatisfy { key in
                let fields = "\"file\":\(JSONValue.string(name).serialized()),\"\(key)\":\(bytes.count),\"sha256\":\"\(sha256)\""
                return listed.firstRange(of: Array(fields.utf8)) == nil
            }
        }
    }

    /// The campaign's own file in a folder of several creatives (``CampaignJob/campaignName``).
    static let campaignName = CampaignJob.campaignName

    /// The entries of a campaign's folder that process did not write: every entry unless
    /// `campaign.json` is a regular file starting with the marker; then each entry that is not
    /// `campaign.json`, the contact sheet with exactly the bytes it lists, or a creative's folder
    /// with no strays of its own.
    private static func campaignStrays(in folder: String, marker: [UInt8]) -> [String] {
        let entries = names(in: folder)
        let path = "\(folder)/\(campaignName)"
        guard isRegular(path), let campaign = try? FileIO.read(path, limit: 1 << 24), campaign.starts(with: marker) else {
            return entries
        }
        return entries.filter { name in
            if name == campaignName { return false }
            let entry = "\(folder)/\(name)"
            if isDirectory(entry) { return !exists("\(entry)/manifest.json") || !strays(in: entry).isEmpty }
            guard isRegular(entry), let bytes = try? FileIO.read(entry, limit: 1 << 26) else { return true }
            let fields = "\"file\":\(JSONValue.string(name).serialized()),\"file_bytes\":\(bytes.count),"
                + "\"sha256\":\"\(Checksum.sha256(bytes))\""
            return campaign.firstRange(of: Array(fields.utf8)) == nil
        }
    }
}
