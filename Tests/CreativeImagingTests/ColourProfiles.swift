import CLCMS2
import Foundation

/// Colour profiles written by Little CMS for the tests, so no test depends on a profile file
/// that some package may or may not have installed.
enum ColourProfiles {
    enum Failure: Error { case lcms(String) }

    /// An RGB matrix/TRC profile with Adobe RGB (1998) primaries, D65 white and gamma 2.2: a
    /// common non-sRGB working space. Written once per test run; returns the file's path.
    static func adobeRGB() throws -> String {
        let path = FileManager.default.temporaryDirectory
            .appendingPathComponent("creative-tool-test-adobe-rgb-\(getpid()).icc").path
        if FileManager.default.fileExists(atPath: path) { return path }
        var white = cmsCIExyY(x: 0.3127, y: 0.3290, Y: 1)
        var primaries = cmsCIExyYTRIPLE(Red: cmsCIExyY(x: 0.64, y: 0.33, Y: 1),
                                        Green: cmsCIExyY(x: 0.21, y: 0.71, Y: 1),
                                        Blue: cmsCIExyY(x: 0.15, y: 0.06, Y: 1))
        guard let gamma = cmsBuildGamma(nil, 563.0 / 256.0) else { throw Failure.lcms("cmsBuildGamma") }
        defer { cmsFreeToneCurve(gamma) }
        var curves: [OpaquePointer?] = [gamma, gamma, gamma]
        guard let profile = cmsCreateRGBProfile(&white, &primaries, &curves) else {
            throw Failure.lcms("cmsCreateRGBProfile")
        }
        defer { cmsCloseProfile(profile) }
        cmsSetProfileVersion(profile, 2.1)
        guard cmsSaveProfileToFile(profile, path) != 0 else { throw Failure.lcms("cmsSaveProfileToFile \(path)") }
        return path
    }
}

extension ColourProfiles {
    /// An sRGB profile written by Little CMS with `stages` identity matrices in its float
    /// pipelines (`D2B0`, `D2B1`: `multiProcessElements`, which Little CMS prefers to every other
    /// tag): a valid profile whose transform costs time linear in `stages` to build. 60 bytes a
    /// stage and a tag.
    static func stageBomb(stages: Int) throws -> [UInt8] {
        guard let profile = cmsCreate_sRGBProfile() else { throw Failure.lcms("cmsCreate_sRGBProfile") }
        defer { cmsCloseProfile(profile) }
        cmsSetProfileVersion(profile, 4.3)
        guard let pipeline = cmsPipelineAlloc(nil, 3, 3) else { throw Failure.lcms("cmsPipelineAlloc") }
        defer { cmsPipelineFree(pipeline) }
        let identity: [Double] = [1, 0, 0, 0, 1, 0, 0, 0, 1]
        for _ in 0..<stages {
            guard cmsPipelineInsertStage(pipeline, cmsAT_END, cmsStageAllocMatrix(nil, 3, 3, identity, nil)) != 0 else {
                throw Failure.lcms("cmsPipelineInsertStage")
            }
        }
        for tag in [cmsSigDToB0Tag, cmsSigDToB1Tag] where cmsWriteTag(profile, tag, UnsafeRawPointer(pipeline)) == 0 {
            throw Failure.lcms("cmsWriteTag")
        }
        var size: cmsUInt32Number = 0
        guard cmsSaveProfileToMem(profile, nil, &size) != 0 else { throw Failure.lcms("cmsSaveProfileToMem") }
        var bytes = [UInt8](repeating: 0, count: Int(size))
        guard cmsSaveProfileToMem(profile, &bytes, &size) != 0 else { throw Failure.lcms("cmsSaveProfileToMem") }
        return bytes
    }
}
