import CPNGCheck
import CVips
import CreativeCore
import Synchronization
#if canImport(Glibc)
import Glibc
#endif

/// What one job (a validation, a render, a `process` run) may spend beyond the header caps
/// (DESIGN section 8): memory for what cannot stream, and time.
///
/// The CLI and the service call the same functions with their own values:
/// `Renderer.render(source, settings:, limits:)`, `Validator.validate(_:fileName:limits:)` (through
/// ``ValidationLimits/job``) and `CreativeJob.process(_:fileName:limits:)`.
public struct JobLimits: Sendable {
    /// Most bytes a job may hold decoded at once, counted from the header before decoding as
    /// width x height x bands x bytes per band of whatever cannot stream (see
    /// ``ImageSource/decodeMemory(content:)``). Over it: ``ImagingError/overMemoryBudget(needed:budget:)``.
    public var memoryBudget: Int
    /// Seconds a job may run; nil for no deadline. Past it, libvips stops the job:
    /// ``ImagingError/timeout(seconds:)``.
    public var timeout: Double?
    /// A flag the caller raises to stop the job early (the service: its client has gone, or it is
    /// shutting down). The job then stops like at its deadline: ``ImagingError/cancelled(_:)``.
    public var cancellation: Cancellation?

    /// The CLI's default budget: 64 MiB. Every catalog size needs at most 9 MiB (`process` on a
    /// 2184x270 16-bit RGBA interlaced PNG); a 7000x7000 that cannot stream needs 187-374 MiB.
    public static let defaultMemoryBudget = 64 << 20
    /// A budget for the service per job: the same 64 MiB, so 16 parallel jobs stay within 1 GiB.
    public static let serviceMemoryBudget = 64 << 20
    /// A deadline for the service per job: 10 s (a catalog-size render takes milliseconds).
    public static let serviceTimeout = 10.0

    public init(memoryBudget: Int = defaultMemoryBudget, timeout: Double? = nil, cancellation: Cancellation? = nil) {
        self.memoryBudget = memoryBudget
        self.timeout = timeout
        self.cancellation = cancellation
    }

    /// The service's limits: its budget and, always, a deadline.
    public static let service = JobLimits(memoryBudget: serviceMemoryBudget, timeout: serviceTimeout)

    /// Refuses a decode that needs more than the budget.
    /// - Throws: ``ImagingError/overMemoryBudget(needed:budget:)``.
    public func charge(_ bytes: Int) throws(ImagingError) {
        if bytes > memoryBudget { throw .overMemoryBudget(needed: bytes, budget: memoryBudget) }
    }

    /// A deadline starting now, or nil when the limits have neither a timeout nor a cancellation.
    public func startDeadline() -> Deadline? {
        guard timeout != nil || cancellation != nil else { return nil }
        return Deadline(seconds: timeout ?? .infinity, cancellation: cancellation)
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

    static func now() -> UInt64 {
        var spec = timespec()
        clock_gettime(CLOCK_MONOTONIC, &spec)
        return UInt64(spec.tv_sec) * 1_000_000_000 + UInt64(spec.tv_nsec)
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
/// `vips_image_set_kill`. Every image made from it afterwards reports its progress to it.
enum DeadlineWatch {
    static func run<Result>(_ image: VImage, deadline: Deadline?,
                            _ work: () throws(ImagingError) -> Result) throws(ImagingError) -> Result {
        guard let deadline else { return try work() }
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
        defer {
            g_signal_handler_disconnect(UnsafeMutableRawPointer(pointer), id)
            vips_image_set_kill(pointer, 0)
            box.release()
        }
        do {
            return try work()
        } catch {
            if deadline.hasPassed {
                vips_error_clear()
                throw deadline.expiry
            }
            throw error
        }
    }
}
