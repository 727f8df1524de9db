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

    /// The Prometheus text exposition (version 0.0.4).
    func render(gate: JobGate, service: ServiceGauges) -> String {
        var out = ""
        func header(_ name: String, _ type: String, _ help: String) {
            out += "# HELP \(name) \(help)\n# TYPE \(name) \(type)\n"
        }
        /// A counter with one sample per code.
        func countsByCode(_ name: String, _ help: String, _ counts: [String: Int]) {
            header(name, "counter", help)
            for (code, count) in counts.sorted(by: { $0.key < $1.key }) { out += "\(name){code=\"\(code)\"} \(count)\n" }
        }
        /// A metric with one unlabelled sample.
        func single(_ name: String, _ type: String, _ help: String, _ value: String) {
            header(name, type, help)
            out += "\(name) \(value)\n"
        }
        lock.locked {
            header("creative_http_requests_total", "counter", "HTTP requests answered, by route, method and status.")
            for (key, count) in requests.sorted(by: { ($0.key.route, $0.key.method, $0.key.status) < ($1.key.route, $1.key.method, $1.key.status) }) {
                out += "creative_http_requests_total{route=\"\(key.route)\",method=\"\(key.method)\",status=\"\(key.status)\"} \(count)\n"
            }
            header("creative_http_request_duration_seconds", "histogram",
                   "Time from the request's headers to the end of its response, by route.")
            for (route, histogram) in latency.sorted(by: { $0.key < $1.key }) {
                for (i, bound) in Metrics.buckets.enumerated() {
                    out += "creative_http_request_duration_seconds_bucket{route=\"\(route)\",le=\"\(Metrics.number(bound))\"} \(histogram.counts[i])\n"
                }
                out += "creative_http_request_duration_seconds_bucket{route=\"\(route)\",le=\"+Inf\"} \(histogram.count)\n"
                out += "creative_http_request_duration_seconds_sum{route=\"\(route)\"} \(Metrics.number(histogram.sum))\n"
                out += "creative_http_request_duration_seconds_count{route=\"\(route)\"} \(histogram.count)\n"
            }
            single("creative_http_requests_in_flight", "gauge", "Requests being received, handled or sent now.", "\(inFlight)")
            single("creative_http_requests_aborted_total", "counter", "Requests whose client went away or timed out before the answer.", "\(aborted)")
            single("creative_http_requests_malformed_total", "counter",
                   "Requests the HTTP parser refused before their headers were complete (malformed, or over its memory).", "\(malformed)")
            header("creative_jobs_cancelled_total", "counter",
                   "Image jobs stopped before their end, by reason (client_gone: its client closed the connection, "
                   + "running or waiting; timeout: past --job-timeout; shutdown: past the drain limit of a stop).")
            for (reason, count) in stoppedJobs.sorted(by: { $0.key < $1.key }) {
                out += "creative_jobs_cancelled_total{reason=\"\(reason)\"} \(count)\n"
            }
            countsByCode("creative_http_errors_total", "Error responses, by error code.", errors)
            countsByCode("creative_rejections_total", "Creatives rejected (validate and render), by validation error code.",
                         rejections)
        }
        let load = gate.load
        single("creative_jobs_running", "gauge", "Image jobs running now.", "\(load.running)")
        single("creative_jobs_waiting", "gauge", "Image jobs waiting for a slot now.", "\(load.waiting)")
        single("creative_jobs_slots", "gauge", "Image jobs that may run at once (--workers).", "\(gate.slots)")
        header("creative_connections_closed_total", "counter",
               "Connections closed for missing a deadline, by reason (header_timeout, keepalive_idle, slow_body, budget_pressure, linger_timeout).")
        for (reason, count) in service.cuts.sorted(by: { $0.key < $1.key }) {
            out += "creative_connections_closed_total{reason=\"\(reason)\"} \(count)\n"
        }
        single("creative_memory_budget_bytes", "gauge", "The memory budget for request bodies and decode memory (--memory-budget).", "\(service.budgetCapacity)")
        single("creative_memory_budget_in_use_bytes", "gauge", "Bytes of the memory budget held now.", "\(service.budgetInUse)")
        single("creative_memory_budget_refusals_total", "counter", "Requests and jobs refused (503) because the memory budget stayed full.",
               "\(service.budgetRefusals)")
        single("creative_log_lines_dropped_total", "counter", "Log lines dropped because standard error did not keep up.",
               "\(service.logLinesDropped)")
        header("creative_build_info", "gauge", "Always 1; its labels name the tool's version, the libvips version and the file it was loaded from.")
        out += "creative_build_info{version=\"\(Metrics.label(BuildInfo.version))\",libvips=\"\(Metrics.label(VipsRuntime.version))\","
            + "libvips_file=\"\(Metrics.label(VipsRuntime.libraryPath ?? ""))\"} 1\n"
        let memory = ProcessStats.memory()
        single("process_resident_memory_bytes", "gauge", "Resident memory size in bytes.", "\(memory.resident)")
        single("process_virtual_memory_bytes", "gauge", "Virtual memory size in bytes.", "\(memory.virtual)")
        single("process_cpu_seconds_total", "counter", "User and system CPU time spent, in seconds.", "\(Metrics.number(ProcessStats.cpuSeconds()))")
        return out
    }

    /// A label value as Prometheus text: backslash, double quote and line feed escaped.
    static func label(_ value: String) -> String {
        TextFormat.replacing(value, ["\\": "\\\\", "\"": "\\\"", "\n": "\\n"])
    }

    /// A number as Prometheus text: integers without a fraction.
    static func number(_ value: Double) -> String {
        value == value.rounded() && abs(value) < 1e15 ? String(Int(value)) : String(value)
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
enum ProcessStats {
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
