/// Why the kiosk (or its self-test) could not start or stopped: each one line saying what
/// failed and what to do. The CLI prints it and exits 2 for `refused`, 1 for `failed`.
public enum KioskStartError: Error, Hashable, CustomStringConvertible {
    /// Something the owner must fix: a device that cannot be opened, a data directory in use.
    case refused(String)
    /// Anything else that stopped it: the event loop or the signal set-up failing.
    case failed(String)

    public var description: String {
        switch self {
        case .refused(let message), .failed(let message): return message
        }
    }
}
