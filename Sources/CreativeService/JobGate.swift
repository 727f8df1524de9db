import CreativeImaging

/// Bounds the image jobs that run at once: up to `slots` run, up to `queue` more wait (first come,
/// first served, at most `maxWait` seconds), and anything beyond is refused (503 + `Retry-After`).
/// A waiting job whose cancellation is raised (its client went away) leaves the line.
public final class JobGate: @unchecked Sendable {
    public let slots: Int
    public let queue: Int
    public let maxWait: Double
    private let lock = Lock()
    private var running = 0
    private var waiting = 0
    private var nextTicket = 0
    private var serving = 0

    public init(slots: Int, queue: Int, maxWait: Double = 10) {
        self.slots = max(0, slots)
        self.queue = max(0, queue)
        self.maxWait = maxWait
    }

    /// Jobs running and jobs waiting now.
    public var load: (running: Int, waiting: Int) { lock.locked { (running, waiting) } }

    /// Takes a slot, waiting in line when all are busy.
    /// - Returns: false when the line is full, the wait ran out (the caller answers 503), or
    ///   `cancellation` was raised while waiting (checked every 100 ms).
    public func enter(cancellation: Cancellation? = nil) -> Bool {
        lock.locked {
            if running < slots && waiting == 0 {
                running += 1
                return true
            }
            guard slots > 0, waiting < queue else { return false }
            let ticket = nextTicket
            nextTicket += 1
            waiting += 1
            let deadline = monotonicSeconds() + maxWait
            defer { waiting -= 1 }
            while !(running < slots && serving == ticket) {
                let timedOut = !lock.wait(until: min(deadline, monotonicSeconds() + 0.1))
                    && monotonicSeconds() >= deadline
                if (timedOut || cancellation?.isCancelled == true) && !(running < slots && serving == ticket) {
                    // Give up the place in line: later tickets must not wait for this one.
                    skipped.insert(ticket)
                    advance()
                    return false
                }
            }
            serving += 1
            advance()
            running += 1
            lock.broadcast()
            return true
        }
    }

    /// Tickets that gave up waiting.
    private var skipped: Set<Int> = []

    private func advance() {
        while skipped.remove(serving) != nil { serving += 1 }
        lock.broadcast()
    }

    /// Gives a slot back.
    public func leave() {
        lock.locked {
            running -= 1
            lock.broadcast()
        }
    }
}
