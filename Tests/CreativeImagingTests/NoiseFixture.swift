import CVips
import CreativeCore
import CreativeTestSupport
@testable import CreativeImaging

// Kept apart from Fixtures.swift: importing CVips there would make `VipsOperation` and
// `VipsArgument` ambiguous (libvips' C API has types of the same names).
extension Fixtures {
    /// Random-looking RGB pixels from a fixed seed (so the files are heavy and reproducible).
    static func noise(_ width: Int, _ height: Int, seed: UInt64 = 1) throws -> VImage {
        try VipsRuntime.start()
        var state = seed | 1
        var pixels = [UInt8](repeating: 0, count: width * height * 3)
        for index in pixels.indices {
            state ^= state << 13; state ^= state >> 7; state ^= state << 17
            pixels[index] = UInt8(truncatingIfNeeded: state >> 24)
        }
        guard let raw = pixels.withUnsafeBytes({ buffer in
            vips_image_new_from_memory_copy(buffer.baseAddress, buffer.count, Int32(width), Int32(height), 3,
                                            VIPS_FORMAT_UCHAR)
        }) else { throw ImagingError.operationFailed(VipsRuntime.lastVipsError()) }
        return try CreativeImaging.VipsOperation("copy").with("in", .image(VImage(taking: raw)))
            .with("interpretation", .enumeration("srgb")).image()
    }
}
