#if canImport(Glibc)
import Glibc
#endif

/// A tiny HTTP client for the container's HEALTHCHECK (the runtime image has no curl):
/// `GET /healthz` on a loopback port, true on a 200 answer within the timeout.
public enum HealthProbe {
    public static func check(port: Int, path: String = "/healthz", timeoutSeconds: Int = 3) -> Bool {
        let fd = socket(AF_INET, Int32(SOCK_STREAM.rawValue), 0)
        guard fd >= 0 else { return false }
        defer { close(fd) }
        var timeout = timeval(tv_sec: timeoutSeconds, tv_usec: 0)
        setsockopt(fd, SOL_SOCKET, SO_RCVTIMEO, &timeout, socklen_t(MemoryLayout<timeval>.size))
        setsockopt(fd, SOL_SOCKET, SO_SNDTIMEO, &timeout, socklen_t(MemoryLayout<timeval>.size))
        var address = sockaddr_in()
        address.sin_family = sa_family_t(AF_INET)
        address.sin_port = in_port_t(UInt16(truncatingIfNeeded: port).bigEndian)
        address.sin_addr.s_addr = inet_addr("127.0.0.1")
        let connected = withUnsafePointer(to: &address) {
            $0.withMemoryRebound(to: sockaddr.self, capacity: 1) {
                connect(fd, $0, socklen_t(MemoryLayout<sockaddr_in>.size))
            }
        }
        guard connected == 0 else { return false }
        let request = Array("GET \(path) HTTP/1.1\r\nHost: 127.0.0.1\r\nConnection: close\r\n\r\n".utf8)
        guard request.withUnsafeBytes({ send(fd, $0.baseAddress, $0.count, Int32(MSG_NOSIGNAL)) }) == request.count
        else { return false }
        var buffer = [UInt8](repeating: 0, count: 64)
        var received = 0
        while received < 12 {
            let count = buffer.withUnsafeMutableBytes { recv(fd, $0.baseAddress! + received, 64 - received, 0) }
            if count <= 0 { return false }
            received += count
        }
        let statusLine = String(decoding: buffer[0..<received], as: UTF8.self)
        return statusLine.hasPrefix("HTTP/1.1 200") || statusLine.hasPrefix("HTTP/1.0 200")
    }
}
