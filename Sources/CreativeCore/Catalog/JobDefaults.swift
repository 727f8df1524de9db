/// A product's job numbers (docs/cost-model.md): the memory budget and the service's deadline a
/// job gets when its caller gives none, and the largest preview sheet `process` is charged for.
/// Each product declares its own (``Product/jobDefaults``); `JobLimits` and `ProcessPlan`
/// (CreativeImaging) read them from there, so no switch over the products holds them.
public struct JobDefaults: Sendable, Hashable {
    /// The budget of a job when the caller gives none (the CLI's `--memory-budget`, the
    /// service's `--job-memory-budget`).
    public let memoryBudget: Int
    /// The service's deadline of a job, in seconds, when its operator gives none
    /// (`--job-timeout`).
    public let serviceTimeout: Double
    /// The largest preview sheet of the product's catalog, in pixels: `process` renders only
    /// valid creatives, so only catalog sizes, and charges every sheet of the product this
    /// (`ProcessPlan.sheetBytes`). A sheet drawn at 2x points that would be larger is drawn at a
    /// smaller scale. A test draws every catalog size's sheet and checks it.
    public let sheetPixels: Int

    /// The numbers of a product.
    public init(memoryBudget: Int, serviceTimeout: Double, sheetPixels: Int) {
        self.memoryBudget = memoryBudget
        self.serviceTimeout = serviceTimeout
        self.sheetPixels = sheetPixels
    }

    /// A product whose slots are strips or fixed slots (banners, companions): a budget of
    /// ``slotMemoryBudget`` and a deadline of ``slotServiceTimeout``.
    public static func slotSized(sheetPixels: Int) -> JobDefaults {
        JobDefaults(memoryBudget: slotMemoryBudget, serviceTimeout: slotServiceTimeout, sheetPixels: sheetPixels)
    }

    /// A product whose renders are whole screens (interstitials): a budget of
    /// ``fullScreenMemoryBudget`` and a deadline of ``fullScreenServiceTimeout``.
    public static func fullScreen(sheetPixels: Int) -> JobDefaults {
        JobDefaults(memoryBudget: fullScreenMemoryBudget, serviceTimeout: fullScreenServiceTimeout, sheetPixels: sheetPixels)
    }

    /// 80 MiB, so that a job stays within 128 MB of peak RSS with the process' own 30-40 MB.
    /// Every banner and companion size needs much less (a render of a 2184x270 PNG into
    /// 390x61@3x is charged 17 MiB, with `auto` 30 MiB).
    public static let slotMemoryBudget = 80 << 20
    /// 10 s: a render of a catalog size into a slot takes milliseconds.
    public static let slotServiceTimeout = 10.0
    /// 144 MiB. Every interstitial size is served on the 2048x2732 iPad Pro 12.9 screen, whose
    /// lossy WebP with transparent bars holds 78 MB in libvips' saver alone: `process --format
    /// webp` of the catalog's sizes is charged 114.6 MiB (a flat 320x480 PNG) to 131.7 MiB (a 2 MB
    /// JPEG of noise at 1920x1080), JPEG up to 81.7 MiB, all over 80 MiB. An upload's own
    /// translucent alpha needs more (about 270 MiB in WebP, `JobCost.AlphaBand`) and is refused at
    /// this default.
    public static let fullScreenMemoryBudget = 144 << 20
    /// 60 s. `process` renders 28 screens of up to 2048x2732 pixels: a flat 320x480 in WebP took
    /// 22 s (release build, 2 cores), 8.5 s in `auto`, over the 10 s of a banner job.
    public static let fullScreenServiceTimeout = 60.0
}

extension Product {
    /// A default that may differ by product, as help texts write it: the default product's, then
    /// each other product's that differs, after `name` (`80 MiB; 144 MiB for --product interstitial`).
    public static func defaultsText(_ value: (Product) -> String, name: (Product) -> String) -> String {
        let base = value(defaultProduct)
        return ([base] + allCases.filter { value($0) != base }.map { "\(value($0)) for \(name($0))" })
            .joined(separator: "; ")
    }
}
