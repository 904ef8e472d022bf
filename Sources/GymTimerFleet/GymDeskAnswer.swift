import Foundation

/// The collector's answer to a `GymDeskAsk`, on `FleetTopics.gymAnswer(prefix:to:)`: every
/// ask is answered, done (with what was asked for, or the sentence an edit says) or refused
/// with why (a sentence for the coach's page).
public struct GymDeskAnswer: Hashable, Sendable, Codable {
    /// The ask's id.
    public var id: String
    /// Done, or refused (`said` says why).
    public var done: Bool
    /// What an edit did (`Card 04A1B2C3 is Anna Berg (AnnA on the wall)`), or why not.
    public var said: String?
    /// A `roster` or `athletes` ask's answer.
    public var roster: GymRoster?
    /// A `summary` ask's answer; nil when done: the roster has no such athlete.
    public var summary: GymAthleteSummary?

    public init(id: String, done: Bool, said: String? = nil, roster: GymRoster? = nil, summary: GymAthleteSummary? = nil) {
        self.id = id
        self.done = done
        self.said = said
        self.roster = roster
        self.summary = summary
    }

    /// The largest answer sent: a broker's `max_packet_size` (fleet.md: 64 KiB) and the
    /// console's own limit are above it.
    public static let maximumBytes = 60 * 1024

    /// The answer as JSON (sorted keys), written by the fleet's one encoder.
    public var payload: [UInt8] {
        Array(FleetJSONEncoder(sortedKeys: true, escapingSlashes: false).text(self).utf8)
    }

    /// `payload` read; nil when it is no answer (or over `maximumBytes`).
    public static func read(_ payload: [UInt8]) -> GymDeskAnswer? {
        guard payload.count <= maximumBytes else { return nil }
        return try? JSONDecoder().decode(GymDeskAnswer.self, from: Data(payload))
    }
}
