import Foundation
import GymTimerCore

/// One athlete of the gym's roster: who they are, what the display shows for them, their cards.
public struct RosterAthlete: Hashable, Sendable, Codable {
    /// The roster's row id (stable across renames; a merge keeps the one merged into).
    public var id: Int64
    public var name: String
    /// What a station's display shows when they tap in (`RosterNames`).
    public var shortName: String
    /// When they were added (UTC).
    public var createdAt: Date
    /// Their cards, in UID order; their records are those of these cards.
    public var cards: [CardID]
    /// How the signed-out world names them (nil: not said, `PublicName.initial`).
    public var publicName: PublicName?

    public init(id: Int64, name: String, shortName: String, createdAt: Date, cards: [CardID], publicName: PublicName? = nil) {
        self.publicName = publicName
        self.id = id
        self.name = name
        self.shortName = shortName
        self.createdAt = createdAt
        self.cards = cards
    }

    /// Their name as the signed-out world sees it (`PublicName`).
    public var shownName: String { (publicName ?? .initial).shown(name: name, shortName: shortName) }

    /// Their records in a history query: every card of theirs.
    public var scope: HistoryScope { .athlete(cards) }

    enum CodingKeys: String, CodingKey {
        case id, name, cards
        case shortName = "short_name"
        case createdAt = "created_at"
    }
}
