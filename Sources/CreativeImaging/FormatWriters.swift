import CreativeCore

/// How each output format is written, checked and charged: CreativeImaging's half of the format
/// table, one ``OutputFormat/Writer`` per format, keyed by the same ``OutputFormat`` as its names
/// and rules (``OutputFormat/entry``, in CreativeCore). ``Encoder``, ``JobCost``, ``ProcessPlan``,
/// the quality checks that read a file back and ``VipsRuntime``'s loaders read these entries.
extension OutputFormat {
    /// The format's writer: the one place its saver, feature probe, read-back loader and charge are written.
    var writer: Writer {
        switch self {
        case .png:
            // The lossy path's PNG is libvips' streaming saver; a render's PNG is ``PNGWriter``'s (``Encoder``).
            Writer(loader: "pngload_buffer", loaderClass: "VipsForeignLoadPng", streamsRender: false,
                   save: { image, _ throws(ImagingError) in try Encoder.streamingPNG(image).bytes },
                   encoderBytes: { pixels, alpha, memoryBudget in
                       max(JobCost.encoderBytes(JobCost.heldPNG(pixels, memoryBudget), pixels: pixels),
                           JobCost.budgetFallback(.palette, pixels: pixels, memoryBudget, alpha: alpha) ?? 0)
                   })
        case .jpeg:
            Writer(loader: "jpegload_buffer", loaderClass: "VipsForeignLoadJpeg", streamsRender: true,
                   save: { image, options throws(ImagingError) in
                       var operation = VipsOperation("jpegsave_buffer").with("in", .image(image)).with("strip", .bool(true))
                           .with("Q", .int(options.quality)).with("optimize_coding", .bool(true))
                       if options.fullChroma {
                           operation = EncoderFeatures.jpegSubsampleMode ? operation.with("subsample_mode", .enumeration("off"))
                               : operation.with("no_subsample", .bool(true))
                       }
                       return try operation.bytes()
                   },
                   encoderBytes: { pixels, _, _ in JobCost.encoderBytes(.jpeg, pixels: pixels) })
        case .webp:
            Writer(loader: "webpload_buffer", loaderClass: "VipsForeignLoadWebp", streamsRender: true,
                   save: { image, options throws(ImagingError) in
                       var operation = VipsOperation("webpsave_buffer").with("in", .image(image)).with("strip", .bool(true))
                           .with("Q", .int(options.quality)).with("effort", .int(options.webpEffort))
                       if options.sharpYUV, EncoderFeatures.webpSharpYUV {
                           operation = operation.with("smart_subsample", .bool(true))
                       }
                       return WebPContainer.strippingMetadata(try operation.bytes())
                   },
                   encoderBytes: { pixels, alpha, memoryBudget in
                       JobCost.lossyWebPBytes(pixels: pixels, alpha: alpha, memoryBudget: memoryBudget)
                   })
        case .avif:
            // Checked by writing an 8x8 image, as a missing AV1 encoder in libheif only shows then.
            Writer(loader: "heifload_buffer", loaderClass: "VipsForeignLoadHeifBuffer", streamsRender: false,
                   writable: { Self.avifWritable },
                   unwritable: "this build's libvips cannot write AVIF (no AV1 encoder in its libheif); "
                       + "ask for webp, or leave avif out of formats",
                   save: { image, options throws(ImagingError) in
                       // 8-bit (libvips 8.14 writes 12 by default), chroma 4:2:0 below quality 90 as JPEG.
                       try VipsOperation("heifsave_buffer").with("in", .image(image)).with("strip", .bool(true))
                           .with("compression", .enumeration("av1")).with("Q", .int(options.quality)).with("bitdepth", .int(8))
                           .with("effort", .int(Encoder.avifEffort)).bytes()
                   },
                   encoderBytes: { pixels, alpha, _ in JobCost.avifBytes(pixels: pixels, alpha: alpha) })
        }
    }

    /// AVIF's probe: libvips' HEIF saver with an AV1 encoder in its libheif (libaom in both builds
    /// the tool is tested on), checked once.
    private static let avifWritable: Bool = {
        guard VipsOperation.accepts("heifsave_buffer", "compression"),
              let black = try? VipsOperation("black").with("width", .int(8)).with("height", .int(8)).with("bands", .int(3)).image(),
              let bytes = try? VipsOperation("heifsave_buffer").with("in", .image(black)).with("compression", .enumeration("av1"))
                  .with("bitdepth", .int(8)).bytes() else { return false }
        return bytes.count > 12 && Array(bytes[4..<12]) == Array("ftypavif".utf8)
    }()

    /// Whether the libvips loaded writes this format (``Writer/writable``); a format it cannot
    /// write is refused with `unsupported_format` and `auto` never tries it.
    var isWritable: Bool { writer.writable() }

    /// A file of this format read back with its ``Writer/loader`` (its header; the pixels as they
    /// are asked for): what `auto`'s scores, the quality floor and a palette's ladder measure.
    func readBack(_ bytes: [UInt8]) throws(ImagingError) -> VImage {
        try VipsOperation(writer.loader).with("buffer", .bytes(bytes)).image()
    }

    /// A format's saver, feature probe, read-back loader and memory charge.
    struct Writer: Sendable {
        /// The libvips loader that reads a file of the format back (`auto`'s scores, the quality floor).
        let loader: String
        /// That loader's class, which ``VipsRuntime`` leaves unblocked.
        let loaderClass: String
        /// Whether the saver pulls the render strip by strip from its pipeline, so a placement
        /// rendered alone holds no scaled content (``ProcessPlan``).
        let streamsRender: Bool
        /// Whether the libvips loaded can write it (checked once; every build writes PNG, JPEG, WebP).
        var writable: @Sendable () -> Bool = { true }
        /// The refusal (`unsupported_format`) when it cannot.
        var unwritable = ""
        /// The file at a quality (``SaveOptions``), metadata stripped. Checked against ``writable`` by the caller.
        let save: @Sendable (VImage, SaveOptions) throws(ImagingError) -> [UInt8]
        /// Bytes its encoder holds for a render of `pixels` with this alpha band, within the
        /// memory budget the job leaves it (``JobCost/output(canvas:format:memoryBudget:autoFormats:alpha:)``).
        let encoderBytes: @Sendable (_ pixels: Int, _ alpha: JobCost.AlphaBand, _ memoryBudget: Int) -> Int
    }

    /// How a lossy file is saved: its quality, and the options some savers take.
    struct SaveOptions: Sendable {
        var quality: Int
        /// libwebp's effort (0-6).
        var webpEffort = Encoder.defaultWebPEffort
        /// JPEG: chroma at full resolution (4:4:4) whatever the quality.
        var fullChroma = false
        /// WebP: libwebp's sharp RGB to YUV conversion, where the libvips loaded has it.
        var sharpYUV = true
    }
}
