import CreativeCore
import CreativeImaging
import CreativeTestSupport
#if canImport(Glibc)
import Glibc
#endif

/// The caps of one fuzz run: the real byte limit, a lower pixel cap so each input stays fast,
/// the CLI's memory budget, and a deadline under libFuzzer's own timeout (10 s in fuzz.sh), so a
/// slow input that libvips can stop ends as a `timeout` answer and one it cannot is a finding.
let fuzzJobLimits = JobLimits(memoryBudget: JobLimits.defaultMemoryBudget, timeout: 5)
let fuzzLimits = ValidationLimits(maxBytes: 2 * 1024 * 1024, maxPixels: 4_000_000, job: fuzzJobLimits)

/// A small render slot: exercises decoding, scaling, colour, alpha and the PNG encoder.
let fuzzRenderSettings: RenderSettings? = try? RenderSettings(canvas: PixelSize(width: 64, height: 32))

/// One input: validate it as an upload, then render it as `render` does, whatever validation
/// said (a render does not validate first: damaged and oversized inputs reach it too). Errors
/// are expected answers; only a crash, a hang, a leak or running out of memory is a finding.
func fuzzOneInput(_ data: UnsafePointer<UInt8>?, _ size: Int) -> CInt {
    let bytes: [UInt8] = if let data, size > 0 { Array(UnsafeBufferPointer(start: data, count: size)) } else { [] }
    switch fuzzPath {
    case .render: fuzzRender(bytes)
    case .bundle: fuzzBundleCheck(bytes)
    case .all: fuzzEverything(bytes)
    }
    return 0
}

/// Which path a run fuzzes: `CREATIVE_FUZZ_TARGET=render` (the render alone, every input),
/// `bundle` (every input as the files of an HTML5 bundle), or all (the default: validate, half
/// the inputs as a bundle, then render).
enum FuzzPath: String { case render, bundle, all }

let fuzzPath: FuzzPath = getenv("CREATIVE_FUZZ_TARGET").flatMap { FuzzPath(rawValue: String(cString: $0)) } ?? .all

/// The render path alone, as `render` runs it.
func fuzzRender(_ bytes: [UInt8]) {
    guard let settings = fuzzRenderSettings else { return }
    do {
        let source = try ImageSource(bytes: bytes, maxPixels: fuzzLimits.maxPixels)
        _ = try Renderer.render(source, settings: settings, limits: fuzzJobLimits)
    } catch {
        _ = error.description
    }
}

/// The bundle path alone: every input split into the files of an HTML5 bundle.
func fuzzBundleCheck(_ bytes: [UInt8]) {
    let json = Validator.validate(fuzzBundle(bytes[...]), fileName: "fuzz.zip", limits: fuzzLimits).json.serialized()
    if json.first != "{" { fatalError("bundle report is not a JSON object: \(json)") }
}

func fuzzEverything(_ bytes: [UInt8]) {
    let report = Validator.validate(bytes, fileName: "fuzz", limits: fuzzLimits)
    // The report must always serialise (a JSON document starting with `{`).
    let json = report.json.serialized()
    if json.first != "{" { fatalError("validator report is not a JSON object: \(json)") }
    // Half the inputs also become the files of an HTML5 bundle (zipped with libzip), so the
    // HTML parser, the CSS and script scanners and the reference checks see every mutation.
    if bytes.first.map({ $0 & 1 == 1 }) ?? false {
        let bundle = fuzzBundle(bytes.dropFirst())
        let bundleJSON = Validator.validate(bundle, fileName: "fuzz.zip", limits: fuzzLimits).json.serialized()
        if bundleJSON.first != "{" { fatalError("bundle report is not a JSON object: \(bundleJSON)") }
    }
    // A refusal or damage found while rendering is an answer, not a finding; its text must still form.
    fuzzRender(bytes)
}

/// A valid 960x150 static version for the fuzzed bundles.
let fuzzStaticImage: [UInt8] = (try? Fixtures.save("pngsave_buffer", try Fixtures.solid(960, 150, [10, 20, 30]))) ?? []

/// A bundle of the input's pieces (split at NUL bytes): index.html, css/style.css, js/ad.js,
/// images/a.png, then the static version.
func fuzzBundle(_ input: ArraySlice<UInt8>) -> [UInt8] {
    let pieces = input.split(separator: 0, maxSplits: 3, omittingEmptySubsequences: false)
    let names = ["index.html", "css/style.css", "js/ad.js", "images/a.png"]
    var bundle = BundleZip()
    for (name, piece) in zip(names, pieces) { bundle = bundle.adding(name, Array(piece)) }
    return bundle.adding("static.png", fuzzStaticImage, .stored).bytes()
}

#if CREATIVE_FUZZ
/// libFuzzer's entry point, called by libFuzzer's `main` for every input. A plain function in a
/// file other than main.swift, so it is not isolated to the main actor.
@_cdecl("LLVMFuzzerTestOneInput")
public func LLVMFuzzerTestOneInput(_ data: UnsafePointer<UInt8>?, _ size: Int) -> CInt {
    fuzzOneInput(data, size)
}
#endif
