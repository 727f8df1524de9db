import CreativeCore
import Dispatch
import Glibc
import Synchronization

/// The order `process` writes its renders in, and how `auto` decides each (docs/performance.md,
/// "process at its floor"):
/// 1. the render of the smallest canvas is searched first, alone (the most detail per pixel:
///    its quality is where every other render's search would start);
/// 2. a decision above both targets by ``JobDecision/wideMargin``, at the search's lowest
///    quality or a palette, is written into every other render as it is: one encode each,
///    nothing measured;
/// 3. a thinner one is checked once per scale class (renders whose content is scaled from the
///    creative by about the same factor, ``scaleClass(_:of:)``): the class's smallest render is
///    searched from it, and what that decided is written into the rest of the class.
/// Fixed formats, decisions no other render can take (lossless, near-lossless WebP, a render
/// fitted to its weight budget), and a job with AVIF named leave each render to decide on its own.
struct JobRenderPlan: Sendable {
    /// One render to make.
    struct Step: Sendable {
        let placement: Placement
        /// Its scale class.
        let scaleClass: Int
        /// Searched from the first decision, and its decision published for its class.
        let checksClass: Bool
    }

    /// The renders after the first, the classes' checks first.
    let steps: [Step]

    /// Scale classes a quarter of an octave wide: the content's width against the creative's.
    static func scaleClass(_ content: PixelSize, of creative: PixelSize) -> Int {
        let factor = Double(max(1, content.width)) / Double(max(1, creative.width))
        return Int((4 * log2(factor)).rounded())
    }

    /// The steps for `placements` (the first render's excluded) after `first`, the first render's
    /// decision (nil: none to share) made on `firstPlacement`.
    /// `formatsVary`: `auto` chooses between WebP and AVIF, whose smaller changes with the
    /// scale and the content (text-heavy art took AVIF at one render and a palette at the next):
    /// no decision is shared, every render searches.
    init(_ placements: [Placement], creative: PixelSize, first: JobDecision?, firstPlacement: Placement?,
         formatsVary: Bool = false) {
        let thin = !formatsVary && (first.map { !$0.isWide } ?? false)
        var checked = Set(firstPlacement.map { [Self.scaleClass($0.content, of: creative)] } ?? [])
        var checks: [Step] = [], rest: [Step] = []
        for placement in placements.sorted(by: { ($0.canvas.area, $0.content.area) < ($1.canvas.area, $1.content.area) }) {
            let scaleClass = Self.scaleClass(placement.content, of: creative)
            if thin, checked.insert(scaleClass).inserted {
                checks.append(Step(placement: placement, scaleClass: scaleClass, checksClass: true))
            } else {
                rest.append(Step(placement: placement, scaleClass: scaleClass, checksClass: false))
            }
        }
        steps = checks + rest
    }
}

/// The decisions of a job's scale classes: published once by each class's check, waited for
/// by the rest of the class (which run after every check has started, so none waits on a step
/// not yet running).
final class ClassDecisions: Sendable {
    private final class Slot: Sendable {
        let ready = DispatchSemaphore(value: 0)
        let decision = Mutex<JobDecision?>(nil)
    }

    private let slots: [Int: Slot]

    /// A slot per class in `classes`.
    init(_ classes: Set<Int>) {
        slots = Dictionary(uniqueKeysWithValues: classes.map { ($0, Slot()) })
    }

    /// The class's decision (nil: its check decided nothing another render can take, or failed).
    /// Published exactly once per class.
    func publish(_ decision: JobDecision?, for scaleClass: Int) {
        guard let slot = slots[scaleClass] else { return }
        slot.decision.withLock { $0 = decision }
        slot.ready.signal()
    }

    /// Waits for the class's check (at once for a class with none) and returns its decision.
    func decision(for scaleClass: Int) -> JobDecision? {
        guard let slot = slots[scaleClass] else { return nil }
        slot.ready.wait()
        defer { slot.ready.signal() }
        return slot.decision.withLock { $0 }
    }
}
