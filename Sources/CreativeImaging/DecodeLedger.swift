/// How many times, in this process, an upload's header was read (``ImageSource`` opened), its
/// pixels decoded (a strict check, a render's pass, the pre-flight checks' pass) and an upload
/// validated (``Validator``), so that tests can hold a job to one of each (docs/cost-model.md,
/// "One decode per job").
public enum DecodeLedger {
    /// The counts so far.
    public struct Counts: Sendable, Equatable {
        /// Headers read: one per ``ImageSource`` opened.
        public var opens = 0
        /// Passes over the compressed pixels (libvips or libpng).
        public var decodes = 0
        /// Uploads validated: one per ``Validator`` inspection of an upload (a bundle's static
        /// version, checked as a banner, counts one more).
        public var validations = 0

        /// Counts of `opens`, `decodes` and `validations`.
        public init(opens: Int = 0, decodes: Int = 0, validations: Int = 0) {
            self.opens = opens
            self.decodes = decodes
            self.validations = validations
        }

        /// What was counted after `earlier` (an earlier ``DecodeLedger/current``).
        public func since(_ earlier: Counts) -> Counts {
            Counts(opens: opens - earlier.opens, decodes: decodes - earlier.decodes,
                   validations: validations - earlier.validations)
        }
    }

    private static let lock = Lock()
    nonisolated(unsafe) private static var counts = Counts()

    /// The counts so far, process-wide.
    public static var current: Counts { lock.locked { counts } }

    static func noteOpen() { lock.locked { counts.opens += 1 } }
    static func noteDecode() { lock.locked { counts.decodes += 1 } }
    static func noteValidation() { lock.locked { counts.validations += 1 } }
}
