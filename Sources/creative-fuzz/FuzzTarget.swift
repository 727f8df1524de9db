import CreativeCore
import CreativeImaging
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
    let report = Validator.validate(bytes, fileName: "fuzz", limits: fuzzLimits)
    // The report must always serialise (a JSON document starting with `{`).
    let json = report.json.serialized()
    if json.first != "{" { fatalError("validator report is not a JSON object: \(json)") }
    guard let settings = fuzzRenderSettings else { return 0 }
    do {
        let source = try ImageSource(bytes: bytes, maxPixels: fuzzLimits.maxPixels)
        _ = try Renderer.render(source, settings: settings, limits: fuzzJobLimits)
    } catch {
        // A refusal or damage found while rendering is an answer, not a finding; its text must still form.
        _ = error.description
    }
    return 0
}

#if CREATIVE_FUZZ
/// libFuzzer's entry point, called by libFuzzer's `main` for every input. A plain function in a
/// file other than main.swift, so it is not isolated to the main actor.
@_cdecl("LLVMFuzzerTestOneInput")
public func LLVMFuzzerTestOneInput(_ data: UnsafePointer<UInt8>?, _ size: Int) -> CInt {
    fuzzOneInput(data, size)
}
#endif
