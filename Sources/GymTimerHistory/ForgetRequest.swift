import Foundation
import GRDB
import GymTimerCore

/// What a forget still owes the stations (`forget_requests`, schema v8): the card of an athlete
/// the gym forgot, kept only until every station the collector knows has answered its `forget`
/// command (`answered`) or `patience` has passed; then the collector deletes it
/// (`HistoryStore.completeForget`) and the file is VACUUMed, so the UID's last trace goes with it.
public struct ForgetRequest: Hashable, Sendable {
    public var id: Int64
    public var card: CardID
    public var requestedAt: Date
    /// The stations that answered (done) so far.
    public var answered: Set<String>

    public init(id: Int64, card: CardID, requestedAt: Date, answered: Set<String> = []) {
        self.id = id
        self.card = card
        self.requestedAt = requestedAt
        self.answered = answered
    }

    /// How long a request waits for a station that never answers (one unplugged for good, one
    /// whose retained status nobody cleared): thirty days, then it is completed without it and
    /// the collector logs which stations never answered (docs/history.md, "The roster").
    public static let patience: TimeInterval = 30 * 86_400

    /// The id the `forget` command for this request carries (the answers name it; no UID in it).
    public var commandID: String { "forget-\(id)" }

    /// The request `commandID` names, if it is one.
    public static func id(ofCommand text: String) -> Int64? {
        guard text.hasPrefix("forget-") else { return nil }
        return Int64(text.dropFirst("forget-".count))
    }

    /// Records a request for `card` (one waiting for it is replaced: its answers start over).
    static func insert(card: CardID, at date: Date, _ db: Database) throws {
        try db.execute(
            sql: "INSERT OR REPLACE INTO forget_requests (card, requested_at) VALUES (?, ?)", arguments: [card.hex, date])
    }
}
