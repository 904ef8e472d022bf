import Foundation
import GymTimerFleet

/// The pages' `scores` event from the collector's retained scores (`GymScores` on
/// `FleetTopics.gymScores`): checked (a payload that is not scores, or whose week's table does
/// not fit its days and stations, is shown as a problem, never drawn), with the chart drawn
/// here from the week (`ConsoleChart`; never taken from the wire), and only when they are of
/// today: after midnight, yesterday's are not shown as today's. Pure.
public enum ConsoleScoresEvent {
    /// What the page shows before the collector's scores came.
    public static let waiting = problem("waiting for the collector's scores: is `gymtimer collect` running on the gym's server?")

    /// The event's JSON for `payload` (nil: none came yet) on `today` (`2026-11-24`), for
    /// `audience` (a guest's names each athlete by their display name only: `ConsoleAudience`).
    public static func json(_ payload: [UInt8]?, today: String, for audience: ConsoleAudience = .coach) -> String {
        guard let payload else { return waiting }
        guard payload.count <= GymDeskAnswer.maximumBytes, var scores = try? JSONDecoder().decode(GymScores.self, from: Data(payload)),
              scores.isWellFormed else {
            return problem("the collector's scores cannot be read")
        }
        guard scores.day == today else {
            return problem("the collector's latest scores are of \(scores.day): is `gymtimer collect` running on the gym's server?")
        }
        scores.chart = ConsoleChart.svg(scores.week)
        if audience == .guest {
            for index in scores.boards.indices { scores.boards[index].entries = scores.boards[index].entries.map(ConsoleAudience.guestEntry) }
        }
        return encoded(scores)
    }

    /// The local day of `unix` seconds as the collector writes it (`2026-11-24`).
    public static func day(_ unix: Double, in timeZone: TimeZone = .current) -> String {
        var calendar = Calendar(identifier: .gregorian)
        calendar.timeZone = timeZone
        let parts = calendar.dateComponents([.year, .month, .day], from: Date(timeIntervalSince1970: unix))
        let year = parts.year ?? 0, month = parts.month ?? 0, day = parts.day ?? 0
        return String(format: "%04d-%02d-%02d", year, month, day)
    }

    /// What the page shows in place of scores.
    struct Problem: Codable { var problem: String }

    static func problem(_ text: String) -> String { encoded(Problem(problem: text)) }

    static func encoded(_ value: some Encodable) -> String {
        let encoder = JSONEncoder()
        encoder.outputFormatting = [.sortedKeys, .withoutEscapingSlashes]
        return (try? encoder.encode(value)).map { String(decoding: $0, as: UTF8.self) } ?? "{}"
    }
}
