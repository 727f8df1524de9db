import CVips
import CreativeTestSupport
@testable import CreativeImaging

// Apart from PreflightCorpus.swift for the same reason as NoiseFixture.swift: CVips declares
// types named like the Swift wrappers.
extension Fixtures {
    /// One 8-bit sRGB image from one-band images of one size (each cast to 8 bits, clamped).
    static func joinBands(_ bands: [VImage]) throws -> VImage {
        let samples = try bands.map { band in
            try CreativeImaging.VipsOperation("cast").with("in", .image(band)).with("format", .enumeration("uchar"))
                .image().pixelBytes()
        }
        let width = bands[0].width, height = bands[0].height
        var pixels = [UInt8](repeating: 0, count: width * height * bands.count)
        for (index, band) in samples.enumerated() {
            for at in 0..<(width * height) { pixels[at * bands.count + index] = band[at] }
        }
        guard let raw = pixels.withUnsafeBytes({ buffer in
            vips_image_new_from_memory_copy(buffer.baseAddress, buffer.count, Int32(width), Int32(height),
                                            Int32(bands.count), VIPS_FORMAT_UCHAR)
        }) else { throw ImagingError.operationFailed(VipsRuntime.lastVipsError()) }
        return try CreativeImaging.VipsOperation("copy").with("in", .image(VImage(taking: raw)))
            .with("interpretation", .enumeration("srgb")).image()
    }
}
