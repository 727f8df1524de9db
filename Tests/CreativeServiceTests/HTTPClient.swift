import Foundation
#if canImport(Glibc)
import Glibc
#endif

/// A response as the raw test client read it.
struct HTTPResult {
    let status: Int
    /// Header names lowercased.
    let headers: [String: String]
    let body: [UInt8]
    /// Every header line in order, names lowercased (a name given more than once keeps each value).
    var fields: [(name: String, value: String)] = []
    var text: String { String(decoding: body, as: UTF8.self) }
    /// The body parsed as JSON (Foundation), for field checks.
    var json: [String: Any]? { (try? JSONSerialization.jsonObject(with: Data(body))) as? [String: Any] }
    var errorCode: String? { (json?["error"] as? [String: Any])?["code"] as? String }
}

/// A minimal HTTP/1.1 client over a raw socket: full control of what is sent (truncated bodies,
/// chunked bodies, odd methods) and only ever to 127.0.0.1.
enum HTTPClient {
    /// A connected socket; `from` picks another loopback source address (127.0.0.2, ...), as a
    /// second client would have.
    static func connectSocket(_ port: Int, from source: String? = nil, timeoutSeconds: Int = 30) -> Int32 {
        let fd = socket(AF_INET, Int32(SOCK_STREAM.rawValue), 0)
        precondition(fd >= 0)
        var timeout = timeval(tv_sec: timeoutSeconds, tv_usec: 0)
        setsockopt(fd, SOL_SOCKET, SO_RCVTIMEO, &timeout, socklen_t(MemoryLayout<timeval>.size))
        if let source {
            var local = sockaddr_in()
            local.sin_family = sa_family_t(AF_INET)
            local.sin_addr.s_addr = inet_addr(source)
            let bound = withUnsafePointer(to: &local) {
                $0.withMemoryRebound(to: sockaddr.self, capacity: 1) { bind(fd, $0, socklen_t(MemoryLayout<sockaddr_in>.size)) }
            }
            precondition(bound == 0, "cannot bind \(source)")
        }
        var address = sockaddr_in()
        address.sin_family = sa_family_t(AF_INET)
        address.sin_port = in_port_t(UInt16(port).bigEndian)
        address.sin_addr.s_addr = inet_addr("127.0.0.1")
        let result = withUnsafePointer(to: &address) {
            $0.withMemoryRebound(to: sockaddr.self, capacity: 1) { connect(fd, $0, socklen_t(MemoryLayout<sockaddr_in>.size)) }
        }
        precondition(result == 0, "cannot connect to 127.0.0.1:\(port)")
        return fd
    }

    static func sendAll(_ fd: Int32, _ bytes: [UInt8]) {
        var offset = 0
        while offset < bytes.count {
            let sent = bytes[offset...].withUnsafeBytes { send(fd, $0.baseAddress, $0.count, Int32(MSG_NOSIGNAL)) }
            if sent <= 0 { return }
            offset += sent
        }
    }

    static func readAll(_ fd: Int32) -> [UInt8] {
        var data: [UInt8] = []
        var buffer = [UInt8](repeating: 0, count: 65536)
        while true {
            let count = buffer.withUnsafeMutableBytes { recv(fd, $0.baseAddress, $0.count, 0) }
            if count <= 0 { break }
            data.append(contentsOf: buffer[0..<count])
        }
        return data
    }

    /// Sends one request (`Connection: close`) and reads the whole answer.
    static func request(_ port: Int, _ method: String, _ path: String, headers: [(String, String)] = [],
                        body: [UInt8]? = nil, chunked: Bool = false, timeoutSeconds: Int = 30) -> HTTPResult {
        let fd = connectSocket(port, timeoutSeconds: timeoutSeconds)
        defer { close(fd) }
        var head = "\(method) \(path) HTTP/1.1\r\nHost: 127.0.0.1\r\nConnection: close\r\n"
        for (name, value) in headers { head += "\(name): \(value)\r\n" }
        if let body {
            head += chunked ? "Transfer-Encoding: chunked\r\n" : "Content-Length: \(body.count)\r\n"
        }
        head += "\r\n"
        sendAll(fd, Array(head.utf8))
        if let body {
            if chunked {
                var offset = 0
                while offset < body.count {
                    let end = min(body.count, offset + 65536)
                    sendAll(fd, Array((String(end - offset, radix: 16) + "\r\n").utf8) + body[offset..<end] + Array("\r\n".utf8))
                    offset = end
                }
                sendAll(fd, Array("0\r\n\r\n".utf8))
            } else {
                sendAll(fd, body)
            }
        }
        return parse(readAll(fd))
    }

    /// Parses a `Connection: close` response (Content-Length or read to the end).
    static func parse(_ data: [UInt8]) -> HTTPResult {
        let separator: [UInt8] = Array("\r\n\r\n".utf8)
        var split = -1
        if data.count >= 4 {
            for i in 0...(data.count - 4) where Array(data[i..<i + 4]) == separator { split = i; break }
        }
        guard split >= 0 else { return HTTPResult(status: 0, headers: [:], body: data) }
        let lines = String(decoding: data[0..<split], as: UTF8.self).components(separatedBy: "\r\n")
        let status = Int(lines[0].split(separator: " ").dropFirst().first ?? "") ?? 0
        var headers: [String: String] = [:]
        var fields: [(name: String, value: String)] = []
        for line in lines.dropFirst() {
            guard let colon = line.firstIndex(of: ":") else { continue }
            let (name, value) = (line[..<colon].lowercased(), line[line.index(after: colon)...].trimmingCharacters(in: .whitespaces))
            headers[name] = value
            fields.append((name, value))
        }
        var body = Array(data[(split + 4)...])
        if let length = headers["content-length"].flatMap(Int.init), length < body.count { body = Array(body[0..<length]) }
        return HTTPResult(status: status, headers: headers, body: body, fields: fields)
    }
}
