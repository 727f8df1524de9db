import CPNGCheck
import CVips
import CreativeCore
import Synchronization
#if canImport(Glibc)
import Glibc
#endif

/// What one job (a validation, a render, a `process` run) may spend beyond the header caps
/// (docs/cost-model.md): memory for what cannot stream, and time.
///
/// The CLI and the service call the same functions with their own values:
/// `Renderer.render(source, settings:, limits:)`, `Validator.validate(_:fileName:limits:)` (through
/// ``ValidationLimits/job``) and `CreativeJob.process(_:fileName:limits:)`.
public struct JobLimits: Sendable {
    /// Most bytes a job may hold at its peak, charged before any work from the header
    /// (``JobCost``: the decode, the resampling window, the canvas and the encoders). Over it:
    /// ``ImagingError/overMemoryBudget(needed:budget:)``.
    public var memoryBudget: Int
    /// Most sample bytes a job may decode (``JobCost/decodedSamples``), the measure of the
    /// decoder's time. Over it: ``ImagingError/tooMuchToDecode(needed:limit:)``.
    public var maxDecodedBytes: Int
    /// Seconds a job may run; nil for no deadline. Past it, libvips stops the job:
    /// ``ImagingError/timeout(seconds:)``.
    public var timeout: Double?
    /// A flag the caller raises to stop the job early (the service: its client has gone, or it is
    /// shutting down). The job then stops like at its deadline: ``ImagingError/cancelled(_:)``.
    public var cancellation: Cancellation?
    /// The deadline of the job these limits belong to, once ``asJob(_:)`` started it: every part of the job
    /// (a bundle's images, `process`'s renders, a second pass) counts from the same start.
    public private(set) var deadline: Deadline?

    /// The CLI's default budget, a slot-sized product's (``JobDefaults/slotMemoryBudget``: 80 MiB).
    public static let defaultMemoryBudget = JobDefaults.slotMemoryBudget
    /// The budget of a job of `product` when the caller gives none: the product's own
    /// (``JobDefaults/memoryBudget``: 80 MiB, 144 MiB for a product whose renders are whole screens).
    public static func defaultMemoryBudget(for product: Product) -> Int {
        product.jobDefaults.memoryBudget
    }
    /// A budget for the service per job: the CLI's 80 MiB. What the jobs of a process hold
    /// together is bounded by the service's process-wide budget (`--memory-budget`, 128 MiB by
    /// default), which every job is charged against before it starts.
    public static let serviceMemoryBudget = defaultMemoryBudget
    /// A deadline for the service per job, a slot-sized product's (``JobDefaults/slotServiceTimeout``: 10 s).
    public static let serviceTimeout = JobDefaults.slotServiceTimeout
    /// The service's deadline of a job of `product` when its operator gives none: the product's
    /// own (``JobDefaults/serviceTimeout``: 10 s, 60 s for a product whose renders are whole screens).
    public static func serviceTimeout(for product: Product) -> Double {
        product.jobDefaults.serviceTimeout
    }
    /// The default cap on decoded sample bytes: 96 MiB (for example 24 MP of 8-bit RGBA or 12 MP
    /// of 16-bit RGBA). A PNG whose every row uses the slowest filter (Paeth) decodes at about
    /// 7 ns a byte on the slow libvips, so this keeps the decode under 0.75 s; the largest
    /// catalog upload (2184x270 in 16-bit RGBA) is 4.7 MB.
    public static let defaultMaxDecodedBytes = 96 << 20

    public init(memoryBudget: Int = defaultMemoryBudget, timeout: Double? = nil, cancellation: Cancellation? = nil,
                maxDecodedBytes: Int = defaultMaxDecodedBytes) {
        self.memoryBudget = memoryBudget
        self.timeout = timeout
        self.cancellation = cancellation
        self.maxDecodedBytes = maxDecodedBytes
    }

    /// The service's limits: its budget and, always, a deadline.
    public static let service = JobLimits(memoryBudget: serviceMemoryBudget, timeout: serviceTimeout)

    /// Refuses a job that needs more than the budget.
    /// - Throws: ``ImagingError/overMemoryBudget(needed:budget:)``.
    public func charge(_ bytes: Int) throws(ImagingError) {
        if bytes > memoryBudget { throw .overMemoryBudget(needed: bytes, budget: memoryBudget) }
    }

    /// Refuses a job whose cost the limits do not cover: its decode first, then its memory.
    /// - Throws: ``ImagingError/tooMuchToDecode(needed:limit:)``, ``ImagingError/overMemoryBudget(needed:budget:)``.
    public func charge(_ cost: JobCost) throws(ImagingError) {
        if cost.decodedSamples > maxDecodedBytes { throw .tooMuchToDecode(needed: cost.decodedSamples, limit: maxDecodedBytes) }
        try charge(cost.memory)
    }

    /// The one place a job's deadline starts: runs `work` with these limits' deadline started now,
    /// or kept when an enclosing part of the same job started it (an operation, a campaign, the
    /// validation inside a process), and bound to the thread (``JobDeadline``), so every part of
    /// the job (its validation, searches, renders, sheet bands, ``ParallelWork``'s workers) stops
    /// at the one deadline.
    public func asJob<Result, Failure: Error>(_ work: (JobLimits) throws(Failure) -> Result) throws(Failure) -> Result {
        var started = self
        started.deadline = startDeadline()
        return try JobDeadline.binding(started.deadline) { () throws(Failure) in try work(started) }
    }

    /// The job's deadline: the one ``asJob(_:)`` started, else one starting now; nil when the limits
    /// have neither a timeout nor a cancellation.
    public func startDeadline() -> Deadline? {
        if let deadline { return deadline }
        guard timeout != nil || cancellation != nil else { return nil }
        return Deadline(seconds: timeout ?? .infinity, cancellation: cancellation)
    }

    /// Seconds left before the deadline, nil without one.
    public var secondsLeft: Double? {
        guard let deadline = startDeadline(), deadline.seconds.isFinite else { return nil }
        return max(0, Double(Int64(bitPattern: deadline.endNanoseconds &- Deadline.now())) / 1e9)
    }
}

/// A flag raised once, from any thread, to stop a job before its deadline; it carries why
/// (for example `client_gone`, `shutdown`). A job checks it wherever it checks its deadline, and
/// libvips stops at the next region it computes (``Deadline``).
public final class Cancellation: @unchecked Sendable {
    private let raised = Mutex<String?>(nil)
    /// The same flag for C code (the PNG stream check), written and read atomically.
    let flag: UnsafeMutablePointer<Int32>

    public init() {
        flag = .allocate(capacity: 1)
        flag.initialize(to: 0)
    }

    deinit { flag.deallocate() }

    /// Raises the flag with `reason`. Returns false when it was raised already (the first reason stays).
    @discardableResult
    public func cancel(reason: String) -> Bool {
        let first = raised.withLock { current in
            guard current == nil else { return false }
            current = reason
            return true
        }
        if first { cpng_flag_raise(flag) }
        return first
    }

    /// Why the job was cancelled, or nil while it was not.
    public var reason: String? { raised.withLock { $0 } }
    /// True once the flag is raised.
    public var isCancelled: Bool { reason != nil }
}

/// A moment on the monotonic clock after which a job is stopped, or earlier when its
/// cancellation is raised.
public struct Deadline: Sendable {
    /// The timeout it was made from, for messages.
    public let seconds: Double
    let endNanoseconds: UInt64
    /// Raised from outside: the deadline counts as passed from then on.
    public let cancellation: Cancellation?

    /// A deadline `seconds` from now (negative or NaN: now; at most about 31 years).
    public init(seconds: Double, cancellation: Cancellation? = nil) {
        self.seconds = seconds
        self.cancellation = cancellation
        let span = seconds > 0 ? min(seconds, 1e9) : 0
        endNanoseconds = Self.now() &+ UInt64(span * 1e9)
    }

    /// True once the deadline is past or the job is cancelled.
    public var hasPassed: Bool { cancellation?.isCancelled == true || Self.now() >= endNanoseconds }

    /// Why the job stops: ``ImagingError/cancelled(_:)`` when it was cancelled, else
    /// ``ImagingError/timeout(seconds:)``.
    var expiry: ImagingError {
        if let reason = cancellation?.reason { return .cancelled(reason) }
        return .timeout(seconds: seconds)
    }

    /// Throws ``expiry`` when the deadline is past or the job is cancelled.
    public func check() throws(ImagingError) {
        if hasPassed { throw expiry }
    }

    /// Seconds left before it passes (0 once past or cancelled).
    var remainingSeconds: Double {
        if cancellation?.isCancelled == true { return 0 }
        let now = Self.now()
        return now >= endNanoseconds ? 0 : Double(endNanoseconds - now) / 1e9
    }

    static func now() -> UInt64 {
        var spec = timespec()
        clock_gettime(CLOCK_MONOTONIC, &spec)
        return UInt64(spec.tv_sec) * 1_000_000_000 + UInt64(spec.tv_nsec)
    }
}

/// The deadline of the job the current thread works for, where work without a deadline of its
/// own reaches it: every libvips operation (``VipsOperation``) checks it before it runs, so the
/// searches (`auto`, a weight budget, `fix`, libimagequant's candidates) and the preview sheet
/// stop between encodes, not only before them. It is the job's one ``Deadline``, bound by whoever
/// holds it (``DeadlineWatch``, ``JobRenderer``, ``ParallelWork``'s workers): past it, the
/// same ``ImagingError/timeout(seconds:)`` (or ``ImagingError/cancelled(_:)``).
enum JobDeadline {
    /// The bound deadline: task-local, which outside a task is the thread's own.
    static let current = TaskLocal<Deadline?>(wrappedValue: nil)

    /// Runs `work` with `deadline` bound (nil: whatever is bound already stays).
    static func binding<Result, Failure: Error>(_ deadline: Deadline?, _ work: () throws(Failure) -> Result)
        throws(Failure) -> Result {
        guard let deadline else { return try work() }
        let outcome: Swift.Result<Result, Failure> = current.withValue(deadline) {
            do throws(Failure) {
                return .success(try work())
            } catch {
                return .failure(error)
            }
        }
        return try outcome.get()
    }

    /// Throws the bound deadline's ``Deadline/expiry`` once it has passed; nothing without one.
    static func check() throws(ImagingError) {
        try current.get()?.check()
    }
}

/// Holds a deadline for the eval callback (one retained reference per watch).
final class DeadlineBox {
    let deadline: Deadline
    init(_ deadline: Deadline) { self.deadline = deadline }
}

/// libvips' "eval" signal handler: emitted on the watched image as its pixels are computed,
/// it sets the image's kill flag once the deadline is past (or the job is cancelled), and the computation stops with an
/// error at the next region it prepares.
func deadlineEvalCallback(_ image: UnsafeMutableRawPointer?, _ progress: UnsafeMutableRawPointer?,
                          _ user: UnsafeMutableRawPointer?) {
    guard let image, let user else { return }
    let box = Unmanaged<DeadlineBox>.fromOpaque(user).takeUnretainedValue()
    if box.deadline.hasPassed {
        vips_image_set_kill(image.assumingMemoryBound(to: CVips.VipsImage.self), 1)
    }
}

/// Runs work that computes an image's pixels under a deadline, through libvips' own means:
/// progress reporting on the image (`vips_image_set_progress`), its "eval" signal, and
/// `vips_image_set_kill`; and the ``DeadlineWatchdog``, which kills the image from outside at the
/// deadline (and every image added to the ``WatchScope``: a render's streamed source). Every
/// image made from it afterwards reports its progress to it.
enum DeadlineWatch {
    static func run<Result>(_ image: VImage, deadline: Deadline?,
                            _ work: () throws(ImagingError) -> Result) throws(ImagingError) -> Result {
        try run(image, deadline: deadline) { (_: WatchScope?) throws(ImagingError) in try work() }
    }

    /// As ``run(_:deadline:_:)``, handing `work` a scope to watch the images it makes.
    static func run<Result>(_ image: VImage, deadline: Deadline?,
                            _ work: (WatchScope?) throws(ImagingError) -> Result) throws(ImagingError) -> Result {
        guard let deadline else { return try work(nil) }
        try deadline.check()
        vips_image_set_progress(image.pointer, 1)
        // An image made from one that already reports progress reports to that one.
        let pointer = image.pointer.pointee.progress_signal ?? image.pointer
        let box = Unmanaged.passRetained(DeadlineBox(deadline))
        typealias EvalHandler = @convention(c) (UnsafeMutableRawPointer?, UnsafeMutableRawPointer?,
                                                UnsafeMutableRawPointer?) -> Void
        let handler: EvalHandler = deadlineEvalCallback
        let id = g_signal_connect_data(UnsafeMutableRawPointer(pointer), "eval",
                                       unsafeBitCast(handler, to: GCallback.self), box.toOpaque(), nil,
                                       GConnectFlags(rawValue: 0))
        let scope = WatchScope(deadline)
        scope.watch(image)
        defer {
            scope.end()
            g_signal_handler_disconnect(UnsafeMutableRawPointer(pointer), id)
            vips_image_set_kill(pointer, 0)
            box.release()
        }
        do {
            return try JobDeadline.binding(deadline) { () throws(ImagingError) in try work(scope) }
        } catch {
            if deadline.hasPassed {
                vips_error_clear()
                throw deadline.expiry
            }
            throw error
        }
    }
}

/// The images of one piece of work that the ``DeadlineWatchdog`` kills at the deadline, until
/// ``end()``.
final class WatchScope {
    let deadline: Deadline
    private var keys: [Int] = []

    init(_ deadline: Deadline) { self.deadline = deadline }

    /// Kills `image` at the deadline, until the scope ends.
    func watch(_ image: VImage) { keys.append(DeadlineWatchdog.shared.watch(image, deadline: deadline)) }

    func end() {
        for key in keys { DeadlineWatchdog.shared.unwatch(key) }
        keys.removeAll()
    }
}
