/// The failure of a long-running process's own machinery.
public enum DaemonError: Error, Sendable, Equatable, CustomStringConvertible {
    /// The admin listener could not listen: the address is invalid, in use, or not this machine's.
    case cannotListen(String)

    /// The sentence for the log.
    public var description: String {
        switch self {
        case .cannotListen(let message): message
        }
    }
}
