import Foundation
import GymTimerCore

/// The collector's answer to a station's `FleetCardAsk`, on that station's own `P/{station}/card`
/// (`FleetTopics.card`), never retained and never on a topic another station reads: the
/// athlete's card as the gym knows it (`FleetAthleteCard`: the short name and the bests), or
/// `null` for a card the gym does not know (or forgot). Sent again, to the stations that asked,
/// when the roster or the bests change.
/// `{"athlete":{"bests":[],"short":"AnnA"},"card":"512CAE2F467914AB1D1E147C"}`.
public struct FleetCardAnswer: Hashable, Sendable {
    public var card: CardID
    /// The athlete's card; nil: the gym knows no athlete of this card.
    public var athlete: FleetAthleteCard?

    /// The largest payload a station reads: a card and its JSON around it.
    public static let maximumBytes = FleetAthleteCard.maximumBytes + 128

    public init(card: CardID, athlete: FleetAthleteCard?) {
        self.card = card
        self.athlete = athlete
    }

    /// The payload, the same bytes for the same answer (the card's JSON has sorted keys).
    public var payload: [UInt8] {
        let athlete = self.athlete.map { String(decoding: $0.payload, as: UTF8.self) } ?? "null"
        return Array(#"{"athlete":\#(athlete),"card":"\#(card.hex)"}"#.utf8)
    }

    /// The answer in `payload`, or nil when it is not one (too large, not this JSON, a card that
    /// is no pseudonym, an athlete that is no `FleetAthleteCard`).
    public static func parse(_ payload: [UInt8]) -> FleetCardAnswer? {
        guard payload.count <= maximumBytes, let wire = try? JSONDecoder().decode(Wire.self, from: Data(payload)),
              let card = CardID(hex: wire.card), card.isPseudonym, card.hex == wire.card else { return nil }
        guard let athlete = wire.athlete else { return FleetCardAnswer(card: card, athlete: nil) }
        // Its limits (bests, names' lengths) are the athlete card's own.
        guard let checked = FleetAthleteCard.parse(athlete.payload) else { return nil }
        return FleetCardAnswer(card: card, athlete: checked)
    }

    private struct Wire: Decodable {
        var card: String
        var athlete: FleetAthleteCard?
    }
}
