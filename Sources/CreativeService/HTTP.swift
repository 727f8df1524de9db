import CreativeCore
import CreativeImaging

/// One request as the handlers see it: method, path, query, the headers they need, and the body.
public struct Request: Sendable {
    public var method: String
    public var path: String
    public var query: Query
    /// The `Content-Type` header, if any.
    public var contentType: String?
    /// The `Accept` header, if any.
    public var accept: String?
    public var body: [UInt8]
    /// Raised when the client goes away or the service stops: the request's job is stopped.
    var cancellation = Cancellation()

    public init(method: String, path: String, query: Query = Query(), contentType: String? = nil, accept: String? = nil,
                body: [UInt8] = []) {
        self.method = method
        self.path = path
        self.query = query
        self.contentType = contentType
        self.accept = accept
        self.body = body
    }
}

/// One response: status, media type, extra headers and body bytes.
public struct Response: Sendable {
    public var status: Int
    public var contentType: String
    public var headers: [(String, String)] = []
    public var body: [UInt8]
    /// A body made as it is sent, instead of ``body`` (the zip answer of `process`).
    var stream: BodyStream?
    /// The error code, for metrics, when this is an error response.
    var errorCode: String?
    /// Validation codes of a rejected creative, for the rejection metrics.
    var rejectionCodes: [String] = []

    public init(status: Int = 200, contentType: String, body: [UInt8]) {
        self.status = status
        self.contentType = contentType
        self.body = body
    }

    /// A JSON response (one line, with a trailing newline); an object gets `schema_version` and
    /// `tool_version` first (``JSONContract/document(_:)``).
    static func json(_ value: JSONValue, status: Int = 200) -> Response {
        Response(status: status, contentType: "application/json", body: Array((JSONContract.document(value).serialized() + "\n").utf8))
    }
}
