import Foundation
import GymTimerCore

/// A station's word that a card is on it (fleet.md, "Athletes"), on its own `P/{station}/card-ask`
/// (`FleetTopics.cardAsk`): a tap, the class list, or a waiting record of that card about to go
/// again. The collector answers on `P/{station}/card` (`FleetCardAnswer`) and keeps the ask as
/// the evidence that the card was on that station at `at`: a record of a card its station never
/// asked for is stored as a guest's. `{"at":1767225600,"card":"512CAE2F467914AB1D1E147C"}`.
public struct FleetCardAsk: Hashable, Sendable {
    /// The card's pseudonym (never a UID: a station asks only for what it hashed).
    public var card: CardID
    /// When the card came onto the station, or when the record it vouches for started (Unix seconds).
    public var at: Int64

    /// The largest payload the collector reads.
    public static let maximumBytes = 128

    public init(card: CardID, at: Int64) {
        self.card = card
        self.at = at
    }

    public var payload: [UInt8] { Array(#"{"at":\#(at),"card":"\#(card.hex)"}"#.utf8) }

    /// The ask in `payload`, or nil when it is not one: too large, not this JSON, a card that is
    /// no pseudonym, an `at` that is not a whole number of seconds.
    public static func parse(_ payload: [UInt8]) -> FleetCardAsk? {
        guard payload.count <= maximumBytes, case .object(let fields)? = JSONValue.parse(payload),
              let text = fields["card"]?.string, let card = CardID(hex: text), card.isPseudonym, card.hex == text,
              case .number(let at)? = fields["at"], at == at.rounded(), abs(at) < 1e11 else { return nil }
        return FleetCardAsk(card: card, at: Int64(at))
    }
}
