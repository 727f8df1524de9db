import CreativeCore
import Synchronization

/// The qualities a job's renders were fitted to their weight budget at (``WeightBudgetSearch``),
/// so that the next render of the job starts its search there: renders of one creative at
/// neighbouring sizes fit at neighbouring qualities (a 1080x1920 photograph's interstitial
/// screens over 150K: WebP 88-91), where a search from the bounds takes 8-10 encodes of a full
/// screen (each 0.3 s) for what 2-3 find from a neighbour's quality.
///
/// It also keeps the encodings found over a budget by a quarter or more, which a larger canvas of
/// the job then skips (``wasOver(_:sharpYUV:canvas:budget:)``).
///
/// Bound for a job like its deadline (``current``, on ``ParallelWork``'s workers too). A guess
/// only orders the encodes tried: the search still ends between a quality that fits and the
/// next one that does not, so what is written is what a search from the bounds writes wherever a
/// file grows with its quality and its canvas (every content of the process bench: the same
/// bytes, BudgetFitGuessTests).
final class BudgetFitGuesses: Sendable {
    /// One fitted render: its format (JPEG at full chroma apart), its canvas, its quality.
    private struct Fitted: Sendable {
        let format: OutputFormat
        let fullChroma: Bool
        let canvas: PixelSize
        let quality: Int
    }

    private let fitted = Mutex<[Fitted]>([])

    /// An encoding found over a render's budget (``AutoEncoder/apply(_:to:weightBudget:png:sharpYUV:plainYUVKept:area:others:)``).
    private struct Over: Sendable {
        let recipe: AutoRecipe
        /// WebP's sharp RGB to YUV conversion (larger files than the plain one).
        let sharpYUV: Bool
        let canvas: PixelSize
        let budget: Int
        let bytes: Int
    }

    /// How far over its budget a smaller render's file must have been to stand for a larger one:
    /// renders of fewer pixels can weigh more (the content scaled down further, more detail a
    /// pixel), but not by this much.
    static let overMargin = 1.25

    private let over = Mutex<[Over]>([])

    /// The guesses of the job running on this thread (nil: none bound; every search starts at
    /// its bounds).
    static let current = TaskLocal<BudgetFitGuesses?>(wrappedValue: nil)

    /// Runs `work` (one job) with guesses of its own bound.
    static func binding<Result>(_ work: () throws(ImagingError) -> Result) throws(ImagingError) -> Result {
        let outcome: Swift.Result<Result, ImagingError> = current.withValue(BudgetFitGuesses()) {
            do throws(ImagingError) {
                return .success(try work())
            } catch {
                return .failure(error)
            }
        }
        return try outcome.get()
    }

    /// The quality the render nearest `canvas` in pixels, of the same orientation, in the same
    /// format, was fitted at (the latest of renders as near); nil when none of the job's has
    /// been. (A landscape screen letterboxes the artwork a portrait one fills: their files differ
    /// more than their sizes.)
    func guess(_ format: OutputFormat, fullChroma: Bool, canvas: PixelSize) -> Int? {
        fitted.withLock { entries in
            entries.reversed().filter {
                $0.format == format && $0.fullChroma == fullChroma && Self.landscape($0.canvas) == Self.landscape(canvas)
            }.min { Self.distance($0.canvas, canvas) < Self.distance($1.canvas, canvas) }?.quality
        }
    }

    private static func landscape(_ canvas: PixelSize) -> Bool { canvas.width > canvas.height }

    private static func pixels(_ canvas: PixelSize) -> Int { canvas.pixelCount ?? .max }

    private static func distance(_ one: PixelSize, _ other: PixelSize) -> Int { abs(pixels(one) - pixels(other)) }

    /// Whether `recipe` was over the budget by ``overMargin`` on a canvas of the job of the same
    /// orientation and at most `canvas`'s pixels, under at least `budget`: on a larger canvas of
    /// the same artwork, under a budget no larger, the file is over still, so it is not encoded
    /// again to learn it (a photograph's interstitial screens: the lossless PNG, several times
    /// the budget, on every screen after the first).
    func wasOver(_ recipe: AutoRecipe, sharpYUV: Bool, canvas: PixelSize, budget: Int) -> Bool {
        over.withLock { entries in
            entries.contains {
                $0.recipe == recipe && $0.sharpYUV == sharpYUV && Self.landscape($0.canvas) == Self.landscape(canvas)
                    && Self.pixels($0.canvas) <= Self.pixels(canvas) && $0.budget >= budget
                    && Double($0.bytes) >= Self.overMargin * Double(budget)
            }
        }
    }

    /// Records `recipe`'s file of `bytes`, over `budget`, on `canvas`.
    func recordOver(_ recipe: AutoRecipe, sharpYUV: Bool, canvas: PixelSize, budget: Int, bytes: Int) {
        over.withLock { $0.append(Over(recipe: recipe, sharpYUV: sharpYUV, canvas: canvas, budget: budget, bytes: bytes)) }
    }

    /// Records a render of `canvas` fitted at `quality`.
    func record(_ format: OutputFormat, fullChroma: Bool, canvas: PixelSize, quality: Int) {
        fitted.withLock { $0.append(Fitted(format: format, fullChroma: fullChroma, canvas: canvas, quality: quality)) }
    }
}
