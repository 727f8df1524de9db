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
