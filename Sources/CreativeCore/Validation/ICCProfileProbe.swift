/// Bounds an embedded ICC colour profile before any colour engine sees it.
///
/// Little CMS builds a transform by evaluating every stage of a profile's pipelines on a grid of
/// colours, before the first pixel is converted, and nothing stops it halfway: a 160 KB profile
/// whose `multiProcessElements` tag lists 20,000 stages costs 17 s of CPU, whatever the job's
/// deadline. This walk reads the header and the tag table, and for each tag that holds a
/// pipeline (`lut8`, `lut16`, `lutAtoB`, `lutBtoA`, `multiProcessElements`) counts its stages and
/// checks that its curves and colour lookup tables fit in the bytes the tag has. Nothing is
/// allocated beyond the walk; every step moves forward by a fixed amount, so it is linear in the
/// tag count. A profile refused here is never given to a decoder (the image is taken as sRGB,
/// see docs/validation.md).
public enum ICCProfileProbe {
    /// Largest profile accepted: 4 MiB. sRGB's is 3 KB; the largest press profiles (CMYK with
    /// 33-point tables for every intent) are about 2 MB.
    public static let maxProfileBytes = 4 << 20
    /// Most tags a profile may list: 100, Little CMS's own limit (`MAX_TABLE_TAG`).
    public static let maxTags = 100
    /// Most stages one pipeline tag may have: 32. `lut8` and `lut16` have 4, `lutAtoB` and
    /// `lutBtoA` at most 5, and the floating-point `multiProcessElements` of real profiles 2-6.
    public static let maxStagesPerTag = 32
    /// Most stages all the pipeline tags may have together: 256 (a press profile with every
    /// intent in both directions, integer and float, has about 70).
    public static let maxTotalStages = 256
    /// Most inputs of a colour lookup table: 8. A lookup table's evaluation doubles with each
    /// input; images have at most 4 channels.
    public static let maxLookupInputs = 8
    /// Most channels a stage may produce: 15, the ICC's largest colour space.
    public static let maxChannels = 15

    /// What the walk counted in a profile within bounds.
    public struct Census: Sendable, Equatable {
        /// Tags in the tag table.
        public var tags: Int
        /// Pipeline stages over all the tags that hold one (shared tag data counted once).
        public var stages: Int

        public init(tags: Int, stages: Int) {
            self.tags = tags
            self.stages = stages
        }
    }

    /// The decision on a profile: within bounds (what was counted), or refused (why, a phrase
    /// that completes "the colour profile ...").
    public enum Verdict: Sendable, Equatable {
        case bounded(Census)
        case refused(String)
    }

    /// Walks `profile` (an ICC profile's bytes as embedded) and decides.
    public static func verdict(_ profile: [UInt8]) -> Verdict {
        guard profile.count <= maxProfileBytes else {
            return .refused("has \(profile.count) bytes, over the cap of \(maxProfileBytes)")
        }
        let reader = Reader(bytes: profile)
        guard profile.count >= 132, reader.tag(36) == "acsp", let declared = reader.u32(0), declared >= 132 else {
            return .refused("is not an ICC profile (no 'acsp' header)")
        }
        let end = min(declared, profile.count)
        guard let count = reader.u32(128), count <= maxTags else {
            return .refused("lists \(reader.u32(128) ?? 0) tags, over the limit of \(maxTags)")
        }
        let tableEnd = 132 + count * 12
        guard tableEnd <= end else { return .refused("has a tag table longer than the profile") }
        // The spans of the tags read so far, and whether each holds a pipeline.
        var spans: [(range: Range<Int>, pipeline: Bool)] = []
        var seen = Set<Range<Int>>()
        var stages = 0
        for index in 0..<count {
            let entry = 132 + index * 12
            guard let name = reader.tag(entry), let offset = reader.u32(entry + 4), let size = reader.u32(entry + 8),
                  offset >= tableEnd, size >= 8, offset <= end, size <= end - offset else {
                return .refused("has tag \(index) outside the profile's \(end) bytes")
            }
            let span = offset..<offset + size
            // Tags may share data (the same offset and size). A pipeline's data may not partly
            // overlap another tag's: a pipeline is what costs, and its tables must be its own.
            // Other tags may (libvips 8.14's own Display P3 profile declares a 'desc' that runs
            // over 'cprt', 'wtpt' and 'rXYZ'): each is read within its own bytes.
            guard seen.insert(span).inserted else { continue }
            let pipeline = Self.pipelineTypes.contains(reader.tag(offset) ?? "")
            if spans.contains(where: { $0.range.overlaps(span) && ($0.pipeline || pipeline) }) {
                return .refused("has tags that overlap ('\(name)')")
            }
            spans.append((span, pipeline))
            switch pipelineStages(reader, span) {
            case .failure(let problem): return .refused("has a '\(name)' tag that \(problem.text)")
            case .success(let tagStages):
                guard tagStages <= maxStagesPerTag else {
                    return .refused("has a '\(name)' pipeline of \(tagStages) stages, over the limit of \(maxStagesPerTag)")
                }
                stages += tagStages
            }
        }
        guard stages <= maxTotalStages else {
            return .refused("has pipelines of \(stages) stages in all, over the limit of \(maxTotalStages)")
        }
        return .bounded(Census(tags: count, stages: stages))
    }

    private struct Problem: Error { let text: String }

    /// The tag types that hold a pipeline Little CMS evaluates: lut8, lut16, lutAtoB, lutBtoA,
    /// multiProcessElements.
    static let pipelineTypes: Set<String> = ["mft1", "mft2", "mAB ", "mBA ", "mpet"]

    /// The stages of the pipeline a tag's data holds (0 for a tag that holds none), or what is
    /// wrong with it.
    private static func pipelineStages(_ reader: Reader, _ span: Range<Int>) -> Result<Int, Problem> {
        let start = span.lowerBound, size = span.count
        let type = reader.tag(start) ?? ""
        func fail(_ text: String) -> Result<Int, Problem> { .failure(Problem(text: text)) }
        switch type {
        case "curv":
            guard let entries = reader.u32(start + 8), entries <= (size - 12) / 2 else { return fail("has a curve longer than its data") }
            return .success(0)
        case "mft1", "mft2":
            // lut8 / lut16: matrix, input curves, lookup table, output curves.
            let inputs = reader.u8(start + 8), outputs = reader.u8(start + 9), grid = reader.u8(start + 10)
            guard (1...maxLookupInputs).contains(inputs), (1...maxChannels).contains(outputs) else {
                return fail("has \(inputs) inputs and \(outputs) outputs")
            }
            let sixteen = type == "mft2"
            let (inEntries, outEntries) = sixteen ? (reader.u16(start + 48) ?? 0, reader.u16(start + 50) ?? 0) : (256, 256)
            let sample = sixteen ? 2 : 1
            let table = gridNodes(Array(repeating: grid, count: inputs)).map { $0 * outputs * sample }
            guard let table, inputs * inEntries * sample + table + outputs * outEntries * sample <= size - (sixteen ? 52 : 48) else {
                return fail("has tables longer than its data")
            }
            return .success(4)
        case "mAB ", "mBA ":
            let inputs = reader.u8(start + 8), outputs = reader.u8(start + 9)
            guard (1...maxChannels).contains(inputs), (1...maxChannels).contains(outputs) else {
                return fail("has \(inputs) inputs and \(outputs) outputs")
            }
            var stages = 0
            for field in 0..<5 {
                guard let offset = reader.u32(start + 12 + field * 4), offset < size else { return fail("points outside its data") }
                guard offset != 0 else { continue }
                stages += 1
                if field == 3 {  // the lookup table: a grid point count per input, a precision, the table
                    let lookupInputs = type == "mAB " ? inputs : outputs
                    let lookupOutputs = type == "mAB " ? outputs : inputs
                    guard lookupInputs <= maxLookupInputs else { return fail("has a lookup table of \(lookupInputs) inputs") }
                    let grid = (0..<lookupInputs).map { reader.u8(start + offset + $0) }
                    let precision = reader.u8(start + offset + 16)
                    guard precision == 1 || precision == 2, let nodes = gridNodes(grid),
                          nodes * lookupOutputs * precision <= size - offset - 20 else {
                        return fail("has a lookup table longer than its data")
                    }
                }
            }
            return .success(stages)
        case "mpet":
            // multiProcessElements: a stage count, then an offset and size per stage.
            guard let elements = reader.u32(start + 12) else { return fail("is cut short") }
            guard elements <= maxStagesPerTag else { return .success(elements) }
            guard 16 + elements * 8 <= size else { return fail("lists more stages than its data holds") }
            for element in 0..<elements {
                guard let offset = reader.u32(start + 16 + element * 8), let length = reader.u32(start + 20 + element * 8),
                      offset >= 16, length >= 12, offset <= size, length <= size - offset else {
                    return fail("has a stage outside its data")
                }
                if reader.tag(start + offset) == "clut" {
                    let inputs = reader.u16(start + offset + 8) ?? 0, outputs = reader.u16(start + offset + 10) ?? 0
                    guard (1...maxLookupInputs).contains(inputs), (1...maxChannels).contains(outputs) else {
                        return fail("has a lookup table of \(inputs) inputs and \(outputs) outputs")
                    }
                    let grid = (0..<inputs).map { reader.u8(start + offset + 12 + $0) }
                    guard let nodes = gridNodes(grid), nodes * outputs * 4 <= length - 28 else {
                        return fail("has a lookup table longer than its data")
                    }
                }
            }
            return .success(elements)
        default:
            return .success(0)
        }
    }

    /// The nodes of a lookup table's grid (the product of its points per input), or nil when a
    /// side has fewer than 2 points or the product passes ``maxProfileBytes``.
    private static func gridNodes(_ points: [Int]) -> Int? {
        var nodes = 1
        for count in points {
            guard count >= 2 else { return nil }
            nodes *= count
            if nodes > maxProfileBytes { return nil }
        }
        return nodes
    }

    /// Big-endian reads that return nil (or 0 for a byte) past the end.
    private struct Reader {
        let bytes: [UInt8]

        func u8(_ offset: Int) -> Int { offset >= 0 && offset < bytes.count ? Int(bytes[offset]) : 0 }

        func u16(_ offset: Int) -> Int? { read(offset, 2) }

        func u32(_ offset: Int) -> Int? { read(offset, 4) }

        /// A four-character signature.
        func tag(_ offset: Int) -> String? {
            guard offset >= 0, offset + 4 <= bytes.count else { return nil }
            return String(decoding: bytes[offset..<offset + 4], as: UTF8.self)
        }

        private func read(_ offset: Int, _ count: Int) -> Int? {
            guard offset >= 0, offset + count <= bytes.count else { return nil }
            return bytes[offset..<offset + count].reduce(0) { $0 << 8 | Int($1) }
        }
    }
}
