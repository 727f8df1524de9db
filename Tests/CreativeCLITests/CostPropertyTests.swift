import CreativeCore
import CreativeTestSupport
@testable import CreativeImaging
import Foundation
import XCTest
#if canImport(Glibc)
import Glibc
#endif

/// The cost model's promise, end to end: over generated shapes within the caps and every output
/// format, what a job is charged (`--cost`, the same ``JobCost`` the job charges itself) is at
/// least its measured peak RSS minus the process' baseline (an 8x8 render), for `render` and
/// `process`. The service's side is ServiceCostPropertyTests.
final class CostPropertyTests: XCTestCase {
    private static let folder: URL = {
        let url = FileManager.default.temporaryDirectory.appendingPathComponent("creative-cost-\(getpid())")
        try? FileManager.default.createDirectory(at: url, withIntermediateDirectories: true)
        return url
    }()

    /// Peak RSS in bytes and exit status of one run of the tool, its output thrown away. A child
    /// of this (large) test process would inherit its peak in `ru_maxrss` (Linux keeps the peak of
    /// the address space it was spawned with), so a small Python parent runs it and reports.
    /// The run's exit status (2 for a refusal by the weight budget, `over_weight_budget`, which
    /// still does its work: its peak counts too) and peak RSS.
    static func peak(_ arguments: [String]) -> (status: Int32, bytes: Int) {
        let script = """
        import resource, subprocess, sys
        run = subprocess.run(sys.argv[1:], stdout=subprocess.DEVNULL, stderr=subprocess.PIPE)
        status = 2 if run.returncode == 1 and b"over_weight_budget" in run.stderr else run.returncode
        print(status, resource.getrusage(resource.RUSAGE_CHILDREN).ru_maxrss)
        """
        guard let run = try? Tool.run(["-c", script, Tool.binary.path] + arguments,
                                      executable: URL(fileURLWithPath: "/usr/bin/python3")) else { return (-1, 0) }
        let fields = run.text.split(separator: " ").compactMap { Int($0.trimmingCharacters(in: .whitespacesAndNewlines)) }
        guard fields.count == 2 else { return (-1, 0) }
        return (Int32(fields[0]), fields[1] * 1024)
    }

    private static let baseline: Int = {
        let tiny = folder.appendingPathComponent("tiny.png")
        FileManager.default.createFile(atPath: tiny.path, contents: Data(Fixtures.zeroPNG(width: 8, height: 8)))
        // The least of three: the process itself, its libraries, libvips started.
        return (0..<3).map { _ in
            peak(["render", tiny.path, "--slot", "8x8", "--output", folder.appendingPathComponent("t.png").path]).bytes
        }.min() ?? 0
    }()

    private func write(_ name: String, _ bytes: [UInt8]) -> String {
        let url = Self.folder.appendingPathComponent(name)
        FileManager.default.createFile(atPath: url.path, contents: Data(bytes))
        return url.path
    }

    /// The charge `--cost` prints for `arguments`, and whether the limits cover it.
    private func charge(_ arguments: [String]) throws -> (memory: Int, accepted: Bool) {
        let run = try Tool.run(arguments + ["--cost"])
        XCTAssertEqual(run.status, 0, run.stderr)
        let json = try XCTUnwrap(try JSONSerialization.jsonObject(with: Data(run.stdout)) as? [String: Any])
        return (try XCTUnwrap(json["memory_bytes"] as? Int), try XCTUnwrap(json["accepted"] as? Bool))
    }

    /// A palette PNG of zeros (one PLTE entry).
    private func palettePNG(_ width: Int, _ height: Int) -> [UInt8] {
        let rgb = Fixtures.zeroPNG(width: width, height: height, colourType: 0)
        var png = Array(rgb[0..<8]) + Fixtures.pngChunk("IHDR", Fixtures.be32(width) + Fixtures.be32(height) + [8, 3, 0, 0, 0])
        png += Fixtures.pngChunk("PLTE", [200, 40, 40])
        return png + Array(rgb[33...])
    }

    private func cmykJPEG(_ width: Int, _ height: Int) throws -> [UInt8] {
        let noise = try VipsOperation("gaussnoise").with("width", .int(width)).with("height", .int(height))
            .with("mean", .double(128)).with("sigma", .double(40)).image()
        let rgb = try VipsOperation("colourspace").with("in", .image(noise)).with("space", .enumeration("srgb")).image()
        let cmyk = try VipsOperation("icc_export").with("in", .image(rgb)).with("output_profile", .string("cmyk")).image()
        return try VipsOperation("jpegsave_buffer").with("in", .image(cmyk)).with("Q", .int(80)).bytes()
    }

    /// An RGB PNG of noise: every channel drawn on its own, so neither the creative nor its
    /// preview sheet's file compresses (the heaviest sheet a size can have).
    private func noisePNG(_ width: Int, _ height: Int) throws -> [UInt8] {
        let noise = try Fixtures.colourNoise(width, height, mean: 128, sigma: 80, seed: 1)
        let bytes = try VipsOperation("cast").with("in", .image(noise)).with("format", .enumeration("uchar")).image()
        let srgb = try VipsOperation("copy").with("in", .image(bytes)).with("interpretation", .enumeration("srgb")).image()
        return try VipsOperation("pngsave_buffer").with("in", .image(srgb)).with("compression", .int(1)).bytes()
    }

    /// Uniform-looking noise as a JPEG at quality 50: under the 2 MiB upload limit at 1080x1920.
    private func noiseJPEG(_ width: Int, _ height: Int) throws -> [UInt8] {
        let noise = try Fixtures.colourNoise(width, height, mean: 128, sigma: 80, seed: 1)
        let bytes = try VipsOperation("cast").with("in", .image(noise)).with("format", .enumeration("uchar")).image()
        let srgb = try VipsOperation("copy").with("in", .image(bytes)).with("interpretation", .enumeration("srgb")).image()
        return try VipsOperation("jpegsave_buffer").with("in", .image(srgb)).with("Q", .int(50)).bytes()
    }

    /// The generated shapes: every kind of layout within the caps.
    private func inputs() throws -> [(name: String, path: String)] {
        try VipsRuntime.start()
        let artwork = Tool.artwork960x150.path
        let photo = Self.folder.appendingPathComponent("photo.jpg").path
        _ = try Tool.run(["render", artwork, "--slot", "1500x1000", "--format", "jpeg", "--background", "#336699",
                          "--output", photo])
        return [
            ("1xN RGB strip 512x16384", write("tall.png", Fixtures.zeroPNG(width: 512, height: 16384, colourType: 2))),
            ("Nx1 RGBA strip 16384x512", write("wide.png", Fixtures.zeroPNG(width: 16384, height: 512))),
            ("thin 16-bit RGBA 2000x64", write("thin16.png", Fixtures.zeroPNG(width: 2000, height: 64, depth: 16))),
            ("square grey 4096x4096", write("grey.png", Fixtures.zeroPNG(width: 4096, height: 4096, colourType: 0))),
            ("16-bit RGBA 2184x270", write("rgba16.png", Fixtures.zeroPNG(width: 2184, height: 270, depth: 16))),
            ("16-bit RGBA 2048x2048", write("big16.png", Fixtures.zeroPNG(width: 2048, height: 2048, depth: 16))),
            ("palette 3000x3000", write("palette.png", palettePNG(3000, 3000))),
            ("interlaced RGBA 2048x1024", write("adam7.png", Fixtures.zeroPNG(width: 2048, height: 1024, interlaced: true))),
            ("CMYK JPEG 2000x2000", write("cmyk.jpg", try cmykJPEG(2000, 2000))),
            ("photo JPEG 1500x1000", photo),
            ("test artwork 960x150", artwork),
        ]
    }

    func testRenderIsChargedAtLeastItsPeak() throws {
        var measured = 0, worst = 0.0
        var failures: [String] = []
        for (name, path) in try inputs() {
            for slot in [["--slot", "320x50"], ["--slot", "390x61", "--scale", "3"], ["--slot", "1024x1366", "--scale", "2"]] {
                // AVIF, fixed and among auto's formats, where this libvips writes it.
                let avif = OutputFormat.avif.isWritable ? ["avif", "auto --formats png,jpeg,webp,avif"] : []
                for format in ["png", "jpeg", "webp", "auto"] + avif {
                    let arguments = ["render", path] + slot + ["--format"] + format.split(separator: " ").map(String.init)
                        + ["--max-bytes", "100000000",
                                                               "--output", Self.folder.appendingPathComponent("out").path]
                    let cost = try charge(arguments)
                    guard cost.accepted else { continue }
                    let run = Self.peak(arguments)
                    // Done, or refused by the weight budget (a streamed PNG cannot be searched under it).
                    XCTAssertTrue(run.status == 0 || run.status == 2, "\(name) \(slot) \(format): \(run.status)")
                    let used = run.bytes - Self.baseline
                    measured += 1
                    worst = max(worst, Double(used) / Double(cost.memory))
                    if used > cost.memory {
                        failures.append("\(name) \(slot.joined(separator: " ")) \(format): peak \(used >> 20) MiB over "
                                        + "the baseline, charged \(cost.memory >> 20) MiB")
                    }
                }
            }
        }
        XCTAssertEqual(failures, [])
        XCTAssertGreaterThan(measured, 60, "too few accepted jobs to say anything")
        print("cost property: \(measured) renders, worst peak/charge \(worst), baseline \(Self.baseline >> 20) MiB")
    }

    /// An upload's own alpha channel on transparent bars is compressed by libwebp's lossless
    /// encoder, whose memory grows with the band's detail: an alpha of noise peaked 1.3-1.4x the
    /// charge of transparent bars (1200x1600: 108 MB over the baseline, charged 74 MiB).
    func testAnArtworksOwnAlphaInWebPIsChargedAtLeastItsPeak() throws {
        let path = write("alpha-noise.png", Fixtures.storedNoisePNG(768, 1024, channels: 4))
        var failures: [String] = []
        var measured = 0
        for slot in ["900x1200", "1200x1600"] {
            for format in [["webp", "--weight-budget", "1G"], ["webp"], ["auto", "--weight-budget", "1G"]] {
                let arguments = ["render", path, "--slot", slot, "--format"] + format
                    + ["--memory-budget", "160M", "--max-bytes", "100000000",
                       "--output", Self.folder.appendingPathComponent("alpha.webp").path]
                let cost = try charge(arguments)
                XCTAssertTrue(cost.accepted, "\(slot) \(format)")
                let run = Self.peak(arguments)
                XCTAssertTrue(run.status == 0 || run.status == 2, "\(slot) \(format): \(run.status)")
                measured += 1
                let used = run.bytes - Self.baseline
                if used > cost.memory {
                    failures.append("\(slot) \(format.joined(separator: " ")): peak \(used >> 20) MiB over the baseline, "
                                    + "charged \(cost.memory >> 20) MiB")
                }
            }
        }
        XCTAssertEqual(failures, [])
        XCTAssertEqual(measured, 6)
    }

    func testProcessIsChargedAtLeastItsPeak() throws {
        try VipsRuntime.start()
        let inputs = [
            ("banner", write("p-rgba16.png", Fixtures.zeroPNG(width: 2184, height: 270, depth: 16))),
            ("banner", Tool.artwork960x150.path),
            ("companion", write("p-rgb.png", Fixtures.zeroPNG(width: 1456, height: 180, colourType: 2))),
            ("interstitial", write("p-portrait.png", Fixtures.zeroPNG(width: 1080, height: 1920, depth: 16))),
            ("interstitial", write("p-landscape.png", Fixtures.zeroPNG(width: 1024, height: 768, colourType: 2))),
        ]
        // Noise: the heaviest preview sheets, drawn at 2x (300x250 alone is served in all 28
        // inline slots). The sheet is the same in every format: PNG, written whatever it weighs.
        let noise = [
            ("banner", write("p-noise.png", try noisePNG(2184, 270))),
            ("banner", write("p-noise300.png", try noisePNG(300, 250))),
            ("companion", write("p-noise-companion.png", try noisePNG(728, 90))),
            // An interstitial's sheet at 2x: a photograph's file in the room its job's charge
            // holds, noise's drawn at two thirds when over it.
            ("interstitial", write("p-photo-int.jpg", try Fixtures.save("jpegsave_buffer",
                                                                        try Fixtures.photograph(1080, 1920, grain: 2),
                                                                        [("Q", .int(85))]))),
            ("interstitial", write("p-noise-int.jpg", try noiseJPEG(1080, 1920))),
        ]
        var failures: [String] = []
        let avif = OutputFormat.avif.isWritable ? [["avif"], ["auto", "--formats", "png,jpeg,webp,avif"]] : []
        let jobs = inputs.flatMap { input in ([["auto"], ["png"], ["webp"]] + avif).map { (input, $0) } }
            + noise.map { ($0, ["png", "--weight-budget", "1G"]) }
        for ((product, path), format) in jobs {
            let directory = Self.folder.appendingPathComponent("job").path
            try? FileManager.default.removeItem(atPath: directory)
            let arguments = ["process", path, "--product", product, "--format"] + format + ["--output-dir", directory]
            let cost = try charge(arguments)
            guard cost.accepted else { continue }
            let run = Self.peak(arguments)
            XCTAssertEqual(run.status, 0, "\(path) \(product) \(format)")
            let used = run.bytes - Self.baseline
            if used > cost.memory {
                failures.append("\(product) \(path) \(format.joined(separator: " ")): peak \(used >> 20) MiB over the "
                                + "baseline, charged \(cost.memory >> 20) MiB")
            }
        }
        XCTAssertEqual(failures, [])
    }
}
