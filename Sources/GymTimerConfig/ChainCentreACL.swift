import GymTimerFleet

/// The central broker's ACL file (Mosquitto's `acl_file`, chain.md): each gym's account, named
/// as the gym, publishes only under `C/{gym}/` and reads that and the chain's collector status and
/// athlete cards; the collectors' account takes the records (shared or not), acknowledges them
/// under any gym, answers each gym's console (its desk's asks, answers and scores) and writes
/// the chain-wide topics `C/all/…`; the chain's console's account (`gymtimer console --chain`)
/// reads every gym's stations' statuses, states and events and the chain's leaderboard, and
/// writes nothing. Nobody else may read or write.
public struct ChainCentreACL: Sendable {
    public let gyms: [String]
    public let collectors: String
    public let chain: String
    public let sharedGroup: String
    /// The chain's console's account (read-only).
    public let console: String

    /// Checks every name; the error says which one and what to give instead.
    public init(
        gyms: [String], collectors: String = "collector", chain: String = "gyms", sharedGroup: String = "central", console: String = "console"
    ) throws(ChainBridgeError) {
        guard !gyms.isEmpty else { throw ChainBridgeError("--gyms: name at least one gym (e.g. --gyms gym-a,gym-b)") }
        for gym in gyms {
            if let problem = FleetStationName.problem(gym) { throw ChainBridgeError("gym name \"\(ChainBridge.shown(gym))\" \(problem)") }
        }
        guard Set(gyms).count == gyms.count else { throw ChainBridgeError("--gyms names a gym twice: each gym once") }
        guard ChainBridge.isName(collectors), !gyms.contains(collectors) else {
            throw ChainBridgeError("--collectors \"\(ChainBridge.shown(collectors))\": 1 to 64 of A-Z, a-z, 0-9, . _ @ -, and no gym's name")
        }
        guard ChainBridge.isName(console), !gyms.contains(console), console != collectors else {
            throw ChainBridgeError("the console's account \"\(ChainBridge.shown(console))\": 1 to 64 of A-Z, a-z, 0-9, . _ @ -, and no gym's or the collectors' name")
        }
        for (flag, value) in [("chain", chain), ("shared", sharedGroup)] where !ChainBridge.isName(value) || value.contains("@") {
            throw ChainBridgeError("--\(flag) \"\(ChainBridge.shown(value))\": one topic level of 1 to 64 of A-Z, a-z, 0-9, . _ -")
        }
        (self.gyms, self.collectors, self.chain, self.sharedGroup, self.console) = (gyms, collectors, chain, sharedGroup, console)
    }

    /// The lines of one gym's account.
    public func lines(gym: String) -> [String] {
        let every = FleetStationName.every
        return [
            "user \(gym)", "topic readwrite \(chain)/\(gym)/#", "topic read \(chain)/\(every)/collector",
        ]
    }

    /// The collectors' lines: the records as a plain and as a shared subscription (Mosquitto
    /// versions differ in which of the two they check), the acks, the forgets to every gym's
    /// stations (their commands, statuses and events), the chain-wide topics.
    public var collectorLines: [String] {
        let records = "\(chain)/+/+/workout"
        let asks = "\(chain)/+/\(FleetStationName.every)/gym/ask"
        return [
            "user \(collectors)", "topic read \(records)", "topic read $share/\(sharedGroup)/\(records)", "topic write \(chain)/+/+/ack",
            // The chain's forgets: to every station of every gym, their answers and statuses.
            "topic write \(chain)/+/+/cmd", "topic read \(chain)/+/+/status", "topic read \(chain)/+/+/event",
            // The stations' card asks (never shared: every collector keeps every ask), answered.
            "topic read \(chain)/+/+/card-ask", "topic write \(chain)/+/+/card",
            // The desk: every gym's console's asks, answered, and each gym's scores.
            "topic read \(asks)", "topic read $share/\(sharedGroup)/\(asks)", "topic write \(chain)/+/\(FleetStationName.every)/gym/answer/+",
            "topic write \(chain)/+/\(FleetStationName.every)/gym/scores", "topic readwrite \(chain)/\(FleetStationName.every)/#",
        ]
    }

    /// The chain's console's lines: every gym's floor and the leaderboard, read only.
    public var consoleLines: [String] {
        ["user \(console)"] + ["status", "state", "event"].map { "topic read \(chain)/+/+/\($0)" }
            + ["topic read \(chain)/\(FleetStationName.every)/gym/scores"]
    }

    /// The whole file, ending in a newline.
    public var text: String {
        let header = [
            "# GymTimer: the chain's central broker ACL (docs/chain.md), written by `gymtimer chain centre`.",
            "# mosquitto.conf: acl_file pointing here, password_file with an account per gym, one for the collectors and one for the chain's console.",
        ]
        let blocks = [header] + gyms.map { lines(gym: $0) } + [collectorLines, consoleLines]
        return blocks.map { $0.joined(separator: "\n") }.joined(separator: "\n\n") + "\n"
    }
}
