// swift-tools-version:6.0
import PackageDescription

/// Which libvips the binaries load, chosen when building (the Makefile sets `CREATIVE_LIBVIPS`):
/// - `wheel` (default): the libvips of the pinned pyvips-binary wheel, which `scripts/fetch-libvips.sh`
///   (`make deps`) puts in .build/libvips/lib, looked for there first, then in ../lib/creative-tool
///   beside the binary (an installed layout). Its vips.pc links that one library by its file name;
///   when the fetch fell back, the system's vips.pc links Debian's libvips42 instead.
/// - `installed`: only ../lib/creative-tool beside the binary (the container image: no build-tree
///   path in the runtime search path).
/// - `system`: Debian's libvips42, through the normal library search.
/// Debian's libvips maps ~104 shared libraries at every start; the wheel's is self-contained.
let libvipsSearchPaths: [String] = switch Context.environment["CREATIVE_LIBVIPS"] ?? "wheel" {
case "system": []
case "installed": ["$ORIGIN/../lib/creative-tool"]
default: [Context.packageDirectory + "/.build/libvips/lib", "$ORIGIN/../lib/creative-tool"]
}
let libvipsRpath = libvipsSearchPaths.flatMap { ["-Xlinker", "-rpath", "-Xlinker", $0] }

let package = Package(
    name: "creative-tool",
    products: [
        .executable(name: "creative-tool", targets: ["creative-tool"]),
    ],
    targets: [
        // C libraries, found through pkg-config.
        .systemLibrary(name: "CVips", pkgConfig: "vips", providers: [.apt(["libvips-dev"])]),
        .systemLibrary(name: "CPNG", pkgConfig: "libpng", providers: [.apt(["libpng-dev"])]),
        // zlib (which libpng links): its CRC-32 for the PNG chunk walk.
        .systemLibrary(name: "CZlib", pkgConfig: "zlib", providers: [.apt(["zlib1g-dev"])]),
        // OpenSSL's libcrypto (which libzip links): SHA-256 of outputs and manifests.
        .systemLibrary(name: "CCrypto", pkgConfig: "libcrypto", providers: [.apt(["libssl-dev"])]),
        // libmicrohttpd's header only: the library is opened by CMicroHTTPDLoader when `serve` starts.
        .systemLibrary(name: "CMicroHTTPD", providers: [.apt(["libmicrohttpd-dev"])]),
        .target(name: "CMicroHTTPDLoader", dependencies: ["CMicroHTTPD"]),
        // HTML5 bundles: libzip reads the archive in memory, gumbo parses its HTML.
        .systemLibrary(name: "CZip", pkgConfig: "libzip", providers: [.apt(["libzip-dev"])]),
        .systemLibrary(name: "CGumbo", pkgConfig: "gumbo", providers: [.apt(["libgumbo-dev"])]),
        // gumbo run first in a child process (fork, limits, wait), since Debian's gumbo aborts
        // on some malformed HTML.
        .target(name: "CGumboProbe", dependencies: ["CGumbo"]),
        // The public test artwork, embedded in the binary from TestImages/.
        .target(name: "CArtwork", path: "Sources/CArtwork"),
        // The platform profiles, embedded in the binary from Profiles/.
        .target(name: "CProfileData", path: "Sources/CProfileData"),
        // A strict whole-file libpng read, with libpng's longjmp contained in C, and a zlib check
        // of the IDAT stream.
        .target(name: "CPNGCheck", dependencies: ["CPNG"], linkerSettings: [.linkedLibrary("z")]),
        // The lossless PNG writer on libpng: the smallest colour type that holds a render exactly.
        .target(name: "CPNGWrite", dependencies: ["CPNG"], linkerSettings: [.linkedLibrary("z")]),
        // SSIM's map summed in one loop over float planes (the planes are libvips'), for `auto`'s
        // trials and the quality floor; optimised in debug builds too (the test suite's searches).
        .target(name: "CSimilarity", cSettings: [.unsafeFlags(["-O2"])]),

        // The worker's store and queue: libcurl (S3 with its own SigV4 signing) and hiredis (Redis
        // Streams). libcurl's header only: CCurlOptions opens the library when the store is first
        // used (so no other command maps it and its ~25 libraries) and wraps curl's variadic
        // setters, which Swift cannot call.
        .systemLibrary(name: "CCurl", providers: [.apt(["libcurl4-openssl-dev"])]),
        .target(name: "CCurlOptions", dependencies: ["CCurl"]),
        .systemLibrary(name: "CHiredis", pkgConfig: "hiredis", providers: [.apt(["libhiredis-dev"])]),

        // Catalog, devices, slot math, selection, reports, platform profiles: Swift, with zlib's
        // CRC-32 and the embedded profile files.
        .target(name: "CreativeCore", dependencies: ["CZlib", "CProfileData"]),
        // HTML5 ad bundles: the archive, its HTML and CSS references, the locked web view's rules.
        // Images inside are checked through a function the image validator passes in.
        .target(name: "CreativeBundle", dependencies: ["CreativeCore", "CZip", "CGumbo", "CGumboProbe"]),
        // Pixels: libvips (and libpng for strict PNG checks).
        .target(name: "CreativeImaging", dependencies: ["CreativeCore", "CreativeBundle", "CVips", "CPNGCheck",
                                                        "CPNGWrite", "CSimilarity", "CArtwork", "CCrypto"],
                linkerSettings: libvipsRpath.isEmpty ? [] : [.unsafeFlags(libvipsRpath)]),
        // The operations (validate, render, process): each put together here once, from the request
        // a surface read and the input it got, so that the CLI, the service and the worker only
        // read their options and present the outcome.
        .target(name: "CreativeOperations", dependencies: ["CreativeCore", "CreativeImaging"]),
        // What the long-running processes (`serve`, `worker`) share: the stop signals, detached
        // threads, and the admin listener's interface (the service provides the listener).
        .target(name: "CreativeDaemon"),
        // The HTTP service on libmicrohttpd: routes calling the same operations as the CLI.
        .target(name: "CreativeService", dependencies: ["CreativeCore", "CreativeImaging", "CreativeOperations", "CreativeDaemon",
                                                        "CMicroHTTPD", "CMicroHTTPDLoader"]),
        // `worker` and `enqueue`: an S3 client, a Redis Streams client, the worker loop.
        .target(name: "CreativeFleet", dependencies: ["CreativeCore", "CreativeImaging", "CreativeOperations", "CreativeDaemon",
                                                      "CCurl", "CCurlOptions", "CHiredis"]),
        // Argument reading and one file per subcommand.
        .target(name: "CreativeCLI", dependencies: ["CreativeCore", "CreativeImaging", "CreativeOperations", "CreativeService",
                                                    "CreativeFleet"]),
        .executableTarget(name: "creative-tool", dependencies: ["CreativeCLI"]),
        // libFuzzer target over the validator (built only by `make fuzz`, with -sanitize=fuzzer).
        .executableTarget(name: "creative-fuzz", dependencies: ["CreativeImaging", "CreativeCore", "CreativeTestSupport"]),

        // Test images, bytes and a pixel reader shared by the imaging and end-to-end tests.
        .target(name: "CreativeTestSupport", dependencies: ["CreativeImaging", "CreativeCore", "CZip"],
                path: "Tests/CreativeTestSupport"),
        .testTarget(name: "CreativeCoreTests", dependencies: ["CreativeCore", "CreativeTestSupport"]),
        .testTarget(name: "CreativeBundleTests",
                    dependencies: ["CreativeBundle", "CreativeCore", "CreativeImaging", "CreativeTestSupport"]),
        // Little CMS, which writes the non-sRGB colour profiles some tests embed.
        .systemLibrary(name: "CLCMS2", path: "Tests/CLCMS2", pkgConfig: "lcms2", providers: [.apt(["liblcms2-dev"])]),
        .testTarget(name: "CreativeImagingTests",
                    dependencies: ["CreativeImaging", "CreativeCore", "CVips", "CreativeTestSupport", "CLCMS2"]),
        .testTarget(name: "CreativeOperationsTests",
                    dependencies: ["CreativeOperations", "CreativeCore", "CreativeImaging", "CreativeTestSupport"]),
        .testTarget(name: "CreativeCLITests",
                    dependencies: ["CreativeCLI", "CreativeCore", "CreativeImaging", "CreativeTestSupport"]),
        .testTarget(name: "CreativeFleetTests", dependencies: ["CreativeFleet", "CreativeCore", "CreativeImaging",
                                                              "CreativeTestSupport"]),
        .testTarget(name: "CreativeServiceTests", dependencies: ["CreativeService", "CreativeCore", "CreativeImaging",
                                                                "CreativeOperations", "CreativeTestSupport"]),
    ],
    swiftLanguageModes: [.v6]
)
