import CreativeCore
import CreativeImaging
#if canImport(Glibc)
import Glibc
#endif

/// The caps of one fuzz run: the real byte limit, a lower pixel cap so each input stays fast.
let fuzzLimits = ValidationLimits(maxBytes: 2 * 1024 * 1024, maxPixels: 4_000_000)

/// A small render slot: exercises decoding, scaling, colour, alpha and the PNG encoder.
let fuzzRenderSettings: RenderSettings? = try? RenderSettings(canvas: PixelSize(width: 64, height: 32))

/// One input: validate it as an upload; render it when validation let it through (or only the
/// size is off). Errors are expected answers; only a crash, a hang or a leak is a finding.
func fuzzOneInput(_ data: UnsafePointer<UInt8>?, _ size: Int) -> CInt {
    let bytes: [UInt8] = if let data, size > 0 { Array(UnsafeBufferPointer(start: data, count: size)) } else { [] }
    let report = Validator.validate(bytes, fileName: "fuzz", limits: fuzzLimits)
    // The report must always serialise (a JSON document starting with `{`).
    let json = report.json.serialized()
    if json.first != "{" { fatalError("validator report is not a JSON object: \(json)") }
    let renderable = report.valid || report.errors.allSatisfy { $0.code == .dimensionsNotAllowed }
    // A render of an upload over the pixel cap stops at ImageSource (nothing is decoded), and the
    // caller prints the error: cheap, so that path is run too.
    guard renderable || report.has(.tooManyPixels), let settings = fuzzRenderSettings else { return 0 }
    do {
        let source = try ImageSource(bytes: bytes, maxPixels: fuzzLimits.maxPixels)
        if renderable { _ = try Renderer.render(source, settings: settings) }
    } catch {
        // Damage found while rendering is an answer, not a finding; its text must still form.
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
