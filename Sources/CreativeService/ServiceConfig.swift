/// How `serve` runs: where it listens, who may call it, and its limits.
public struct ServiceConfig: Sendable {
    /// Address to bind: loopback unless told otherwise (`0.0.0.0` or `::` for every interface).
    public var host = "127.0.0.1"
    /// TCP port; 0 picks a free one (``Server/port`` tells which).
    public var port = 8080
    /// Bearer token every `/v1` route needs; nil: no token (only sensible on loopback).
    public var token: String?
    /// Image jobs (validate, render) that run at once: two per processor by default. A render
    /// hands its strips between libvips threads (decode and resample, then the PNG writer), and
    /// one job per core leaves those gaps idle; a second one fills them (`make loadtest`:
    /// about a sixth more renders/s on 2 cores than one job per core).
    public var workers = 2 * ServiceConfig.processorCount
    /// Jobs that may wait for a slot (first come, first served) before the service answers 503.
    public var queue = 64
    /// Longest a job waits for a slot, in seconds, before 503.
    public var queueWait = 10.0
    /// Largest request body in bytes (413 above it, decided before the body is read when it has a length).
    public var maxBodyBytes = 8 * 1024 * 1024
    /// Seconds a connection may stay idle (slow clients included) before it is closed.
    public var connectionTimeout = 15
    /// Open connections at most (each has its own thread); more are refused at accept.
    public var maxConnections = 256
    /// Seconds SIGTERM waits for in-flight requests before stopping anyway.
    public var drainSeconds = 30.0
    /// One JSON line per request on standard error.
    public var logRequests = true

    public init() {}

    /// Online processors (at least 1).
    public static var processorCount: Int {
        max(1, Int(sysconfValue()))
    }
}

#if canImport(Glibc)
import Glibc
private func sysconfValue() -> Int { sysconf(Int32(_SC_NPROCESSORS_ONLN)) }
#endif
