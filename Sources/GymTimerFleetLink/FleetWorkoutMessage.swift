import Foundation
import GymTimerCore
import GymTimerFleet
import GymTimerHistory

/// A workout record as it travels on `P/workout` (fleet.md): what `history --json` prints of
/// it, with the station and an id unique in the gym (`station/record id`), stable across retries.
public enum FleetWorkoutMessage {
    /// The largest record the collector reads (a workout of 1000 exercises fits); bigger ones
    /// are refused before they are decoded.
    public static let maximumSize = 256 * 1024

    /// Why a record from a station is not stored: its `kind` (logged once per kind), what is
    /// wrong, and its id when the payload named a usable one (so the station can be told).
    public struct Refusal: Error, Hashable, Sendable, CustomStringConvertible {
        /// `too-large`, `malformed`, `bad-athlete` (an `athlete` that is no card UID),
        /// `bad-division` (a `division` that is neither `rx` nor `scaled`, or on a workout that
        /// is no program's), or a `StoredWorkout.Implausibility` kind (`bad-sets`, …).
        public var kind: String
        public var detail: String
        /// The record's id in the gym (`station/…`), when the payload had one.
        public var id: String?
        public var description: String { detail }
    }

    /// The payload for `workout` from `station`, and its id.
    public static func encode(_ workout: StoredWorkout, station: String) -> (id: String, payload: String) {
        var sent = workout
        sent.id = "\(station)/\(workout.id)"
        sent.station = station
        let encoder = JSONEncoder()
        encoder.outputFormatting = [.sortedKeys, .withoutEscapingSlashes]
        encoder.dateEncodingStrategy = .custom { date, encoder in
            var container = encoder.singleValueContainer()
            try container.encode(date.formatted(Date.ISO8601FormatStyle(includingFractionalSeconds: true)))
        }
        let payload = (try? encoder.encode(sent)).map { String(decoding: $0, as: UTF8.self) } ?? "{}"
        return (sent.id, payload)
    }

    /// The record in a payload from the station named by its topic, received at `now`, if it
    /// is one that may be stored: its size is checked before anything is decoded, its fields
    /// as they are decoded (a number that is no `Int` is malformed, never converted), then
    /// their plausibility (`StoredWorkout.implausibility`). The topic's station wins over the
    /// payload's: a station cannot file records for another. An `athlete` that is not a card's
    /// UID is refused as `bad-athlete` (not stored as a guest's: it is someone's workout); a
    /// missing or null one is a guest's (and every record of a station before athletes). A
    /// `division` other than `"rx"` or `"scaled"`, or one on a workout that is not a program's,
    /// is refused as `bad-division`; a missing or null one is not said (counted as Rx).
    public static func decode(_ payload: [UInt8], station: String, receivedAt now: Date) -> Result<StoredWorkout, Refusal> {
        guard payload.count <= maximumSize else {
            return .failure(Refusal(kind: "too-large", detail: "\(payload.count) bytes, over \(maximumSize)", id: nil))
        }
        var fields: [String: JSONValue]?
        if case .object(let object)? = JSONValue.parse(payload) { fields = object }
        let id = fields.flatMap { gymID(in: $0, station: station) }
        if let athlete = fields?["athlete"], let problem = athleteProblem(athlete) {
            return .failure(Refusal(kind: "bad-athlete", detail: "athlete \(problem), not a card UID (1 to 10 bytes as hex)", id: id))
        }
        if let division = fields?["division"], let problem = divisionProblem(division, kind: fields?["kind"]) {
            return .failure(Refusal(kind: "bad-division", detail: "division \(problem)", id: id))
        }
        let decoder = JSONDecoder()
        decoder.dateDecodingStrategy = .custom { decoder in
            let text = try decoder.singleValueContainer().decode(String.self)
            guard let date = date(text) else { throw DecodingError.dataCorrupted(.init(codingPath: [], debugDescription: "not a date")) }
            return date
        }
        guard var workout = try? decoder.decode(StoredWorkout.self, from: Data(payload)), let id else {
            return .failure(Refusal(kind: "malformed", detail: "not a workout record (fields missing or of the wrong type)", id: id))
        }
        workout.id = id
        workout.station = station
        if let problem = workout.implausibility(receivedAt: now) {
            return .failure(Refusal(kind: problem.kind, detail: problem.detail, id: id))
        }
        return .success(workout)
    }

    /// A record's date (ISO 8601, with or without fractions of a second, at most 64 bytes).
    package static func date(_ text: String) -> Date? {
        guard text.utf8.count <= 64 else { return nil }
        if let date = try? Date(text, strategy: Date.ISO8601FormatStyle(includingFractionalSeconds: true)) { return date }
        return try? Date(text, strategy: Date.ISO8601FormatStyle())
    }

    /// What is wrong with a payload's `athlete`, said without quoting it, or nil when it is a
    /// card UID or null.
    static func athleteProblem(_ value: JSONValue) -> String? {
        switch value {
        case .null: nil
        case .string(let text): CardID(hex: text) == nil ? "is a text of \(text.unicodeScalars.count) characters" : nil
        case .number: "is a number"
        case .bool: "is a boolean"
        case .array: "is an array"
        case .object: "is an object"
        }
    }

    /// What is wrong with a payload's `division` (of a record of `kind`), said without quoting
    /// it, or nil when it is `rx`, `scaled` on a program's record, or null.
    static func divisionProblem(_ value: JSONValue, kind: JSONValue?) -> String? {
        switch value {
        case .null: return nil
        case .string(let text):
            guard Division(rawValue: text) != nil else { return "is a text of \(text.unicodeScalars.count) characters, not rx or scaled" }
            return kind == .string(WorkoutRecord.Kind.program.rawValue) ? nil : "is said of a workout that is no program's"
        case .number: return "is a number"
        case .bool: return "is a boolean"
        case .array: return "is an array"
        case .object: return "is an object"
        }
    }

    /// The record's id in the gym (`station/…`) from the payload's `id`, if it is a short
    /// printable one (so a refused record can be named to its station).
    static func gymID(in fields: [String: JSONValue], station: String) -> String? {
        guard let raw = fields["id"]?.string else { return nil }
        let id = raw.hasPrefix(station + "/") ? raw : "\(station)/\(raw)"
        guard raw.utf8.count > station.utf8.count + 1 || !raw.hasPrefix(station + "/"), !raw.isEmpty,
              id.utf8.count <= StoredWorkout.maximumIDLength,
              id.unicodeScalars.allSatisfy({ $0.value >= 0x20 && $0.value != 0x7F && !(0x80..<0xA0).contains($0.value) })
        else { return nil }
        return id
    }
}
