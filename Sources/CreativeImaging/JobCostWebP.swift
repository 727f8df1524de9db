import CreativeCore

/// What libwebp's lossy encoder holds (``JobCost/encoderBytes(_:pixels:)`` has every encoder's
/// measurements): the opaque encoder, the sharp RGB to YUV conversion beside it, and the
/// compression of the render's alpha band by what the band holds.
extension JobCost {
    /// Bytes a pixel of an opaque lossy WebP with the plain RGB to YUV conversion.
    static let webpOpaquePerPixel = 9
    /// Bytes a pixel libwebp's sharp RGB to YUV conversion holds beside the lossy encoder: its
    /// whole-picture luma and chroma estimates while it iterates. Measured 10.3 bytes a pixel
    /// over opaque 2048x2732 renders (102 MB over the process's start against 45 MB without it),
    /// 3.9 with an alpha band (whose compression peaks apart from it).
    static let webpSharpYUVPerPixel = 11

    /// The alpha band of a render, for what libwebp's lossy encoder holds to compress it: it
    /// compresses the band apart with its lossless encoder, whose hash chain and backward
    /// references grow with the band's detail.
    public enum AlphaBand: Sendable, Equatable {
        /// No alpha band: an opaque background.
        case none
        /// Transparent bars around an opaque artwork: two values, which the lossless encoder
        /// packs eight pixels to a byte. Measured 10.2 bytes a pixel over 2048x2732 renders with
        /// transparent bars, 9.1 in libvips' saver alone; charged 9.
        case bars
        /// The artwork's own alpha (an upload with an alpha channel shown on transparent bars):
        /// any values. libvips' saver alone, 2048x2732 on 8.18, over an opaque render: 9.1 bytes
        /// a pixel for bars, 23.4 for a feathered edge, 31.6 for an alpha of noise. End to end,
        /// a 768x1024 PNG of noise into a 2048x2732 slot peaked 275.8 MB over the process before
        /// (33 bytes a pixel would be 0.985 of the charge); charged 36.
        case artwork

        /// The band of a render of an upload with (`uploadAlpha`) or without an alpha channel
        /// on `background`.
        public init(uploadAlpha: Bool, background: Background) {
            self = background != .transparent ? .none : uploadAlpha ? .artwork : .bars
        }

        /// The band of a render of `source` on `background`: the upload's own when it may be
        /// translucent (``ImageSource/mayBeTranslucent``).
        init(_ source: ImageSource, background: Background) {
            self.init(uploadAlpha: source.mayBeTranslucent, background: background)
        }

        /// Bytes a pixel its compression adds to a lossy WebP.
        var webpBytesPerPixel: Int {
            switch self {
            case .none: return 0
            case .bars: return 9
            case .artwork: return 36
            }
        }
    }

    /// The lossy WebP encoder of `pixels` without the sharp conversion, with `alpha`.
    static func plainWebPBytes(pixels: Int, alpha: AlphaBand) -> Int {
        adding(2 << 20, multiplying(pixels, webpOpaquePerPixel + alpha.webpBytesPerPixel))
    }

    /// Whether a lossy WebP of `pixels` is converted to YUV the sharp way: where the libvips
    /// loaded has it and the encoder's budget holds its buffers beside the plain encoder. Else the
    /// plain conversion, whose render the encoding line marks (``Encoder/plainYUVNote``): a
    /// render written a little softer in colour edges rather than refused.
    /// - Parameter alpha: the render's alpha band (transparent bars, or the artwork's own).
    public static func webpSharpYUV(pixels: Int, alpha: AlphaBand, memoryBudget: Int) -> Bool {
        EncoderFeatures.webpSharpYUV
            && adding(plainWebPBytes(pixels: pixels, alpha: alpha), multiplying(pixels, webpSharpYUVPerPixel)) <= memoryBudget
    }

    /// A lossy WebP encoder's bytes within `memoryBudget`: with the sharp conversion where it fits.
    static func lossyWebPBytes(pixels: Int, alpha: AlphaBand, memoryBudget: Int) -> Int {
        adding(plainWebPBytes(pixels: pixels, alpha: alpha),
               webpSharpYUV(pixels: pixels, alpha: alpha, memoryBudget: memoryBudget)
                   ? multiplying(pixels, webpSharpYUVPerPixel) : 0)
    }
}
