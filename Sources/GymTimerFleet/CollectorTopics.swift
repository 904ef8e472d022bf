/// Where a collector takes records from and answers them (fleet.md, chain.md). One gym's
/// collector: `P/{station}/workout`, acknowledged on `P/{station}/ack`, announced on
/// `P/all/collector`. A chain's central collector: every gym's stations under `C/{gym}/…` (each
/// gym's broker bridges its own prefix there), the records shared among the central collectors
/// of one group (`$share/{group}/…`: each record goes to one of them), acknowledged on
/// `C/{gym}/{station}/ack` (bridged back to the gym), announced on `C/all/collector` (bridged
/// to every gym's `P/all/collector`).
public struct CollectorTopics: Hashable, Sendable {
    /// `P` for one gym, `C` for a chain.
    public let prefix: String
    /// True for a chain's centre: the level after the prefix names the gym.
    public let isChain: Bool
    /// The shared subscription's group, if the records are shared among collectors.
    public let sharedGroup: String?

    /// One gym's collector under `prefix`.
    public static func gym(prefix: String) -> CollectorTopics {
        CollectorTopics(prefix: prefix, isChain: false, sharedGroup: nil)
    }

    /// A chain's central collector: every gym under `prefix/{gym}`; with `sharedGroup`, the
    /// records shared with the other collectors of that group.
    public static func chain(prefix: String, sharedGroup: String?) -> CollectorTopics {
        CollectorTopics(prefix: prefix, isChain: true, sharedGroup: sharedGroup)
    }

    /// The records' subscription.
    public var records: String {
        let filter = isChain ? "\(prefix)/+/+/workout" : FleetTopics.everyStation(prefix: prefix).workout
        return sharedGroup.map { "$share/\($0)/\(filter)" } ?? filter
    }

    /// The collector's retained `online` (its will: `offline`).
    public var status: String { FleetTopics.collector(prefix: prefix) }

    /// The gym (nil for one gym's collector) and the station a record's topic names, when both
    /// are names a station or gym may have (`FleetStationName`); nil otherwise.
    public func origin(of topic: String) -> (gym: String?, station: String)? {
        guard isChain else { return FleetTopics.validStation(in: topic, prefix: prefix).map { (nil, $0) } }
        let levels = topic.split(separator: "/", omittingEmptySubsequences: false)
        guard levels.count == 4, levels[0] == prefix, levels[3] == "workout" else { return nil }
        let gym = String(levels[1]), station = String(levels[2])
        guard gym != "all", station != "all", FleetStationName.isValid(gym), FleetStationName.isValid(station) else { return nil }
        return (gym, station)
    }

    /// Where the acknowledgements for `station` (of `gym`, in a chain) go.
    public func ack(gym: String?, station: String) -> String {
        FleetTopics(prefix: gym.map { "\(prefix)/\($0)" } ?? prefix, station: station).ack
    }

    // MARK: The desk (fleet.md, "The console asks the collector"; chain.md, "The chain's desk")

    /// The desk's asks: `P/all/gym/ask`; at a chain's centre every gym's `C/{gym}/all/gym/ask`
    /// (each gym's bridge carries its console's there), shared among the collectors of the group.
    public var deskAsks: String {
        guard isChain else { return FleetTopics.gymAsk(prefix: prefix) }
        let filter = FleetTopics.gymAsk(prefix: "\(prefix)/+")
        return sharedGroup.map { "$share/\($0)/\(filter)" } ?? filter
    }

    /// The gym an ask's topic is of: `.some(nil)` for one gym's own, `.some(gym)` at a chain's
    /// centre (a gym's valid name, never `all`), nil for a topic that is no ask.
    public func deskGym(ofAsk topic: String) -> String?? {
        guard isChain else { return topic == FleetTopics.gymAsk(prefix: prefix) ? .some(nil) : nil }
        let levels = topic.split(separator: "/", omittingEmptySubsequences: false)
        guard levels.count == 5, levels[0] == prefix, levels[2...] == ["all", "gym", "ask"] else { return nil }
        let gym = String(levels[1])
        guard gym != FleetStationName.every, FleetStationName.isValid(gym) else { return nil }
        return .some(gym)
    }

    /// The prefix `gym`'s desk topics are under: `P`, or `C/{gym}`.
    private func deskPrefix(gym: String?) -> String { gym.map { "\(prefix)/\($0)" } ?? prefix }

    /// Where the answer to `gym`'s console `reply` goes (the bridge carries it back to the gym).
    public func deskAnswer(gym: String?, reply: String) -> String { FleetTopics.gymAnswer(prefix: deskPrefix(gym: gym), to: reply) }

    /// Where `gym`'s today's scores are retained (the bridge carries them to the gym's `P/all/gym/scores`).
    public func deskScores(gym: String?) -> String { FleetTopics.gymScores(prefix: deskPrefix(gym: gym)) }

    /// The chain's leaderboard (every gym's scores, each entry naming its gym), retained on
    /// `C/all/gym/scores`; nil for one gym.
    public var leaderboard: String? { isChain ? FleetTopics.gymScores(prefix: prefix) : nil }
}
