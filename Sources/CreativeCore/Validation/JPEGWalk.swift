/// What a walk of a JPEG's segments found, up to its end: the frame's components, and each
/// scan's. Read from the SOF and SOS headers alone, before any decoder sees the file.
public struct JPEGWalk: Sendable, Equatable {
    /// The offset just past EOI, or nil when the walk ends without one (a cut or a broken segment).
    public var end: Int?
    /// Scans (SOS segments) met.
    public var scans = 0
    /// Coefficients the scans cover, summed over the scans: each scan is a pass over every block
    /// of the components it carries (at their sampling), whatever band of coefficients it codes.
    /// The measure of the entropy decoder's time for a progressive or multi-scan JPEG.
    public var scanCoefficients = 0
    /// True when some scan carries fewer components than the frame has: baseline or progressive,
    /// libjpeg then keeps every coefficient of the whole image until the last scan.
    public var scanLacksAComponent = false

    /// The frame's components: identifier, horizontal and vertical sampling factors.
    private var components: [(id: UInt8, horizontal: Int, vertical: Int)] = []
    private var size = PixelSize(width: 0, height: 0)

    public static func == (lhs: JPEGWalk, rhs: JPEGWalk) -> Bool {
        lhs.end == rhs.end && lhs.scans == rhs.scans && lhs.scanCoefficients == rhs.scanCoefficients
            && lhs.scanLacksAComponent == rhs.scanLacksAComponent
    }

    /// Walks JPEG segments (skipping each by its length, so an EXIF thumbnail's EOI is not taken
    /// for the image's) and the entropy-coded data after each SOS, up to EOI. Every step moves
    /// forward, so the walk is linear in the file's size.
    public init(_ bytes: [UInt8]) {
        var offset = 2
        while offset + 1 < bytes.count {
            guard bytes[offset] == 0xFF else { offset += 1; continue }  // entropy-coded data
            let marker = bytes[offset + 1]
            switch marker {
            case 0xD9:
                end = offset + 2
                return
            case 0xFF: offset += 1  // fill byte
            case 0x00, 0x01, 0xD0...0xD8: offset += 2  // stuffed 0xFF, TEM, RSTn, SOI: no length
            default:
                guard offset + 4 <= bytes.count else { return }
                let length = Int(bytes[offset + 2]) << 8 | Int(bytes[offset + 3])
                guard length >= 2 else { return }
                let segment = bytes[min(bytes.count, offset + 4)..<min(bytes.count, offset + 2 + length)]
                if Self.isStartOfFrame(marker), components.isEmpty { readFrame(segment) }
                if marker == 0xDA { readScan(segment) }
                offset += 2 + length
            }
        }
    }

    static func isStartOfFrame(_ marker: UInt8) -> Bool {
        (0xC0...0xCF).contains(marker) && ![0xC4, 0xC8, 0xCC].contains(marker)
    }

    /// SOF: precision, height, width, component count, then 3 bytes a component.
    private mutating func readFrame(_ segment: ArraySlice<UInt8>) {
        let data = Array(segment)
        guard data.count >= 6 else { return }
        size = PixelSize(width: Int(data[3]) << 8 | Int(data[4]), height: Int(data[1]) << 8 | Int(data[2]))
        let count = Int(data[5])
        for index in 0..<count where 6 + index * 3 + 2 < data.count {
            let factors = data[6 + index * 3 + 1]
            components.append((data[6 + index * 3], max(1, Int(factors >> 4)), max(1, Int(factors & 0x0F))))
        }
    }

    /// SOS: component count, then 2 bytes a component (identifier, tables).
    private mutating func readScan(_ segment: ArraySlice<UInt8>) {
        scans += 1
        let data = Array(segment)
        guard let count = data.first.map(Int.init) else { return }
        if count < components.count { scanLacksAComponent = true }
        let maxHorizontal = components.map(\.horizontal).max() ?? 1, maxVertical = components.map(\.vertical).max() ?? 1
        for index in 0..<count where 1 + index * 2 < data.count {
            let id = data[1 + index * 2]
            // A component's samples: the frame's, scaled by its sampling against the largest.
            let factors = components.first { $0.id == id } ?? (id, maxHorizontal, maxVertical)
            let width = (size.width * factors.horizontal + maxHorizontal - 1) / maxHorizontal
            let height = (size.height * factors.vertical + maxVertical - 1) / maxVertical
            let sum = scanCoefficients.addingReportingOverflow(width * height)
            scanCoefficients = sum.overflow ? Int.max : sum.partialValue
        }
    }
}
