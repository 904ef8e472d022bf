/// Why the network rule could not be made, and what to do.
public enum UnitNetworkError: Error, Hashable, Sendable, CustomStringConvertible {
    case unresolvable(host: String, reason: String)

    public var description: String {
        switch self {
        case .unresolvable(let host, let reason):
            "the [fleet] broker host \(host) does not resolve (\(reason)): the service could not reach it; "
                + "fix the name (or use the broker's address), then: sudo systemctl restart gymtimer-config.service"
        }
    }
}
