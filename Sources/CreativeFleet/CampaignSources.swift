/// The `sources` field of a campaign job: several creatives processed as one campaign, as
/// `process a.png b.png --output-dir DIR` processes them. One `s3://BUCKET/KEY` per line
/// (`\n`; one newline at the end is allowed), each naming an object as a job's `source` does.
public enum CampaignSources {
    /// Most sources one campaign job names (as `POST /v1/campaign` takes at most 16 creatives).
    public static let maxSources = 16
    /// Most bytes one line may have: a `source`'s limit (``JobFieldLimits/maxBytes(of:)``).
    static var maxLineBytes: Int { JobFieldLimits.maxBytes(of: "source") }
    /// Most bytes the field may have: every line at its limit, with its newline.
    static var maxFieldBytes: Int { maxSources * (maxLineBytes + 1) }

    /// The sources of `text`, in order.
    /// - Throws: ``FleetError/badJob(_:)`` for no source or more than ``maxSources``;
    ///   ``FleetError/badSource(_:)`` (naming the line) for an empty line, a control character,
    ///   a line over ``maxLineBytes``, an address that is not `s3://BUCKET/KEY`, one that names no
    ///   object (``S3Location/objectProblem``), or a source named twice.
    static func parse(_ text: String) throws(FleetError) -> [S3Location] {
        // Split on the byte: a String takes "\r\n" for one character, which "\n" would not split.
        var lines = text.utf8.split(separator: UInt8(ascii: "\n"), omittingEmptySubsequences: false)
            .map { String(decoding: $0, as: UTF8.self) }
        if lines.count > 1, lines.last?.isEmpty == true { lines.removeLast() }
        guard !(lines.count == 1 && lines[0].isEmpty) else {
            throw .badJob("field 'sources' names no source: give one s3://BUCKET/KEY per line")
        }
        guard lines.count <= maxSources else {
            throw .badJob("field 'sources' names \(lines.count) sources; a campaign job takes at most \(maxSources)")
        }
        var sources: [S3Location] = []
        for (index, line) in lines.enumerated() {
            let label = "sources line \(index + 1)"
            guard !line.isEmpty else { throw .badSource("\(label) is empty: give one s3://BUCKET/KEY per line") }
            guard line.utf8.count <= maxLineBytes else {
                throw .badSource("\(label) has \(line.utf8.count) bytes, over the limit of \(maxLineBytes)")
            }
            guard !line.unicodeScalars.contains(where: { $0.value < 0x20 || $0.value == 0x7F }) else {
                throw .badSource("\(label) has a control character (lines end with \\n alone)")
            }
            let source: S3Location
            do throws(FleetError) { source = try S3Location(parsing: line) } catch {
                throw .badSource("\(label): \(error.message)")
            }
            if let problem = source.objectProblem { throw .badSource("\(label): \(problem)") }
            guard !sources.contains(source) else { throw .badSource("\(label): '\(source)' is named twice") }
            sources.append(source)
        }
        return sources
    }
}
