import Synchronization
import Dispatch

/// Runs independent pieces of libvips work on ``width`` workers (libvips is thread-safe) and
/// returns each piece's outcome in order.
enum ParallelWork {
    /// Pieces run side by side at most: 2, one a core of the machines the tool is sized for;
    /// `process` lets them hold together no more than its charge (``PieceGate``).
    static let width = 2

    /// Runs `work` for each index below `count` on at most `width` threads, in index order. The
    /// caller's job deadline (``JobDeadline``) and budget-fit guesses (``BudgetFitGuesses``) are
    /// bound on every worker.
    static func run<Output: Sendable>(count: Int, width: Int = width, _ work: @Sendable (Int) throws(ImagingError) -> Output)
        -> [Result<Output, ImagingError>] {
        let slots = ResultSlots<Output>(count: count)
        let next = Atomic<Int>(0)
        let deadline = JobDeadline.current.get()
        let guesses = BudgetFitGuesses.current.get()
        // `width` workers take the pieces in order, whatever the machine's cores: what a job
        // holds at once (JobCost) grows with the pieces running side by side.
        DispatchQueue.concurrentPerform(iterations: max(1, min(count, width))) { _ in
            JobDeadline.current.withValue(deadline) { BudgetFitGuesses.current.withValue(guesses) {
                while true {
                    let index = next.add(1, ordering: .relaxed).oldValue
                    guard index < count else { return }
                    do throws(ImagingError) {
                        slots.store(.success(try work(index)), at: index)
                    } catch {
                        slots.store(.failure(error), at: index)
                    }
                }
            } }
        }
        return slots.results()
    }
}

/// One slot per piece of work; each index is written by exactly one thread, read after all finished.
private final class ResultSlots<Output: Sendable>: @unchecked Sendable {
    private let buffer: UnsafeMutableBufferPointer<Result<Output, ImagingError>?>

    init(count: Int) {
        buffer = .allocate(capacity: count)
        buffer.initialize(repeating: nil)
    }

    deinit {
        buffer.deinitialize()
        buffer.deallocate()
    }

    func store(_ result: Result<Output, ImagingError>, at index: Int) { buffer[index] = result }

    func results() -> [Result<Output, ImagingError>] {
        buffer.map { $0 ?? .failure(.operationFailed("work not run")) }
    }
}

/// The memory a job's parallel pieces share (``ProcessPlan``'s charge): a piece takes its
/// bytes before it runs and gives them back after, so pieces run side by side only while what
/// they hold together fits the charge, and a piece charged more than the whole runs alone.
final class PieceGate: Sendable {
    private let capacity: Int
    private let available: Mutex<Int>
    private let released = DispatchSemaphore(value: 0)

    init(capacity: Int) {
        self.capacity = max(0, capacity)
        available = Mutex(max(0, capacity))
    }

    /// Runs `work` once `bytes` (at most the whole capacity) are free, and frees them after.
    func run<Output>(holding bytes: Int, _ work: () throws(ImagingError) -> Output) throws(ImagingError) -> Output {
        let taken = min(max(0, bytes), capacity)
        while !available.withLock({ free in
            guard free >= taken else { return false }
            free -= taken
            return true
        }) {
            // Woken by a release, or again after a moment: a release may wake the other waiter.
            _ = released.wait(timeout: .now() + .milliseconds(2))
        }
        defer {
            available.withLock { $0 += taken }
            released.signal()
        }
        return try work()
    }
}
