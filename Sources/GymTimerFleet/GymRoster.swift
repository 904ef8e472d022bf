import GymTimerCore

/// The gym's roster as the coach's page shows it (the collector's answer to a `roster` ask,
/// `GymDeskAsk`): every athlete, and the cards seen lately that no athlete has. Its JSON is the
/// page's (`GET /api/roster`), byte for byte what the console sends on.
public struct GymRoster: Hashable, Sendable, Codable {
    /// One athlete of the roster.
    public struct Athlete: Hashable, Sendable, Codable {
        public var id: Int64
        public var name: String
        /// What the wall shows (4 characters a digit can draw).
        public var short: String
        /// Their cards' pseudonyms, as hex.
        public var cards: [String]
        /// How the signed-out world names them (`PublicName`); nil: not said, the initial.
        public var shown: PublicName?

        public init(id: Int64, name: String, short: String, cards: [String], shown: PublicName? = nil) {
            self.id = id
            self.name = name
            self.short = short
            self.cards = cards
            self.shown = shown
        }
    }

    /// A card seen (in a record, or on a station now) that the roster does not know.
    public struct NewCard: Hashable, Sendable, Codable {
        public var card: String
        /// Where it was seen last (a station's name).
        public var station: String?

        public init(card: String, station: String?) {
            self.card = card
            self.station = station
        }
    }

    public var athletes: [Athlete]
    public var newCards: [NewCard]

    public init(athletes: [Athlete], newCards: [NewCard] = []) {
        self.athletes = athletes
        self.newCards = newCards
    }
}
