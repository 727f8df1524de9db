/// A `multipart/form-data` body (RFC 7578) already in memory, split into its parts: each part's
/// field name, file name and bytes. Only what a form of file uploads needs: the part headers
/// `Content-Disposition` (its `name` and `filename`) and `Content-Type` are read, others ignored.
struct MultipartForm {
    /// One part of the form.
    struct Part {
        let name: String
        let fileName: String?
        let bytes: [UInt8]
    }

    let parts: [Part]

    /// Largest number of parts read.
    static let maxParts = 64
    /// Largest size of one part's headers.
    static let maxHeaderBytes = 8 * 1024

    /// The boundary of a `multipart/form-data` content type, nil for another type.
    static func boundary(_ contentType: String?) -> String? {
        guard let contentType else { return nil }
        let fields = contentType.split(separator: ";").map { String($0.drop { $0 == " " }) }
        guard fields.first?.lowercased() == "multipart/form-data" else { return nil }
        for field in fields.dropFirst() where field.lowercased().hasPrefix("boundary=") {
            var value = String(field.dropFirst("boundary=".count))
            while value.last == " " { value.removeLast() }
            if value.count >= 2, value.first == "\"", value.last == "\"" { value = String(value.dropFirst().dropLast()) }
            guard (1...70).contains(value.count) else { return nil }
            return value
        }
        return nil
    }

    /// Splits `body` on `--boundary` lines.
    /// - Throws: ``ServiceError/badRequest(_:)`` for a body that is not such a form, a part without
    ///   a `Content-Disposition: form-data` header, or more than ``maxParts`` parts.
    init(_ body: [UInt8], boundary: String) throws(ServiceError) {
        let delimiter = Array("--\(boundary)".utf8)
        let separator = [UInt8(ascii: "\r"), UInt8(ascii: "\n")] + delimiter
        guard var cursor = Self.find(delimiter, in: body, from: 0) else {
            throw .badRequest("the multipart body has no boundary line --\(boundary)")
        }
        var parts: [Part] = []
        while true {
            cursor += delimiter.count
            // `--` after the delimiter ends the body.
            if body.count >= cursor + 2, body[cursor] == UInt8(ascii: "-"), body[cursor + 1] == UInt8(ascii: "-") { break }
            guard let lineEnd = Self.find([13, 10], in: body, from: cursor) else {
                throw .badRequest("the multipart body ends without its closing boundary")
            }
            let headersStart = lineEnd + 2
            guard let headersEnd = Self.find([13, 10, 13, 10], in: body, from: headersStart),
                  headersEnd - headersStart <= Self.maxHeaderBytes else {
                throw .badRequest("a part of the multipart body has no end to its headers (or headers over 8 KiB)")
            }
            guard let next = Self.find(separator, in: body, from: headersEnd + 4) else {
                throw .badRequest("the multipart body ends without its closing boundary")
            }
            let headers = String(decoding: body[headersStart..<headersEnd], as: UTF8.self)
            parts.append(try Self.part(headers: headers, bytes: Array(body[(headersEnd + 4)..<next])))
            guard parts.count <= Self.maxParts else { throw .badRequest("over \(Self.maxParts) parts in the form") }
            cursor = next + 2
        }
        self.parts = parts
    }

    private static func part(headers: String, bytes: [UInt8]) throws(ServiceError) -> Part {
        for line in headers.split(separator: "\r\n") {
            let pair = line.split(separator: ":", maxSplits: 1)
            guard pair.count == 2, pair[0].lowercased() == "content-disposition" else { continue }
            let fields = pair[1].split(separator: ";").map { String($0.drop { $0 == " " }) }
            guard fields.first?.lowercased() == "form-data" else { break }
            var name: String?, fileName: String?
            for field in fields.dropFirst() {
                let keyValue = field.split(separator: "=", maxSplits: 1).map(String.init)
                guard keyValue.count == 2 else { continue }
                var value = keyValue[1]
                if value.count >= 2, value.first == "\"", value.last == "\"" { value = String(value.dropFirst().dropLast()) }
                switch keyValue[0].lowercased() {
                case "name": name = value
                case "filename": fileName = value
                default: break
                }
            }
            guard let name else { break }
            return Part(name: name, fileName: fileName, bytes: bytes)
        }
        throw .badRequest("a part of the multipart body has no Content-Disposition: form-data; name=...")
    }

    /// The first index at or after `from` where `needle` starts in `haystack`.
    private static func find(_ needle: [UInt8], in haystack: [UInt8], from: Int) -> Int? {
        guard !needle.isEmpty, haystack.count >= needle.count else { return nil }
        var index = from
        let last = haystack.count - needle.count
        let first = needle[0]
        while index <= last {
            if haystack[index] == first, haystack[index..<index + needle.count].elementsEqual(needle) { return index }
            index += 1
        }
        return nil
    }
}
