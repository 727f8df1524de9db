/// How many times, in this process, an upload's header was read (``ImageSource`` opened) and
/// its pixels decoded (a strict check, a render's pass, the pre-flight checks' pass), so that
/// tests can hold a job to one decode (docs/cost-model.md, "One decode per job").
public enum DecodeLedger {
    /// The counts so far.
    public struct Counts: Sendable, Equatable {
        /// Headers read: one per ``ImageSource`` opened.
        public var opens = 0
        /// Passes over the compressed pixels (libvips or libpng).
        public var decodes = 0
    }

    private static let lock = Lock()
    nonisolated(unsafe) private static var counts = Counts()

    /// The counts so far, process-wide.
    public static var current: Counts { lock.locked { counts } }

    static func noteOpen() { lock.locked { counts.opens += 1 } }
    static func noteDecode() { lock.locked { counts.decodes += 1 } }
}
