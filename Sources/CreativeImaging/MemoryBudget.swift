/// The process-wide memory budget, in bytes, for what jobs and requests hold at once
/// (docs/cost-model.md): per-job limits (``JobLimits``) alone do not bound a process that runs many
/// jobs at once.
///
/// The service charges one budget with every kind of memory a request holds: its body as it is
/// buffered (the whole `Content-Length` before the first byte is kept, a chunked body in steps as
/// it grows), and its job's decode memory (``ImageSource/decodeMemory(content:)``: width x height
/// x bands x bytes per band of what cannot stream) before the decode; each is given back with
/// ``release(_:)`` when done. A request that cannot get its share before the deadline is refused
/// (the service answers 503 with `Retry-After`), never queued without bound.
///
/// ```swift
/// guard budget.reserve(source.decodeMemory(content: placement.content), waitingUntil: monotonicSeconds() + 2)
/// else { /* refuse: 503 */ }
/// defer { budget.release(bytes) }
/// ```
public final class MemoryBudget: @unchecked Sendable {
    /// Bytes that may be held at once.
    public let capacity: Int
    private let lock = Lock()
    private var held = 0
    private var refusals = 0

    /// Called (outside the lock) when a reservation finds the budget short, with the bytes it
    /// needs, before it waits: the service cuts stalled request bodies that hold reservations
    /// there. Nil: it only waits.
    private let relief: (@Sendable (_ bytes: Int) -> Void)?

    public init(capacity: Int, relief: (@Sendable (_ bytes: Int) -> Void)? = nil) {
        self.capacity = max(0, capacity)
        self.relief = relief
    }

    /// Bytes held now.
    public var inUse: Int { lock.locked { held } }
    /// Reservations refused so far (each answered 503).
    public var refused: Int { lock.locked { refusals } }

    /// Takes `bytes` from the budget, waiting until `deadline` (monotonic seconds) for others to
    /// give theirs back. A request larger than the whole budget is refused at once.
    /// - Returns: false when the bytes could not be had in time (nothing is taken then).
    public func reserve(_ bytes: Int, waitingUntil deadline: Double) -> Bool {
        guard bytes > 0 else { return true }
        guard bytes <= capacity else {
            lock.locked { refusals += 1 }
            return false
        }
        var asked = false
        while true {
            // nil: ask the relief (before the first wait, then every quarter second), and go on.
            let outcome: Bool? = lock.locked {
                if held + bytes <= capacity {
                    held += bytes
                    return true
                }
                if monotonicSeconds() >= deadline {
                    refusals += 1
                    return false
                }
                if relief != nil && !asked { return nil }
                _ = lock.wait(until: relief == nil ? deadline : min(deadline, monotonicSeconds() + 0.25))
                if held + bytes <= capacity {
                    held += bytes
                    return true
                }
                return nil
            }
            if let outcome { return outcome }
            if let relief {
                relief(bytes)
                asked = true
            }
        }
    }

    /// Takes `bytes` that are held already, whatever the budget has left (an answer made and
    /// waiting for its reader): reservations after it wait until they are given back with
    /// ``release(_:)``. Never refused: the memory is in use either way.
    public func take(_ bytes: Int) {
        guard bytes > 0 else { return }
        lock.locked { held = held.addingReportingOverflow(bytes).overflow ? Int.max : held + bytes }
    }

    /// Gives back bytes taken with ``reserve(_:waitingUntil:)``.
    public func release(_ bytes: Int) {
        guard bytes > 0 else { return }
        lock.locked {
            held = max(0, held - bytes)
            lock.broadcast()
        }
    }
}
