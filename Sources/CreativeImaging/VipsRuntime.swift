import CVips
import CreativeCore
#if canImport(Glibc)
import Glibc
#endif

/// Starts libvips once per process, locked down for untrusted input.
///
/// - Optional loader modules (HEIF, JXL, ImageMagick, OpenSlide, Poppler) are not loaded:
///   `VIPSHOME` points at the executable's own folder, which has no module directory.
///   That saves about 30 ms of every start and keeps their loaders out of reach.
/// - libvips' GLib warnings are silenced (`VIPS_WARNING`); damage surfaces as errors instead.
/// - Of the loaders only PNG, JPEG, GIF and WebP are allowed, and HEIF from memory, which reads
///   back the AVIF renders `auto` writes to score them (uploads are sniffed and AVIF or HEIF is
///   refused before any loader: every load names its loader); the savers libvips flags untrusted
///   are blocked (the only untrusted operations besides loaders).
/// - The operation cache is off: every call is for a different input.
/// - Two worker threads per pipeline (``threadsPerJob``), on any machine, and one malloc arena
///   (``mallocArenas``).
public enum VipsRuntime {
    private static let startResult: String? = {
        // One malloc arena for the process: with an arena per thread (glibc's default, up to 8
        // a core), freed pixel buffers stay mapped in each thread's arena, and a `process` run
        // peaked at 155 MB instead of 90 for the same work (same CPU time).
        cvips_limit_malloc_arenas(mallocArenas)
        setenv("VIPSHOME", executableDirectory(), 1)
        // Damage is reported through errors and codes, not GLib warnings on standard error.
        setenv("VIPS_WARNING", "0", 0)
        guard vips_init("creative-tool") == 0 else {
            return lastVipsError()
        }
        // Every loader is blocked but the uploads' four and those that read an output format back
        // (``OutputFormat/Writer/loaderClass``: HEIF from memory, for AVIF); of the other operations, libvips flags only savers
        // untrusted (8.14: FITS, JXL, ImageMagick; the 8.18 wheel: none), so the savers' flags
        // are the ones read, without initialising the class of every operation as
        // vips_block_untrusted_set does (9 million instructions of every start; this: 2).
        cvips_block_untrusted_under("VipsForeignSave")
        vips_operation_block_set("VipsForeignLoad", 1)
        let uploads = ["VipsForeignLoadPng", "VipsForeignLoadJpeg", "VipsForeignLoadNsgif", "VipsForeignLoadWebp"]
        let readBack = OutputFormat.allCases.map(\.writer.loaderClass).filter { !uploads.contains($0) }
        for allowed in uploads + readBack {
            vips_operation_block_set(allowed, 0)
        }
        vips_cache_set_max(0)
        // A fixed number of threads per job, whatever the machine: what a job holds (JobCost's
        // resampling window) grows with it, and the service runs jobs side by side anyway.
        vips_concurrency_set(Int32(threadsPerJob))
        return nil
    }()

    /// glibc malloc arenas (`M_ARENA_MAX`): 1, so that what a job frees is reused by the next
    /// allocation of any thread instead of held per thread (``JobCost`` charges what is live).
    static let mallocArenas: Int32 = 1

    /// libvips' worker threads per pipeline (`vips_concurrency_set`): 2.
    static let threadsPerJob = 2

    /// Starts libvips if it is not started yet.
    /// - Throws: ``ImagingError/operationFailed(_:)`` when libvips cannot start.
    public static func start() throws(ImagingError) {
        if let failure = startResult { throw .operationFailed("libvips did not start: \(failure)") }
    }

    /// The libvips version, `major.minor.micro`.
    public static var version: String {
        "\(vips_version(0)).\(vips_version(1)).\(vips_version(2))"
    }

    /// The file the libvips library was loaded from (the wheel's `libvips-<hash>.so.42` or the
    /// system's `libvips.so.42`), as the process's memory map names it; nil when libvips is linked
    /// statically.
    public static let libraryPath: String? = {
        guard let maps = fopen("/proc/self/maps", "r") else { return nil }
        defer { fclose(maps) }
        var line: UnsafeMutablePointer<CChar>?
        var capacity = 0
        defer { free(line) }
        while getline(&line, &capacity, maps) > 0, let line {
            // address perms offset device inode path
            var text = String(cString: line)
            if text.hasSuffix("\n") { text.removeLast() }
            guard let slash = text.firstIndex(of: "/") else { continue }
            let path = text[slash...]
            let file = path[path.index(after: path.lastIndex(of: "/")!)...]
            if file.hasPrefix("libvips.so") || (file.hasPrefix("libvips-") && file.contains(".so")) {
                return String(path)
            }
        }
        return nil
    }()

    /// Takes libvips' accumulated error text and clears it.
    static func lastVipsError() -> String {
        let text = String(cString: vips_error_buffer())
        vips_error_clear()
        let trimmed = text.split(separator: "\n").map(String.init).filter { !$0.isEmpty }
        return trimmed.isEmpty ? "the decoder rejected the data" : trimmed.joined(separator: "; ")
    }

    private static func executableDirectory() -> String {
        var buffer = [CChar](repeating: 0, count: 4096)
        let count = readlink("/proc/self/exe", &buffer, buffer.count - 1)
        guard count > 0 else { return "." }
        let path = String(decoding: buffer[0..<count].map { UInt8(bitPattern: $0) }, as: UTF8.self)
        guard let slash = path.lastIndex(of: "/") else { return "." }
        return String(path[..<slash])
    }
}
