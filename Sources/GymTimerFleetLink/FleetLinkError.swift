/// What went wrong on the station's or the gym's end of the fleet, saying which file or broker
/// and what to do.
public enum FleetLinkError: Error, Hashable, Sendable, CustomStringConvertible {
    /// The outbox file cannot be opened or written.
    case outbox(path: String, detail: String)
    /// The password file cannot be read.
    case passwordFile(path: String, detail: String)
    /// The collector's database cannot be opened or written.
    case collectorDatabase(path: String, detail: String)
    /// The broker cannot be reached, refused us, or did not take a message.
    case broker(broker: String, detail: String)

    public var description: String {
        switch self {
        case .outbox(let path, let detail):
            return "fleet outbox \(path): \(detail) (records wait in memory; check the disk and the directory's permissions)"
        case .passwordFile(let path, let detail):
            return "MQTT password file \(path): \(detail) (it holds the password on its first line, readable by the gymtimer user)"
        case .collectorDatabase(let path, let detail):
            return "collector database \(path): \(detail)"
        case .broker(let broker, let detail):
            return "broker \(broker): \(detail) (is it running and reachable? are the user name and password file right?)"
        }
    }
}
