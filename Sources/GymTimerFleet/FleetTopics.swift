import GymTimerCore

/// The topics of one station (fleet.md): `P = {prefix}/{station}` and the fleet-wide command
/// topic. Built once from the config, so no topic string is assembled anywhere else.
public struct FleetTopics: Hashable, Sendable {
    public let prefix: String
    public let station: String

    public init(prefix: String, station: String) {
        self.prefix = prefix
        self.station = station
    }

    private var base: String { "\(prefix)/\(station)" }
    /// Retained `online`; the broker publishes the will `offline` when the station vanishes.
    public var status: String { base + "/status" }
    /// Retained JSON of the station's state, on every change of state.
    public var state: String { base + "/state" }
    /// Retained `{"card":"…"}`, the pseudonym of the athlete on the station (cleared when nobody
    /// is): the coach's console shows who trains where. Apart from the state, which Home
    /// Assistant's account reads too.
    public var athlete: String { base + "/athlete" }
    /// Retained JSON of the station's health (`StationHealth`): at connection, on a device's
    /// fault or recovery, and at a slow heartbeat.
    public var health: String { base + "/health" }
    /// Presses, alarms, completions, faults, refused commands.
    public var event: String { base + "/event" }
    /// One history record per message, QoS 1, from the durable outbox.
    public var workout: String { base + "/workout" }
    /// The gym's collector says here which of this station's records its database holds
    /// (`FleetRecordAck`, QoS 1, not retained): only those leave the station's outbox.
    public var ack: String { base + "/ack" }
    /// The station's software version and upgrade (`StationUpdate`, retained): Home Assistant's
    /// update entity reads it as it is.
    public var update: String { base + "/update" }
    /// The station says a card is on it (`FleetCardAsk`): a tap, the class list, a waiting record.
    public var cardAsk: String { base + "/card-ask" }
    /// The collector's answer (`FleetCardAnswer`): what the gym knows of a card this station asked for.
    public var card: String { base + "/card" }
    /// Commands for this station alone.
    public var command: String { base + "/cmd" }
    /// The class this station is in (`FleetClassRecord`), retained by the coach's console: its
    /// instants, which a station that missed a pause or was restarted follows.
    public var classRecord: String { base + "/class" }
    /// Commands for every station.
    public var fleetCommand: String { "\(prefix)/all/cmd" }
    /// Both command topics: the only ones a station obeys.
    public var commandTopics: [String] { [command, fleetCommand] }

    /// Every station's status and state, for `fleet status` and the collector.
    public static func everyStation(prefix: String) -> (status: String, state: String, workout: String) {
        ("\(prefix)/+/status", "\(prefix)/+/state", "\(prefix)/+/workout")
    }

    /// Every station's athlete (`athlete`), for the coach's console.
    public static func everyStationAthlete(prefix: String) -> String { "\(prefix)/+/athlete" }

    /// Every station's health, for `fleet status`, the console and Home Assistant's readers.
    public static func everyStationHealth(prefix: String) -> String { "\(prefix)/+/health" }

    /// Every station's version and upgrade (`update`), for the console's health view.
    public static func everyStationUpdate(prefix: String) -> String { "\(prefix)/+/update" }

    /// The gym's collector's retained `online` (its will: `offline`), published once its
    /// subscription is granted: stations send it what their outboxes hold. Under the reserved
    /// `all`, so no station's topics can be it.
    public static func collector(prefix: String) -> String { "\(prefix)/all/collector" }

    /// Every station's card asks, for the collector.
    public static func everyCardAsk(prefix: String) -> String { "\(prefix)/+/card-ask" }

    /// Where collectors before card asks retained every athlete's card (`FleetAthleteCard`) for
    /// every station: a gym's collector now clears what its broker still holds there; a chain's
    /// centre keeps them as its ledger of forgets, read only by the central collectors.
    public static func athleteCard(prefix: String, card: CardID) -> String { "\(prefix)/all/athletes/\(card.hex)" }

    /// Every athlete card's topic (`athleteCard(prefix:card:)`).
    public static func everyAthleteCard(prefix: String) -> String { "\(prefix)/all/athletes/+" }

    /// The card named in a topic of the form `prefix/all/athletes/{card}`, if it is one.
    public static func athleteCard(in topic: String, prefix: String) -> CardID? {
        let levels = topic.split(separator: "/", omittingEmptySubsequences: false)
        guard levels.count == 4, levels[0] == prefix, levels[1] == "all", levels[2] == "athletes" else { return nil }
        // Only the canonical spelling (upper-case hex, no colons): one card, one topic.
        guard let card = CardID(hex: String(levels[3])), card.hex == levels[3] else { return nil }
        return card
    }

    /// The station named in a topic of the form `prefix/station/...`, if it is one.
    public static func station(in topic: String, prefix: String) -> String? {
        // A prefix of several levels (a chain gym's `C/{gym}` as the centre's console reads it) too.
        let levels = topic.split(separator: "/", omittingEmptySubsequences: false)
        let lead = prefix.split(separator: "/", omittingEmptySubsequences: false)
        guard levels.count == lead.count + 2, levels.starts(with: lead), levels[lead.count] != "all" else { return nil }
        return String(levels[lead.count])
    }
}
