import Foundation
import GymTimerCore

/// A best result of one program, over a history's workouts (a station's, or one athlete's on
/// every station of the gym): the fastest finish of a for-time program, else the most rounds.
/// The first to reach it holds it: a later equal result is no new record.
public struct PersonalRecord: Hashable, Sendable, Codable {
    /// The program's name.
    public var program: String
    /// The result, as `history` shows it (`8 rounds`, `12:34, 3 rounds`).
    public var score: String
    public var completedAt: Date
    /// The station it was set on (a collector's database), nil on a kiosk's own.
    public var station: String?

    public init(program: String, score: String, completedAt: Date, station: String? = nil) {
        self.program = program
        self.score = score
        self.completedAt = completedAt
        self.station = station
    }

    /// The best of each program in `results` (in any order), by program name; a score that is
    /// not one (a hand edit) is passed over.
    public static func bests(of results: [(program: String, score: String, completedAt: Date, station: String?)]) -> [PersonalRecord] {
        var best: [String: (score: ProgramScore, record: PersonalRecord)] = [:]
        for result in results.sorted(by: { $0.completedAt < $1.completedAt }) {
            guard let score = ProgramScore(text: result.score) else { continue }
            if let held = best[result.program], !score.beats(held.score) { continue }
            best[result.program] = (score, PersonalRecord(
                program: result.program, score: result.score, completedAt: result.completedAt, station: result.station))
        }
        return best.values.map(\.record).sorted { $0.program < $1.program }
    }

    enum CodingKeys: String, CodingKey {
        case program, score, station
        case completedAt = "completed_at"
    }
}
