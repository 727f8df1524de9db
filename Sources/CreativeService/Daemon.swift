import CMicroHTTPD
import CMicroHTTPDLoader
import CreativeImaging
#if canImport(Glibc)
import Glibc
#endif

/// What one MHD daemon serves: its routes, its deadlines and the shared context. MHD's callbacks
/// get it back from their `cls` pointer; the daemon keeps it alive for as long as MHD may call.
final class Listener: @unchecked Sendable {
    let context: ServiceContext
    let router: Router
    let watch: ConnectionWatch
    /// The `Host` names answered (``HostAllowList``); nil: any.
    let hosts: HostAllowList?

    init(context: ServiceContext, router: Router, watch: ConnectionWatch, hosts: HostAllowList? = nil) {
        self.context = context
        self.router = router
        self.watch = watch
        self.hosts = hosts
    }
}

/// Owns the `MHD_Daemon` pointer: starts it on an address, stops it in ``stop()`` or `deinit`.
final class Daemon: @unchecked Sendable {

    private var handle: OpaquePointer?
    private let lock = Lock()
    let listener: Listener
    /// The bound port (the real one when 0 was asked).
    let port: Int

    /// Binds and starts.
    /// - Throws: ``ServiceError/internalError(_:)`` when the address is invalid or cannot be bound.
    /// Every connection has a thread of its own (a request's job runs on it), `poll()`, and an
    /// inter-thread channel (for quiesce); at most `perClient` connections per client address (0:
    /// no limit). The thread names its connection, so the error log can carry the parser's
    /// refusals to the service (``ParserRefusal``): on the data plane and the admin listener both
    /// (an epoll admin listener served every connection from one thread and kept libmicrohttpd's
    /// double answer to a malformed `Content-Length`).
    init(listener: Listener, host: String, port requested: Int, perClient: Int, connectionLimit: Int,
         idleTimeout: Int, memoryPerConnection: Int) throws(ServiceError) {
        self.listener = listener
        guard (0...65535).contains(requested) else { throw .internalError("port \(requested) is out of range") }
        var flags = MHD_USE_INTERNAL_POLLING_THREAD.rawValue | MHD_USE_ITC.rawValue
        flags |= MHD_USE_THREAD_PER_CONNECTION.rawValue | MHD_USE_POLL.rawValue | MHD_USE_ERROR_LOG.rawValue
        var address4 = sockaddr_in()
        var address6 = sockaddr_in6()
        let isIPv6 = host.contains(":")
        if isIPv6 {
            address6.sin6_family = sa_family_t(AF_INET6)
            address6.sin6_port = in_port_t(UInt16(requested).bigEndian)
            guard inet_pton(AF_INET6, host, &address6.sin6_addr) == 1 else {
                throw .internalError("'\(host)' is not an IPv6 address")
            }
            flags |= MHD_USE_IPv6.rawValue
        } else {
            address4.sin_family = sa_family_t(AF_INET)
            address4.sin_port = in_port_t(UInt16(requested).bigEndian)
            guard inet_pton(AF_INET, host, &address4.sin_addr) == 1 else {
                throw .internalError("'\(host)' is not an IPv4 address (use 127.0.0.1 or 0.0.0.0)")
            }
        }
        guard creative_mhd_open() == 1 else { throw .internalError(String(cString: creative_mhd_error())) }
        let cls = Unmanaged.passUnretained(listener).toOpaque()
        let completed: MHD_RequestCompletedCallback = creativeRequestCompleted
        let access: MHD_AccessHandlerCallback = creativeAccessHandler
        let uriLog: @convention(c) (UnsafeMutableRawPointer?, UnsafePointer<CChar>?, OpaquePointer?)
            -> UnsafeMutableRawPointer? = creativeRequestStarted
        let notify: MHD_NotifyConnectionCallback = creativeConnectionNotified
        creative_mhd_set_refusal_handler(creativeParserRefused)
        // The logger must be the first option (MHD logs with its default logger until it is set).
        let logging: [CVarArg] = [MHD_OPTION.EXTERNAL_LOGGER.rawValue, OpaquePointer(creative_mhd_logger()),
                                  OpaquePointer(cls)]
        func pointer<T>(_ function: T) -> OpaquePointer { OpaquePointer(unsafeBitCast(function, to: UnsafeRawPointer.self)) }
        let started: OpaquePointer? = withUnsafePointer(to: &address4) { pointer4 in
            withUnsafePointer(to: &address6) { pointer6 in
                let address = isIPv6 ? UnsafeRawPointer(pointer6) : UnsafeRawPointer(pointer4)
                let options: [CVarArg] = logging + [
                    MHD_OPTION.SOCK_ADDR.rawValue, OpaquePointer(address),
                    MHD_OPTION.NOTIFY_COMPLETED.rawValue, pointer(completed), OpaquePointer(cls),
                    MHD_OPTION.URI_LOG_CALLBACK.rawValue, pointer(uriLog), OpaquePointer(cls),
                    MHD_OPTION.NOTIFY_CONNECTION.rawValue, pointer(notify), OpaquePointer(cls),
                    MHD_OPTION.CONNECTION_TIMEOUT.rawValue, CUnsignedInt(max(1, idleTimeout)),
                    MHD_OPTION.CONNECTION_LIMIT.rawValue, CUnsignedInt(max(1, connectionLimit)),
                    MHD_OPTION.PER_IP_CONNECTION_LIMIT.rawValue, CUnsignedInt(max(0, perClient)),
                    MHD_OPTION.CONNECTION_MEMORY_LIMIT.rawValue, Int(memoryPerConnection),
                    MHD_OPTION.THREAD_STACK_SIZE.rawValue, Int(1024 * 1024),
                    MHD_OPTION.LISTEN_BACKLOG_SIZE.rawValue, CUnsignedInt(512),
                    MHD_OPTION.END.rawValue,
                ]
                return withVaList(options) { list in
                    MHD_start_daemon_va(flags, UInt16(requested), nil, nil, access, cls, list)
                }
            }
        }
        guard let started else {
            throw .internalError("cannot listen on \(host):\(requested) (in use, or not an address of this machine)")
        }
        handle = started
        port = Int(creative_mhd_bound_port(started))
    }

    /// Stops accepting connections; those open go on.
    func quiesce() {
        lock.locked {
            guard let handle else { return }
            let socket = MHD_quiesce_daemon(handle)
            if socket >= 0 { close(socket) }
        }
    }

    /// Closes every connection and joins MHD's threads. Idempotent.
    func stop() {
        let current: OpaquePointer? = lock.locked {
            defer { handle = nil }
            return handle
        }
        if let current {
            MHD_stop_daemon(current)
            listener.watch.stop()
        }
    }

    deinit { stop() }
}
