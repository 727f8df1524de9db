import Synchronization
import Dispatch

/// Runs independent pieces of libvips work on ``width`` workers (libvips is thread-safe) and
/// returns each piece's outcome in order.
enum ParallelWork {
    /// Pieces run side by side at most: 2 (``ProcessPlan`` may choose 1).
    static let width = 2

    static func run<Output: Sendable>(count: Int, width: Int = width, _ work: @Sendable (Int) throws(ImagingError) -> Output)
        -> [Result<Output, ImagingError>] {
        let slots = ResultSlots<Output>(count: count)
        let next = Atomic<Int>(0)
        // `width` workers take the pieces in order, whatever the machine's cores: what a job
        // holds at once (JobCost) grows with the pieces running side by side.
        DispatchQueue.concurrentPerform(iterations: max(1, min(count, width))) { _ in
            while true {
                let index = next.add(1, ordering: .relaxed).oldValue
                guard index < count else { return }
                do throws(ImagingError) {
                    slots.store(.success(try work(index)), at: index)
                } catch {
                    slots.store(.failure(error), at: index)
                }
            }
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
