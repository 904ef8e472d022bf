import Foundation
import GymTimerConfig
import GymTimerCore
import GymTimerFleet
import GymTimerMQTT

/// Every station the console has seen on the broker: its retained `status`, `state` and
/// `athlete` (the card on it), and the last error it answered a command with. Pure: the link thread feeds it messages, the
/// HTTP side asks it for tiles.
public struct ConsoleFloor: Sendable {
    public let prefix: String
    private(set) var status: [String: String] = [:]
    private(set) var state: [String: JSONValue] = [:]
    /// The stations heard live (a message not replayed from the broker's retained store).
    private(set) var live: Set<String> = []
    /// Each station's last refusal (its `error` event): when (its Unix time) and why.
    private(set) var refusals: [String: (t: Double, reason: String)] = [:]
    /// Each station's retained health (`P/S/health`), for the health view.
    public private(set) var health: [String: StationHealth] = [:]
    /// Each station's retained version and upgrade (`P/S/update`), for the health view.
    public private(set) var updates: [String: StationUpdate] = [:]
    /// The card (its pseudonym's hex) of the athlete on each station (`P/S/athlete`).
    private(set) var athletes: [String: String] = [:]
    /// How long a refusal stays on its tile.
    public static let refusalShown = 30.0
    /// The most stations one console keeps: topics from anyone who can publish cannot grow it further.
    public static let maximumStations = 256

    public init(prefix: String) { self.prefix = prefix }

    /// Takes in one message; says whether a tile changed. Topics that are no station's
    /// `status` or `state` (or name no valid station) are ignored.
    public mutating func apply(_ message: MQTTMessage) -> Bool {
        guard let station = FleetTopics.validStation(in: message.topic, prefix: prefix) else { return false }
        let known = status[station] != nil || state[station] != nil
        if !known, Set(status.keys).union(state.keys).count >= Self.maximumStations { return false }
        // A live message from a station: it is there now (an event answers the console's ping;
        // a state or status is a change as it happens).
        var madeLive = false
        if !message.retain, !message.payload.isEmpty, known || !message.topic.hasSuffix("/event") {
            madeLive = live.insert(station).inserted
        }
        if message.topic == FleetTopics(prefix: prefix, station: station).status {
            if message.payload.isEmpty { status[station] = nil } else { status[station] = String(message.text.prefix(16)) }
            return true
        }
        if message.topic == FleetTopics(prefix: prefix, station: station).event {
            // Only a station's refusals matter here (presses and phases show in its state); a
            // command it did since clears the last one: the tile shows what is wrong now.
            guard known, case .object(let fields)? = JSONValue.parse(message.payload) else { return madeLive }
            if ["command", "scheduled", "started"].contains(fields["event"]?.string ?? ""), refusals[station] != nil {
                refusals[station] = nil
                return true
            }
            guard fields["event"]?.string == "error", let t = fields["t"]?.number, t.isFinite else { return madeLive }
            refusals[station] = (t, fields["reason"]?.string ?? fields["kind"]?.string ?? "refused")
            return true
        }
        if message.topic == FleetTopics(prefix: prefix, station: station).health {
            guard health[station] != nil || health.count < Self.maximumStations else { return madeLive }
            health[station] = message.payload.isEmpty ? nil : StationHealth.parse(message.payload)
            return madeLive
        }
        if message.topic == FleetTopics(prefix: prefix, station: station).update {
            guard updates[station] != nil || updates.count < Self.maximumStations else { return madeLive }
            updates[station] = message.payload.isEmpty ? nil : StationUpdate.parse(message.payload)
            return madeLive
        }
        if message.topic == FleetTopics(prefix: prefix, station: station).athlete {
            guard athletes[station] != nil || athletes.count < Self.maximumStations else { return madeLive }
            athletes[station] = Self.card(in: message.payload)
            return true
        }
        if message.topic == FleetTopics(prefix: prefix, station: station).state {
            if message.payload.isEmpty { state[station] = nil } else { state[station] = JSONValue.parse(message.payload) }
            return true
        }
        return madeLive
    }

    /// Every station as a tile, by name.
    public func tiles(now: Double) -> [ConsoleTile] {
        Set(status.keys).union(state.keys).sorted().map {
            var tile = ConsoleTile.make(name: $0, status: status[$0], state: state[$0], now: now)
            tile.athlete = athletes[$0]
            tile.live = live.contains($0) && status[$0] == "online"
            if let refusal = refusals[$0], abs(now - refusal.t) <= Self.refusalShown {
                tile.refusal = FleetCell.text(refusal.reason, width: 120)
            }
            return tile
        }
    }

    /// The card in an `athlete` payload (`{"card":"…"}`), in its one spelling; nil for an empty
    /// one (nobody on the station) or anything else.
    static func card(in payload: [UInt8]) -> String? {
        guard payload.count <= 128, case .object(let fields)? = JSONValue.parse(payload) else { return nil }
        return fields["card"]?.string.flatMap(CardID.init(hex:))?.hex
    }

    /// Every station seen.
    public var names: Set<String> { Set(status.keys).union(state.keys) }

    /// The stations seen online.
    public var online: [String] { status.filter { $0.value == "online" }.keys.sorted() }
}
