import Foundation
import GymTimerCore

/// A best result of one program in one division, over a history's workouts (a station's, or
/// one athlete's on every station of the gym): the fastest finish of a for-time program, else
/// the most rounds. Rx and Scaled are kept apart, so a scaled finish never beats an Rx best; a
/// result whose division was never said (a record from before divisions) counts as Rx. The
/// first to reach a best holds it: a later equal result is no new record.
public struct PersonalRecord: Hashable, Sendable, Codable {
    /// The program's name.
    public var program: String
    /// The division the best was done in.
    public var division: Division
    /// The result, as `history` shows it (`8 rounds`, `12:34, 3 rounds`).
    public var score: String
    public var completedAt: Date
    /// The station it was set on (a collector's database), nil on a kiosk's own.
    public var station: String?

    public init(program: String, division: Division = .rx, score: String, completedAt: Date, station: String? = nil) {
        self.program = program
        self.division = division
        self.score = score
        self.completedAt = completedAt
        self.station = station
    }

    /// One program result a best is chosen from: the same fields as the record it may become.
    public typealias Result = PersonalRecord

    /// The best of each program and division in `results` (in any order), by program name, Rx
    /// before Scaled; a score that is not one (a hand edit) is passed over.
    public static func bests(of results: [Result]) -> [PersonalRecord] {
        struct Key: Hashable {
            var program: String
            var division: Division
        }
        var best: [Key: (score: ProgramScore, record: PersonalRecord)] = [:]
        for result in results.sorted(by: { $0.completedAt < $1.completedAt }) {
            guard let score = ProgramScore(text: result.score) else { continue }
            let key = Key(program: result.program, division: result.division)
            if let held = best[key], !score.beats(held.score) { continue }
            best[key] = (score, PersonalRecord(
                program: result.program, division: result.division, score: result.score,
                completedAt: result.completedAt, station: result.station))
        }
        return best.values.map(\.record).sorted {
            ($0.program, $0.division == .rx ? 0 : 1) < ($1.program, $1.division == .rx ? 0 : 1)
        }
    }

    enum CodingKeys: String, CodingKey {
        case program, division, score, station
        case completedAt = "completed_at"
    }

    /// Read as written, a record without a division (written before divisions) as Rx.
    public init(from decoder: any Decoder) throws {
        let container = try decoder.container(keyedBy: CodingKeys.self)
        program = try container.decode(String.self, forKey: .program)
        division = try container.decodeIfPresent(Division.self, forKey: .division) ?? .rx
        score = try container.decode(String.self, forKey: .score)
        completedAt = try container.decode(Date.self, forKey: .completedAt)
        station = try container.decodeIfPresent(String.self, forKey: .station)
    }
}
