import CMicroHTTPD
import CMicroHTTPDLoader
#if canImport(Glibc)
import Glibc
#endif

/// Owns the `MHD_Daemon` pointer: starts it on an address, stops it in ``stop()`` or `deinit`.
/// It keeps the context alive for as long as MHD may call back into it.
final class Daemon: @unchecked Sendable {
    private var handle: OpaquePointer?
    private let lock = Lock()
    let context: ServiceContext
    /// The bound port (the real one when 0 was asked).
    let port: Int

    /// Binds and starts: one thread per connection, `poll()`, an inter-thread channel (for quiesce).
    /// - Throws: ``ServiceError/internalError(_:)`` when the address is invalid or cannot be bound.
    init(context: ServiceContext) throws(ServiceError) {
        self.context = context
        let config = context.config
        guard (0...65535).contains(config.port) else { throw .internalError("port \(config.port) is out of range") }
        var flags = MHD_USE_THREAD_PER_CONNECTION.rawValue | MHD_USE_INTERNAL_POLLING_THREAD.rawValue
            | MHD_USE_POLL.rawValue | MHD_USE_ITC.rawValue
        var address4 = sockaddr_in()
        var address6 = sockaddr_in6()
        let isIPv6 = config.host.contains(":")
        if isIPv6 {
            address6.sin6_family = sa_family_t(AF_INET6)
            address6.sin6_port = in_port_t(UInt16(config.port).bigEndian)
            guard inet_pton(AF_INET6, config.host, &address6.sin6_addr) == 1 else {
                throw .internalError("--host '\(config.host)' is not an IPv6 address")
            }
            flags |= MHD_USE_IPv6.rawValue
        } else {
            address4.sin_family = sa_family_t(AF_INET)
            address4.sin_port = in_port_t(UInt16(config.port).bigEndian)
            guard inet_pton(AF_INET, config.host, &address4.sin_addr) == 1 else {
                throw .internalError("--host '\(config.host)' is not an IPv4 address (use 127.0.0.1 or 0.0.0.0)")
            }
        }
        guard creative_mhd_open() == 1 else { throw .internalError(String(cString: creative_mhd_error())) }
        let cls = Unmanaged.passUnretained(context).toOpaque()
        let completed: MHD_RequestCompletedCallback = creativeRequestCompleted
        let access: MHD_AccessHandlerCallback = creativeAccessHandler
        let started: OpaquePointer? = withUnsafePointer(to: &address4) { pointer4 in
            withUnsafePointer(to: &address6) { pointer6 in
                let address = isIPv6 ? UnsafeRawPointer(pointer6) : UnsafeRawPointer(pointer4)
                let options: [CVarArg] = [
                    MHD_OPTION.SOCK_ADDR.rawValue, OpaquePointer(address),
                    MHD_OPTION.NOTIFY_COMPLETED.rawValue, OpaquePointer(unsafeBitCast(completed, to: UnsafeRawPointer.self)),
                    OpaquePointer(cls),
                    MHD_OPTION.CONNECTION_TIMEOUT.rawValue, CUnsignedInt(max(1, config.connectionTimeout)),
                    MHD_OPTION.CONNECTION_LIMIT.rawValue, CUnsignedInt(max(1, config.maxConnections)),
                    MHD_OPTION.CONNECTION_MEMORY_LIMIT.rawValue, Int(64 * 1024),
                    MHD_OPTION.THREAD_STACK_SIZE.rawValue, Int(1024 * 1024),
                    MHD_OPTION.LISTEN_BACKLOG_SIZE.rawValue, CUnsignedInt(512),
                    MHD_OPTION.END.rawValue,
                ]
                return withVaList(options) { list in
                    MHD_start_daemon_va(flags, UInt16(config.port), nil, nil, access, cls, list)
                }
            }
        }
        guard let started else {
            throw .internalError("cannot listen on \(config.host):\(config.port) (in use, or not an address of this machine)")
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
        if let current { MHD_stop_daemon(current) }
    }

    deinit { stop() }
}
