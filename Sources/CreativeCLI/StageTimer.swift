import CreativeImaging

/// `--verbose`: each stage's time on standard error (`creative-tool render: time: render 412 ms`),
/// and the whole job's at the end. Says nothing unless asked.
struct StageTimer {
    let command: String
    let enabled: Bool
    private let start = monotonicSeconds()
    private var last = monotonicSeconds()

    init(command: String, enabled: Bool) {
        self.command = command
        self.enabled = enabled
    }

    /// The seconds since the start.
    var elapsed: Double { monotonicSeconds() - start }

    /// Ends a stage: its time, when verbose.
    mutating func stage(_ name: String) {
        let now = monotonicSeconds()
        if enabled { Streams.errLine("creative-tool \(command): time: \(name) \(Self.milliseconds(now - last))") }
        last = now
    }

    /// The whole job's time, when verbose.
    func finish() {
        if enabled { Streams.errLine("creative-tool \(command): time: total \(Self.milliseconds(elapsed))") }
    }

    /// `412 ms`, `2.31 s`.
    static func milliseconds(_ seconds: Double) -> String {
        seconds < 10 ? "\(Int((seconds * 1000).rounded())) ms" : "\(Int(seconds.rounded())) s"
    }
}
