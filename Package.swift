// swift-tools-version:6.0
import PackageDescription

/// A minimal libvips built by `scripts/build-libvips.sh` (`make deps` runs it) lives here; binaries
/// look for libvips.so.42 here first (or, installed, in ../lib/creative-tool beside the binary)
/// and fall back to the system's when it is absent. Debian's libvips maps ~104 shared libraries
/// at every start; this one about half as many.
let minimalLibvips = Context.packageDirectory + "/.build/libvips/lib"

let package = Package(
    name: "creative-tool",
    products: [
        .executable(name: "creative-tool", targets: ["creative-tool"]),
    ],
    targets: [
        // C libraries, found through pkg-config.
        .systemLibrary(name: "CVips", pkgConfig: "vips", providers: [.apt(["libvips-dev"])]),
        .systemLibrary(name: "CPNG", pkgConfig: "libpng", providers: [.apt(["libpng-dev"])]),
        // libmicrohttpd's header only: the library is opened by CMicroHTTPDLoader when `serve` starts.
        .systemLibrary(name: "CMicroHTTPD", providers: [.apt(["libmicrohttpd-dev"])]),
        .target(name: "CMicroHTTPDLoader", dependencies: ["CMicroHTTPD"]),
        // The public test artwork, embedded in the binary from TestImages/.
        .target(name: "CArtwork", path: "Sources/CArtwork"),
        // A strict whole-file libpng read, with libpng's longjmp contained in C, and a zlib check
        // of the IDAT stream.
        .target(name: "CPNGCheck", dependencies: ["CPNG"], linkerSettings: [.linkedLibrary("z")]),

        // Pure Swift: catalog, devices, slot math, selection, reports.
        .target(name: "CreativeCore"),
        // Pixels: libvips (and libpng for strict PNG checks).
        .target(name: "CreativeImaging", dependencies: ["CreativeCore", "CVips", "CPNGCheck", "CArtwork"],
                linkerSettings: [.unsafeFlags(["-Xlinker", "-rpath", "-Xlinker", minimalLibvips,
                                               "-Xlinker", "-rpath", "-Xlinker", "$ORIGIN/../lib/creative-tool"])]),
        // The HTTP service on libmicrohttpd: routes calling the same functions as the CLI.
        .target(name: "CreativeService", dependencies: ["CreativeCore", "CreativeImaging", "CMicroHTTPD",
                                                        "CMicroHTTPDLoader"]),
        // Argument reading and one file per subcommand.
        .target(name: "CreativeCLI", dependencies: ["CreativeCore", "CreativeImaging", "CreativeService"]),
        .executableTarget(name: "creative-tool", dependencies: ["CreativeCLI"]),
        // libFuzzer target over the validator (built only by `make fuzz`, with -sanitize=fuzzer).
        .executableTarget(name: "creative-fuzz", dependencies: ["CreativeImaging", "CreativeCore"]),

        // Test images, bytes and a pixel reader shared by the imaging and end-to-end tests.
        .target(name: "CreativeTestSupport", dependencies: ["CreativeImaging", "CreativeCore"],
                path: "Tests/CreativeTestSupport"),
        .testTarget(name: "CreativeCoreTests", dependencies: ["CreativeCore"]),
        .testTarget(name: "CreativeImagingTests",
                    dependencies: ["CreativeImaging", "CreativeCore", "CVips", "CreativeTestSupport"]),
        .testTarget(name: "CreativeCLITests",
                    dependencies: ["CreativeCLI", "CreativeCore", "CreativeImaging", "CreativeTestSupport"]),
        .testTarget(name: "CreativeServiceTests", dependencies: ["CreativeService", "CreativeCore", "CreativeImaging"]),
    ],
    swiftLanguageModes: [.v6]
)
