import Foundation
import GymTimerCore

/// Checks on a workout that came from outside (a station's record at the gym's collector)
/// before it is stored, as the kiosk checks what it reads back (`Kiosk+Plausibility`): every
/// number in the range `HistoryStore.validRow` trusts, the time between 2020 and a day after
/// it arrived, the local day that time's (give or take the time zones), every text short and
/// printable. Only comparisons: no value can trap here.
extension StoredWorkout {
    /// What is wrong with a record: the kind (one log line each) and the detail.
    public struct Implausibility: Error, Hashable, Sendable, CustomStringConvertible {
        /// `bad-sets`, `bad-duration`, `bad-calories`, `bad-time`, `bad-text`.
        public var kind: String
        public var detail: String
        public var description: String { detail }
    }

    /// The bounds (as `HistoryStore.validRow`'s).
    public static let maximumSets = 100_000
    public static let maximumDurationMilliseconds: Int64 = 604_800_000
    public static let maximumCalories = 10_000_000
    public static let maximumExercises = 1000
    public static let maximumTextLength = 200
    public static let maximumIDLength = 160
    /// No gym's record is older (a station whose clock never synchronised says 1970).
    public static let earliest = Date(timeIntervalSince1970: 1_577_836_800)  // 2020-01-01

    /// Why this record, received at `now`, cannot be stored, or nil when it is plausible.
    public func implausibility(receivedAt now: Date) -> Implausibility? {
        func bad(_ kind: String, _ detail: String) -> Implausibility { Implausibility(kind: kind, detail: detail) }
        guard (0...Self.maximumSets).contains(sets) else { return bad("bad-sets", "sets \(sets) is outside 0…\(Self.maximumSets)") }
        guard (0...Self.maximumDurationMilliseconds).contains(durationMilliseconds) else {
            return bad("bad-duration", "duration_ms \(durationMilliseconds) is outside 0…\(Self.maximumDurationMilliseconds)")
        }
        guard (0...Self.maximumCalories).contains(calories) else {
            return bad("bad-calories", "calories \(calories) is outside 0…\(Self.maximumCalories)")
        }
        let seconds = completedAt.timeIntervalSince1970
        guard seconds.isFinite, completedAt >= Self.earliest, completedAt <= now.addingTimeInterval(86_400) else {
            return bad("bad-time", "completed_at \(String(format: "%.0f", seconds)) (Unix time) is not between 2020 and a day from now")
        }
        // The local day is within a day of the UTC day of completed_at (time zones span ±14 h).
        let utcDay = Int((seconds / 86_400).rounded(.down))
        guard abs(localDay.dayNumber - utcDay) <= 1 else {
            return bad("bad-time", "local_day \(localDay) is not the day of completed_at")
        }
        guard Self.isText(id, upTo: Self.maximumIDLength) else { return bad("bad-text", "id is empty, too long or not printable") }
        for (field, text) in [("preset", preset), ("score", score), ("station", station)] {
            if let text, !Self.isText(text, upTo: Self.maximumTextLength) {
                return bad("bad-text", "\(field) is empty, over \(Self.maximumTextLength) bytes or not printable")
            }
        }
        guard exercises.count <= Self.maximumExercises, exercises.allSatisfy({ Self.isText($0, upTo: Self.maximumTextLength) }) else {
            return bad("bad-text", "exercises: over \(Self.maximumExercises), or one empty, too long or not printable")
        }
        return nil
    }

    /// Whether `text` has 1…`limit` UTF-8 bytes and no character a name may not hold
    /// (`NameText`: no terminal escapes, no bidirectional overrides), nor a private-use or
    /// unassigned code point.
    static func isText(_ text: String, upTo limit: Int) -> Bool {
        guard !text.isEmpty, text.utf8.count <= limit else { return false }
        return text.unicodeScalars.allSatisfy { scalar in
            if NameText.isRefused(scalar) { return false }
            switch scalar.properties.generalCategory {
            case .surrogate, .privateUse, .unassigned: return false
            default: return true
            }
        }
    }
}
