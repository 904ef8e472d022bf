/// What went wrong on the station's or the gym's end of the fleet, saying which file or broker
/// and what to do.
public enum FleetLinkError: Error, Hashable, Sendable, CustomStringConvertible {
    /// The outbox file cannot be opened or written.
    case outbox(path: String, detail: String)
    /// The collector's database cannot be opened or written.
    case collectorDatabase(path: String, detail: String)
    /// The broker cannot be reached, refused us, or did not take a message.
    case broker(broker: String, detail: String)
    /// A command named stations the broker has never seen (no retained `status`).
    case unknownStations([String], seen: [String])

    public var description: String {
        switch self {
        case .outbox(let path, let detail):
            return "fleet outbox \(path): \(detail) (records wait in memory; check the disk and the directory's permissions)"
        case .collectorDatabase(let path, let detail):
            return "collector database \(path): \(detail)"
        case .broker(let broker, let detail):
            return "broker \(broker): \(detail) (\(Self.hint(detail)))"
        case .unknownStations(let names, let seen):
            let known = seen.isEmpty ? "no station has been seen there" : "seen: " + seen.joined(separator: ", ")
            return "no station named \(names.joined(separator: ", ")) on the broker (\(known); `gymtimer fleet status` lists them)"
        }
    }

    /// What to check for a broker problem, from its own words.
    static func hint(_ detail: String) -> String {
        let text = detail.lowercased()
        if text.contains("not authori") || text.contains("user name or password") || text.contains("bad user") {
            return "check the user name and password file against the broker's password file and ACL"
        }
        if text.contains("connection refused") { return "is Mosquitto running there, on that port?" }
        if text.contains("certificate") || text.contains("tls") || text.contains("ssl") {
            return "check the CA file: the gym's CA that signed the broker's certificate"
        }
        if text.contains("did not take") { return "does the broker's ACL let this user publish there?" }
        return "is the broker running and reachable from here?"
    }
}
