import CreativeCore
import CreativeImaging
#if canImport(Glibc)
import Glibc
#endif

/// Thread-safe counters of the service, written as Prometheus text by `GET /metrics`.
public final class Metrics: @unchecked Sendable {
    /// Upper bounds (seconds) of the latency histogram buckets.
    static let buckets: [Double] = [0.005, 0.01, 0.025, 0.05, 0.075, 0.1, 0.15, 0.25, 0.5, 1, 2.5, 5, 10]

    private struct RequestKey: Hashable { let route: String; let method: String; let status: Int }
    private struct Histogram {
        var counts = [Int](repeating: 0, count: Metrics.buckets.count)
        var sum = 0.0
        var count = 0
    }

    private let lock = Lock()
    private var requests: [RequestKey: Int] = [:]
    private var latency: [String: Histogram] = [:]
    private var errors: [String: Int] = [:]
    private var rejections: [String: Int] = [:]
    private var inFlight = 0
    private var aborted = 0
    private var malformed = 0
    private var stoppedJobs = ["client_gone": 0, "shutdown": 0, "timeout": 0]

    public init() {}

    /// A request has started (its headers arrived).
    func started() { lock.locked { inFlight += 1 } }

    /// A request has ended, answered or not. `status` is nil when the client went away first, or
    /// when libmicrohttpd refused the request before its headers were complete (`malformed`).
    func finished(route: String, method: String, status: Int?, seconds: Double, errorCode: String?,
                  rejectionCodes: [String], malformed isMalformed: Bool = false) {
        lock.locked {
            inFlight -= 1
            guard let status else {
                if isMalformed { malformed += 1 } else { aborted += 1 }
                return
            }
            requests[RequestKey(route: route, method: method, status: status), default: 0] += 1
            var histogram = latency[route] ?? Histogram()
            for (i, bound) in Metrics.buckets.enumerated() where seconds <= bound { histogram.counts[i] += 1 }
            histogram.sum += seconds
            histogram.count += 1
            latency[route] = histogram
            if let errorCode { errors[errorCode, default: 0] += 1 }
            for code in rejectionCodes { rejections[code, default: 0] += 1 }
        }
    }

    /// A job was stopped before its end: `client_gone`, `shutdown` or `timeout`.
    func jobStopped(reason: String) { lock.locked { stoppedJobs[reason, default: 0] += 1 } }

    /// Requests being handled now.
    public var requestsInFlight: Int { lock.locked { inFlight } }

    /// The Prometheus text exposition (version 0.0.4), through ``PrometheusText``.
    func render(gate: JobGate, service: ServiceGauges) -> String {
        var families: [MetricFamily] = lock.locked {
            let requestSamples = requests.sorted {
                ($0.key.route, $0.key.method, $0.key.status) < ($1.key.route, $1.key.method, $1.key.status)
            }.map { key, count in
                MetricFamily.Sample(labels: [("route", key.route), ("method", key.method), ("status", String(key.status))],
                                    value: Double(count))
            }
            return [
                MetricFamily(name: "creative_http_requests_total", kind: .counter,
                             help: "HTTP requests answered, by route, method and status.", samples: requestSamples),
                .histogram("creative_http_request_duration_seconds",
                           "Time from the request's headers to the end of its response, by route.", bounds: Metrics.buckets,
                           latency.sorted { $0.key < $1.key }.map { route, histogram in
                               MetricFamily.Series(labels: [("route", route)], cumulative: histogram.counts,
                                                   sum: histogram.sum, count: histogram.count)
                           }),
                .single("creative_http_requests_in_flight", .gauge, "Requests being received, handled or sent now.", Double(inFlight)),
                .single("creative_http_requests_aborted_total", .counter,
                        "Requests whose client went away or timed out before the answer.", Double(aborted)),
                .single("creative_http_requests_malformed_total", .counter,
                        "Requests the HTTP parser refused before their headers were complete (malformed, or over its memory).",
                        Double(malformed)),
                .by("reason", "creative_jobs_cancelled_total", .counter,
                    "Image jobs stopped before their end, by reason (client_gone: its client closed the connection, "
                        + "running or waiting; timeout: past --job-timeout; shutdown: past the drain limit of a stop).", stoppedJobs),
                .by("code", "creative_http_errors_total", .counter, "Error responses, by error code.", errors),
                .by("code", "creative_rejections_total", .counter,
                    "Creatives rejected (validate and render), by validation error code.", rejections),
            ]
        }
        let load = gate.load
        families += [
            .single("creative_jobs_running", .gauge, "Image jobs running now.", Double(load.running)),
            .single("creative_jobs_waiting", .gauge, "Image jobs waiting for a slot now.", Double(load.waiting)),
            .single("creative_jobs_slots", .gauge, "Image jobs that may run at once (--workers).", Double(gate.slots)),
            .by("reason", "creative_connections_closed_total", .counter,
                "Connections closed for missing a deadline, by reason (header_timeout, keepalive_idle, slow_body, budget_pressure, linger_timeout).",
                service.cuts),
            .single("creative_memory_budget_bytes", .gauge, "The memory budget for request bodies and decode memory (--memory-budget).",
                    Double(service.budgetCapacity)),
            .single("creative_memory_budget_in_use_bytes", .gauge, "Bytes of the memory budget held now.", Double(service.budgetInUse)),
            .single("creative_memory_budget_refusals_total", .counter,
                    "Requests and jobs refused (503) because the memory budget stayed full.", Double(service.budgetRefusals)),
            .single("creative_log_lines_dropped_total", .counter, "Log lines dropped because standard error did not keep up.",
                    Double(service.logLinesDropped)),
            MetricFamily(name: "creative_build_info", kind: .gauge,
                         help: "Always 1; its labels name the tool's version, the libvips version and the file it was loaded from.",
                         samples: [MetricFamily.Sample(labels: [("version", BuildInfo.version), ("libvips", VipsRuntime.version),
                                                                ("libvips_file", VipsRuntime.libraryPath ?? "")], value: 1)]),
        ] + ProcessStats.families()
        return PrometheusText.write(families)
    }
}

/// Figures of the service's parts that are not request counters, read when metrics are rendered.
struct ServiceGauges {
    var cuts: [String: Int] = [:]
    var budgetCapacity = 0
    var budgetInUse = 0
    var budgetRefusals = 0
    var logLinesDropped = 0
}

/// Memory and CPU of this process, from /proc and getrusage.
public enum ProcessStats {
    /// The standard process metrics: resident and virtual memory, CPU seconds.
    public static func families() -> [MetricFamily] {
        let memory = memory()
        return [
            .single("process_resident_memory_bytes", .gauge, "Resident memory size in bytes.", Double(memory.resident)),
            .single("process_virtual_memory_bytes", .gauge, "Virtual memory size in bytes.", Double(memory.virtual)),
            .single("process_cpu_seconds_total", .counter, "User and system CPU time spent, in seconds.", cpuSeconds()),
        ]
    }

    static func memory() -> (resident: Int, virtual: Int) {
        let fd = open("/proc/self/statm", O_RDONLY)
        guard fd >= 0 else { return (0, 0) }
        defer { close(fd) }
        var buffer = [UInt8](repeating: 0, count: 128)
        let count = buffer.withUnsafeMutableBytes { read(fd, $0.baseAddress, 127) }
        guard count > 0 else { return (0, 0) }
        let fields = String(decoding: buffer[0..<count], as: UTF8.self).split(separator: " ")
        let page = Int(sysconf(Int32(_SC_PAGESIZE)))
        guard fields.count >= 2, let pages = Int(fields[1]), let total = Int(fields[0]) else { return (0, 0) }
        return (pages * page, total * page)
    }

    static func cpuSeconds() -> Double {
        var usage = rusage()
        getrusage(RUSAGE_SELF.rawValue, &usage)
        return Double(usage.ru_utime.tv_sec) + Double(usage.ru_utime.tv_usec) / 1e6
            + Double(usage.ru_stime.tv_sec) + Double(usage.ru_stime.tv_usec) / 1e6
    }
}
