import CreativeCore

/// Every way a request fails, each with its HTTP status and the stable `code` of the JSON error body
/// `{"error":{"code":"...","message":"..."}}`.
public enum ServiceError: Error, Equatable, Sendable {
    /// 400 `bad_request`: a malformed, unknown, repeated or out-of-range query parameter or JSON body.
    case badRequest(String)
    /// 400 `invalid_path`: the request path holds a NUL, raw or as `%00` (C code would end the
    /// path there: `/v1/slot%00/evil` must not be served as `/v1/slot`).
    case invalidPath
    /// 400 `too_many_parameters`: the query has more than `limit` parameters (the routes take at
    /// most nine); answered before libmicrohttpd stores any of them.
    case tooManyParameters(limit: Int)
    /// 400 `canvas_too_large`: the render's canvas is over what its output format can hold
    /// (``FormatChoice/canvasRefusal(_:)``: WebP 16383 pixels a side, JPEG 65535); checked when
    /// the query is read, before any work.
    case canvasTooLarge(String)
    /// 401 `unauthorized`: a token is configured and the request has no matching `Authorization: Bearer`.
    case unauthorized
    /// 403 `host_not_allowed`: the service runs without a token and the `Host` header names none
    /// of the names it answers (loopback names and `--allowed-host`): the defence against DNS
    /// rebinding, by which a web page would reach a loopback service under its own host name.
    case hostNotAllowed(String)
    /// 404 `not_found`: no route has this path.
    case notFound(String)
    /// 405 `method_not_allowed`: the path exists, not with this method; `allowed` goes into `Allow`.
    case methodNotAllowed(allowed: [String])
    /// 413 `payload_too_large`: the body is over the route's limit (`--max-body-bytes` for image
    /// uploads, `--max-json-body-bytes` for the rest), decided from Content-Length before reading,
    /// or as soon as a chunked body passes it.
    case payloadTooLarge(limit: Int)
    /// 414 `uri_too_long`: the request target (path and query) is over `limit` bytes.
    case uriTooLong(limit: Int)
    /// 431 `header_fields_too_large`: the header section is over `limit` bytes.
    case headerFieldsTooLarge(limit: Int)
    /// 503 `busy`: the memory budget (`--memory-budget`: buffered bodies and the decode memory of
    /// running jobs) stayed full for `--budget-wait` seconds; retry after `Retry-After` seconds.
    case memoryBusy(retryAfter: Int)
    /// 422 with the code of the failure (`no_eligible_creative`, a validation code such as
    /// `corrupt_image`, or `timeout` for a job past `--job-timeout`); `report` is the validation report of a rejected upload, when there is one.
    case unprocessable(code: String, message: String, report: JSONValue?)
    /// 422 `answer_too_large`: the files of a `/v1/process` answer total `bytes`, over the
    /// `limit` inlined in one JSON answer (`--max-inline-bytes`); ask for the listing
    /// (`inline=false`) and fetch each file (`file=NAME`).
    case answerTooLarge(bytes: Int, limit: Int)
    /// 503 `busy`: every job slot and queue place is taken; retry after `Retry-After` seconds.
    case busy(retryAfter: Int)
    /// 408 `slow_body`: a window of `seconds` of the body brought less than `rate` bytes a second
    /// (`--min-body-rate`): a stalled upload, or a chunk announced and never sent. Written by the
    /// connection watch just before it cuts the connection.
    case slowBody(rate: Int, seconds: Double)
    /// 503 `shutting_down` or `not_ready`: the service is draining (a job still running at the
    /// drain limit is stopped with `shutting_down`) or cannot take work; `cancelled` for a job whose
    /// client went away (an answer nobody reads).
    case unavailable(code: String, message: String)
    /// 500 `internal_error`: an unexpected failure (the image library failed on valid input).
    case internalError(String)

    /// The HTTP status.
    public var status: Int {
        switch self {
        case .badRequest, .invalidPath, .tooManyParameters, .canvasTooLarge: 400
        case .unauthorized: 401
        case .hostNotAllowed: 403
        case .notFound: 404
        case .methodNotAllowed: 405
        case .slowBody: 408
        case .payloadTooLarge: 413
        case .uriTooLong: 414
        case .headerFieldsTooLarge: 431
        case .unprocessable, .answerTooLarge: 422
        case .busy, .memoryBusy, .unavailable: 503
        case .internalError: 500
        }
    }

    /// The stable error code.
    public var code: String {
        switch self {
        case .badRequest: "bad_request"
        case .invalidPath: "invalid_path"
        case .tooManyParameters: "too_many_parameters"
        case .canvasTooLarge: "canvas_too_large"
        case .unauthorized: "unauthorized"
        case .hostNotAllowed: "host_not_allowed"
        case .notFound: "not_found"
        case .methodNotAllowed: "method_not_allowed"
        case .payloadTooLarge: "payload_too_large"
        case .uriTooLong: "uri_too_long"
        case .headerFieldsTooLarge: "header_fields_too_large"
        case .memoryBusy: "busy"
        case .unprocessable(let code, _, _): code
        case .answerTooLarge: "answer_too_large"
        case .busy: "busy"
        case .slowBody: "slow_body"
        case .unavailable(let code, _): code
        case .internalError: "internal_error"
        }
    }

    /// A sentence for people.
    public var message: String {
        switch self {
        case .badRequest(let text): text
        case .invalidPath: "the request path holds a NUL character (raw or %00)"
        case .tooManyParameters(let limit): "the query has more than \(limit) parameters"
        case .canvasTooLarge(let text): text
        case .unauthorized: "this route needs 'Authorization: Bearer <token>'"
        case .hostNotAllowed(let host):
            "Host '\(host)' is not a name this service answers without a token: use localhost, 127.0.0.1 or [::1], "
                + "or start it with --allowed-host NAME"
        case .notFound(let path): "no route for \(path)"
        case .methodNotAllowed(let allowed): "use \(allowed.joined(separator: " or ")) on this route"
        case .payloadTooLarge(let limit): "the body is over this route's limit of \(limit) bytes"
        case .uriTooLong(let limit): "the request target is over \(limit) bytes"
        case .headerFieldsTooLarge(let limit): "the request's headers are over \(limit) bytes"
        case .memoryBusy: "the memory budget is taken; retry later"
        case .unprocessable(_, let message, _): message
        case .answerTooLarge(let bytes, let limit):
            "the files total \(bytes) bytes, over the \(limit) bytes answered inline: ask with inline=false for the "
                + "list, then for each file with file=NAME"
        case .busy: "every job slot is taken; retry later"
        case .slowBody(let rate, let seconds):
            "the body brought less than \(rate) bytes a second over \(TextFormat.decimal(seconds, decimals: 1)) s "
                + "(a stalled upload, or a chunk announced and not sent); the connection is closed"
        case .unavailable(_, let message): message
        case .internalError(let text): text
        }
    }

    /// The response: JSON error body, plus `Allow`, `Retry-After` or `WWW-Authenticate` where they apply.
    var response: Response {
        var fields: [(String, JSONValue)] = [
            ("error", .object([("code", .string(code)), ("message", .string(message))])),
        ]
        var rejected = false
        if case .unprocessable(_, _, let report?) = self {
            fields.append(("report", report))
            rejected = true
        }
        var response = Response.json(.object(fields), status: status)
        response.errorCode = code
        if rejected { response.rejectionCodes = [code] }
        switch self {
        case .methodNotAllowed(let allowed): response.headers.append(("Allow", allowed.joined(separator: ", ")))
        case .busy(let seconds), .memoryBusy(let seconds): response.headers.append(("Retry-After", String(seconds)))
        case .unavailable: response.headers.append(("Retry-After", "1"))
        case .unauthorized: response.headers.append(("WWW-Authenticate", "Bearer"))
        default: break
        }
        return response
    }
}
