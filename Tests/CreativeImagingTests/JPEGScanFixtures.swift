import CreativeCore
import CreativeTestSupport

/// Baseline JPEGs written byte by byte, each component coded in a scan of its own: every block
/// is flat (a DC difference of 0 and an end of block, two bits), so a 7070x7070 CMYK file is
/// about 780 KB and decodes to mid grey. libvips cannot write such a file.
extension Fixtures {
    static func baselineScanPerComponent(width: Int, height: Int, components: Int) -> [UInt8] {
        func segment(_ marker: UInt8, _ body: [UInt8]) -> [UInt8] { [0xFF, marker] + be16(body.count + 2) + body }
        var jpeg: [UInt8] = [0xFF, 0xD8]
        jpeg += segment(0xDB, [0] + Array(repeating: 1, count: 64))  // quantisation table 0: all ones
        var frame: [UInt8] = [8] + be16(height) + be16(width) + [UInt8(components)]
        for id in 1...components { frame += [UInt8(id), 0x11, 0] }
        jpeg += segment(0xC0, frame)
        // One Huffman code, '0', of length 1: DC category 0, and AC end of block.
        let oneCode = [1] + Array(repeating: UInt8(0), count: 15) + [0]
        jpeg += segment(0xC4, [0x00] + oneCode + [0x10] + oneCode)
        if components == 4 {  // Adobe APP14, transform 0: the four components are CMYK
            jpeg += segment(0xEE, Array("Adobe".utf8) + [0, 100, 0, 0, 0, 0, 0])
        }
        let blocks = ((width + 7) / 8) * ((height + 7) / 8)
        for id in 1...components {
            jpeg += segment(0xDA, [1, UInt8(id), 0x00, 0, 63, 0])
            // Two zero bits a block, padded with ones.
            jpeg += Array(repeating: 0, count: blocks / 4)
            if blocks % 4 != 0 { jpeg.append(UInt8(0xFF >> (2 * (blocks % 4)))) }
        }
        return jpeg + [0xFF, 0xD9]
    }
}
