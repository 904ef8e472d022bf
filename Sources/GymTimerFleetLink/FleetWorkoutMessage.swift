import Foundation
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
        /// `too-large`, `malformed`, or a `StoredWorkout.Implausibility` kind (`bad-sets`, …).
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
    /// payload's: a station cannot file records for another.
    public static func decode(_ payload: [UInt8], station: String, receivedAt now: Date) -> Result<StoredWorkout, Refusal> {
        guard payload.count <= maximumSize else {
            return .failure(Refusal(kind: "too-large", detail: "\(payload.count) bytes, over \(maximumSize)", id: nil))
        }
        let id = gymID(in: payload, station: station)
        let decoder = JSONDecoder()
        decoder.dateDecodingStrategy = .custom { decoder in
            let text = try decoder.singleValueContainer().decode(String.self)
            guard text.utf8.count <= 64 else { throw DecodingError.dataCorrupted(.init(codingPath: [], debugDescription: "too long")) }
            if let date = try? Date(text, strategy: Date.ISO8601FormatStyle(includingFractionalSeconds: true)) { return date }
            return try Date(text, strategy: Date.ISO8601FormatStyle())
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

    /// The record's id in the gym (`station/…`) from the payload's `id`, if it is a short
    /// printable one (so a refused record can be named to its station).
    static func gymID(in payload: [UInt8], station: String) -> String? {
        guard case .object(let fields)? = JSONValue.parse(payload), let raw = fields["id"]?.string else { return nil }
        let id = raw.hasPrefix(station + "/") ? raw : "\(station)/\(raw)"
        guard raw.utf8.count > station.utf8.count + 1 || !raw.hasPrefix(station + "/"), !raw.isEmpty,
              id.utf8.count <= StoredWorkout.maximumIDLength,
              id.unicodeScalars.allSatisfy({ $0.value >= 0x20 && $0.value != 0x7F && !(0x80..<0xA0).contains($0.value) })
        else { return nil }
        return id
    }
}
