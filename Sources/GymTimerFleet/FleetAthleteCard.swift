import Foundation
import GymTimerCore

/// What the gym tells its stations about one athlete's card, retained on
/// `{prefix}/all/athletes/{card}` (`FleetTopics.athleteCard`) by the collector, from its roster
/// and history: the short name the wall shows on a tap and the athlete's best result per program
/// and division, so a station can say `Pr` when one is beaten. An empty retained payload clears
/// it (a card the gym does not know, or an athlete forgotten). Stations hold no more of a member
/// than this: a UID, four characters, and scores.
/// `{"bests":[{"division":"rx","program":"Fran","score":"3:45, 1 round"}],"short":"AnnA"}`.
public struct FleetAthleteCard: Hashable, Sendable, Codable {
    /// One program's best result in one division.
    public typealias Best = ProgramBest

    /// The short name the display shows (nil: the card's last four hex digits).
    public var short: String?
    public var bests: [Best]

    /// The largest payload a station reads; bigger ones are ignored (and logged).
    public static let maximumBytes = 8 * 1024
    /// The most bests one card carries (a station keeps no more).
    public static let maximumBests = 64

    public init(short: String? = nil, bests: [Best] = []) {
        self.short = short
        self.bests = bests
    }

    /// The payload: JSON with sorted keys, so the same card is the same bytes (a retained
    /// message is republished only when it changed).
    public var payload: [UInt8] { Array(FleetJSONEncoder(sortedKeys: true, escapingSlashes: false).text(self).utf8) }

    /// The card in `payload`, or nil when it is not one (too large, not this JSON, too many
    /// bests, a program name over 64 bytes); empty: nil too (a cleared card).
    public static func parse(_ payload: [UInt8]) -> FleetAthleteCard? {
        guard !payload.isEmpty, payload.count <= maximumBytes,
              let card = try? JSONDecoder().decode(FleetAthleteCard.self, from: Data(payload)),
              card.bests.count <= maximumBests,
              card.bests.allSatisfy({ !$0.program.isEmpty && $0.program.utf8.count <= 64 && $0.score.utf8.count <= 64 }),
              (card.short?.utf8.count ?? 0) <= 16 else { return nil }
        return card
    }
}
