import CreativeCore
import CreativeOperations

/// What the worker hands the job: the source's bytes, or (over the size limit) its size and
/// head, as the bounded GET found them.
public typealias JobInput = S3Download

extension CreativeInput {
    /// A source as the bounded GET found it, as an operation takes it.
    init(_ download: S3Download) {
        switch download {
        case .bytes(let bytes): self = .bytes(bytes)
        case .tooLarge(let size, let head): self = .tooLarge(size: size, head: head)
        }
    }
}

/// One file a job wrote, as the store gets it: its name in the job's folder, its bytes, their
/// SHA-256 when the job already computed it (nil: the store computes it), and its media type.
public struct JobOutputFile: Sendable {
    public let name: String
    public let bytes: [UInt8]
    public let sha256: String?
    public let contentType: String

    public init(name: String, bytes: [UInt8], sha256: String?, contentType: String) {
        (self.name, self.bytes, self.sha256, self.contentType) = (name, bytes, sha256, contentType)
    }
}

/// What a finished job wrote: whether the creative is valid, its error codes, and its files with
/// the manifest last (the worker uploads them in this order, so the manifest is the commit point).
public struct JobOutput: Sendable {
    public let valid: Bool
    public let codes: [String]
    public let files: [JobOutputFile]

    public init(valid: Bool, codes: [String], files: [JobOutputFile]) {
        self.valid = valid
        self.codes = codes
        self.files = files
    }
}

/// The settings one job runs with, already checked.
public struct JobSettings: Sendable, Equatable {
    /// The product as given (or its default).
    public let product: Product
    /// How the renders are written: the entry's `format`, `formats`, `weight_budget` and `profile`s,
    /// and `with` (the campaign's other sizes, each a size of the product).
    public let process: ProcessSettings
    /// The largest source read whole.
    public let maxBytes: Int
    /// A short fixed-width version of these settings and the tool (and its libvips): the second
    /// part of the result's key, so a new tool or other settings never reuse an old answer.
    public let version: String

    public init(product: Product, process: ProcessSettings, maxBytes: Int, version: String) {
        self.product = product
        self.process = process
        self.maxBytes = maxBytes
        self.version = version
    }
}

/// A job that ran and failed (not a rejected creative): its stable code and message.
public struct JobFailure: Error, Sendable, Equatable {
    public let code: String
    public let message: String

    public init(code: String, message: String) {
        self.code = code
        self.message = message
    }
}
