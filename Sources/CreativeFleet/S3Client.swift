import CCurl
import CCurlOptions
import CreativeImaging

/// What a bounded GET found.
public enum S3Download: Sendable, Equatable {
    /// The whole object.
    case bytes([UInt8])
    /// The object is larger than the limit: its size and its first bytes (at most ``S3Client/headBytes``),
    /// nothing more was read.
    case tooLarge(size: Int, head: [UInt8])
}

/// An S3 client on libcurl: GET (size-capped before reading), PUT, HEAD, bucket creation, each
/// request signed by libcurl's own AWS SigV4 (`CURLOPT_AWS_SIGV4`). One owner of its curl
/// handle (reused, so connections are kept alive): use one client per thread.
public final class S3Client: @unchecked Sendable {
    /// Bytes of an oversized object read for its validation report.
    public static let headBytes = 65536

    public let endpoint: S3Endpoint
    private let credentials: AWSCredentials
    private let handle: UnsafeMutableRawPointer
    /// Seconds one request may take in all.
    private let timeout: Int

    /// - Throws: ``FleetError/storeUnavailable(_:)`` when libcurl cannot be loaded or started.
    public init(endpoint: S3Endpoint, credentials: AWSCredentials, timeout: Int = 60) throws(FleetError) {
        guard creative_curl_open() == 1 else { throw .storeUnavailable(String(cString: creative_curl_error())) }
        guard let handle = curl_easy_init() else { throw .storeUnavailable("libcurl did not start") }
        self.endpoint = endpoint
        self.credentials = credentials
        self.handle = handle
        self.timeout = timeout
    }

    deinit { curl_easy_cleanup(handle) }

    /// The object's bytes when it has at most `limit`; else its size and head.
    /// The size is checked from the answer's Content-Length before the body is read, and the
    /// body is cut off past `limit` when the store sent none.
    /// - Throws: ``FleetError/notFound(_:)``, or a store error.
    public func get(_ location: S3Location, limit: Int) throws(FleetError) -> S3Download {
        switch try perform(.get(limit: limit, range: nil), location) {
        case .body(let bytes): return .bytes(bytes)
        case .overflow:
            let size = try head(location) ?? limit + 1
            guard case .body(let head) = try perform(.get(limit: S3Client.headBytes, range: S3Client.headBytes), location) else {
                return .tooLarge(size: size, head: [])
            }
            return .tooLarge(size: size, head: head)
        }
    }

    /// The object's size, or nil when there is no such object.
    public func head(_ location: S3Location) throws(FleetError) -> Int? {
        do {
            _ = try perform(.head, location)
        } catch .notFound {
            return nil
        }
        return Int(creative_curl_content_length(handle))
    }

    /// Writes the object (replacing any of that key). `sha256`: the bytes' SHA-256 when the caller
    /// already has it (a render's, from the job); nil, it is computed here.
    public func put(_ bytes: [UInt8], at location: S3Location, contentType: String, sha256: String? = nil) throws(FleetError) {
        _ = try perform(.put(bytes, contentType: contentType, sha256: sha256), location)
    }

    /// Creates the bucket of `location`; one that already exists and is ours is fine.
    public func createBucket(_ location: S3Location) throws(FleetError) {
        do {
            _ = try perform(.put([], contentType: nil, sha256: nil), S3Location(bucket: location.bucket, key: ""))
        } catch .storeRefused(409, _) {
            return
        }
    }

    private enum Method {
        case get(limit: Int, range: Int?)
        case head
        case put([UInt8], contentType: String?, sha256: String?)
    }

    private enum Outcome {
        case body([UInt8])
        case overflow
    }

    private func perform(_ method: Method, _ location: S3Location) throws(FleetError) -> Outcome {
        if let problem = location.dotSegmentProblem { throw .badSource(problem) }
        curl_easy_reset(handle)
        let url = endpoint.url(for: location)
        var headers: UnsafeMutablePointer<curl_slist>?
        defer { curl_slist_free_all(headers) }
        func header(_ line: String) { headers = curl_slist_append(headers, line) }
        if let token = credentials.sessionToken { header("x-amz-security-token: \(token)") }
        // The payload's hash, signed with the headers: S3 requires it, and libcurl 7.88 neither
        // sends it nor (for a request body) hashes the body as S3 does.
        var payload: [UInt8] = []
        var payloadSHA256: String?
        if case .put(let bytes, _, let known) = method { (payload, payloadSHA256) = (bytes, known) }
        header("x-amz-content-sha256: \(payloadSHA256 ?? Checksum.sha256(payload))")
        var body = creative_curl_body()
        defer { creative_curl_body_free(&body) }
        creative_curl_set_string(handle, CURLOPT_URL, url)
        // The key as given: libcurl would otherwise resolve `.` and `..` segments before signing.
        creative_curl_set_long(handle, CURLOPT_PATH_AS_IS, 1)
        creative_curl_set_string(handle, CURLOPT_AWS_SIGV4, "aws:amz:\(credentials.region):s3")
        creative_curl_set_string(handle, CURLOPT_USERNAME, credentials.accessKey)
        creative_curl_set_string(handle, CURLOPT_PASSWORD, credentials.secretKey)
        creative_curl_set_long(handle, CURLOPT_NOSIGNAL, 1)
        creative_curl_set_long(handle, CURLOPT_TIMEOUT, timeout)
        creative_curl_set_long(handle, CURLOPT_CONNECTTIMEOUT, min(10, timeout))
        switch method {
        case .get(let limit, let range):
            body.limit = limit
            if let range {
                creative_curl_set_string(handle, CURLOPT_RANGE, "0-\(range - 1)")
            } else {
                creative_curl_set_offset(handle, CURLOPT_MAXFILESIZE_LARGE, curl_off_t(limit))
            }
        case .head:
            body.limit = 1 << 16
            creative_curl_set_long(handle, CURLOPT_NOBODY, 1)
        case .put(let bytes, let contentType, _):
            body.limit = 1 << 16
            header("Content-Type: \(contentType ?? "application/octet-stream")")
            creative_curl_set_string(handle, CURLOPT_CUSTOMREQUEST, "PUT")
            creative_curl_set_offset(handle, CURLOPT_POSTFIELDSIZE_LARGE, curl_off_t(bytes.count))
            // Copied by curl (an empty body still needs a pointer, or curl reads standard input).
            (bytes.isEmpty ? [0] : bytes).withUnsafeBytes { raw in
                _ = creative_curl_set_pointer(handle, CURLOPT_COPYPOSTFIELDS, UnsafeMutableRawPointer(mutating: raw.baseAddress))
            }
        }
        creative_curl_collect(handle, &body)
        creative_curl_set_pointer(handle, CURLOPT_HTTPHEADER, UnsafeMutableRawPointer(headers))
        let code = curl_easy_perform(handle)
        let what = "\(methodName(method)) \(location)"
        if code == CURLE_FILESIZE_EXCEEDED || (code == CURLE_WRITE_ERROR && body.overflowed != 0) {
            return .overflow
        }
        guard code == CURLE_OK else {
            throw .storeUnavailable("\(what): \(String(cString: curl_easy_strerror(code)))")
        }
        let status = Int(creative_curl_response_code(handle))
        let answer = body.bytes.map { Array(UnsafeBufferPointer(start: $0, count: body.length)) } ?? []
        switch status {
        case 200...299:
            return .body(answer)
        case 404:
            throw .notFound(what)
        case 429, 500...599:
            throw .storeUnavailable("\(what): HTTP \(status) \(S3Client.errorCode(answer))")
        default:
            throw .storeRefused(status: status, "\(what): \(S3Client.errorCode(answer))")
        }
    }

    private func methodName(_ method: Method) -> String {
        switch method {
        case .get: "GET"
        case .head: "HEAD"
        case .put: "PUT"
        }
    }

    /// The `<Code>` of an S3 XML error body, or a clipped body.
    static func errorCode(_ body: [UInt8]) -> String {
        let text = String(decoding: body.prefix(4096), as: UTF8.self)
        if let open = text.firstRange(of: "<Code>"), let close = text[open.upperBound...].firstRange(of: "</Code>") {
            return String(text[open.upperBound..<close.lowerBound])
        }
        return String(text.prefix(200))
    }
}
