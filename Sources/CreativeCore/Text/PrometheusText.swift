/// One metric of the Prometheus text exposition (version 0.0.4): its name, type and help, and
/// its samples. `serve` and `worker` declare their metrics as these values and write them with
/// ``PrometheusText/write(_:)``, the one writer of the text.
public struct MetricFamily: Sendable {
    /// The metric's type, as its `# TYPE` line says it.
    public enum Kind: String, Sendable {
        case counter, gauge, histogram
    }

    /// One line of the metric: the name with `suffix` (`_bucket`, `_sum`, `_count` of a
    /// histogram, empty otherwise), its labels in order, and its value.
    public struct Sample: Sendable {
        public let suffix: String
        public let labels: [(String, String)]
        public let value: Double

        public init(suffix: String = "", labels: [(String, String)] = [], value: Double) {
            self.suffix = suffix
            self.labels = labels
            self.value = value
        }
    }

    public let name: String
    public let kind: Kind
    public let help: String
    public let samples: [Sample]

    public init(name: String, kind: Kind, help: String, samples: [Sample]) {
        self.name = name
        self.kind = kind
        self.help = help
        self.samples = samples
    }

    /// A counter or gauge with one unlabelled sample; nil writes the header with no sample (a
    /// figure not known yet).
    public static func single(_ name: String, _ kind: Kind, _ help: String, _ value: Double?) -> MetricFamily {
        MetricFamily(name: name, kind: kind, help: help, samples: value.map { [Sample(value: $0)] } ?? [])
    }

    /// A counter or gauge with one sample per value of one label, in the label's order.
    public static func by(_ label: String, _ name: String, _ kind: Kind, _ help: String,
                          _ values: [String: Int]) -> MetricFamily {
        MetricFamily(name: name, kind: kind, help: help, samples: values.sorted { $0.key < $1.key }.map {
            Sample(labels: [(label, $0.key)], value: Double($0.value))
        })
    }

    /// One series of a histogram: its labels, the count of observations at or under each bound
    /// (cumulative, one per bound), their sum and their count.
    public struct Series: Sendable {
        public let labels: [(String, String)]
        public let cumulative: [Int]
        public let sum: Double
        public let count: Int

        public init(labels: [(String, String)] = [], cumulative: [Int], sum: Double, count: Int) {
            self.labels = labels
            self.cumulative = cumulative
            self.sum = sum
            self.count = count
        }
    }

    /// A histogram of upper `bounds` (seconds), one series per label set: its `_bucket` lines
    /// (then `+Inf`), `_sum` and `_count`.
    public static func histogram(_ name: String, _ help: String, bounds: [Double], _ series: [Series]) -> MetricFamily {
        let samples = series.flatMap { one -> [Sample] in
            zip(bounds, one.cumulative).map { bound, count in
                Sample(suffix: "_bucket", labels: one.labels + [("le", PrometheusText.number(bound))], value: Double(count))
            } + [Sample(suffix: "_bucket", labels: one.labels + [("le", "+Inf")], value: Double(one.count)),
                 Sample(suffix: "_sum", labels: one.labels, value: one.sum),
                 Sample(suffix: "_count", labels: one.labels, value: Double(one.count))]
        }
        return MetricFamily(name: name, kind: .histogram, help: help, samples: samples)
    }
}

/// The Prometheus text exposition (version 0.0.4) of metric families: `# HELP` and `# TYPE`,
/// then each sample, label values escaped, integers without a fraction.
public enum PrometheusText {
    /// The media type of the text.
    public static let contentType = "text/plain; version=0.0.4; charset=utf-8"

    /// The text of `families`, in their order.
    public static func write(_ families: [MetricFamily]) -> String {
        var out = ""
        for family in families {
            out += "# HELP \(family.name) \(family.help)\n# TYPE \(family.name) \(family.kind.rawValue)\n"
            for sample in family.samples {
                out += family.name + sample.suffix
                if !sample.labels.isEmpty {
                    out += "{" + sample.labels.map { "\($0.0)=\"\(label($0.1))\"" }.joined(separator: ",") + "}"
                }
                out += " \(number(sample.value))\n"
            }
        }
        return out
    }

    /// A label value as Prometheus text: backslash, double quote and line feed escaped.
    public static func label(_ value: String) -> String {
        TextFormat.replacing(value, ["\\": "\\\\", "\"": "\\\"", "\n": "\\n"])
    }

    /// A number as Prometheus text: integers without a fraction.
    public static func number(_ value: Double) -> String {
        value == value.rounded() && abs(value) < 1e15 ? String(Int(value)) : String(value)
    }
}
