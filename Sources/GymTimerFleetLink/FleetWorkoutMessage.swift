import Foundation
import GymTimerHistory

/// A workout record as it travels on `P/workout` (fleet.md): what `history --json` prints of
/// it, with the station and an id unique in the gym (`station/record id`), stable across retries.
public enum FleetWorkoutMessage {
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

    /// The record in a payload from the station named by its topic, or nil when it is not one
    /// (the topic's station wins over the payload's: a station cannot file records for another).
    public static func decode(_ payload: [UInt8], station: String) -> StoredWorkout? {
        let decoder = JSONDecoder()
        decoder.dateDecodingStrategy = .custom { decoder in
            let text = try decoder.singleValueContainer().decode(String.self)
            if let date = try? Date(text, strategy: Date.ISO8601FormatStyle(includingFractionalSeconds: true)) { return date }
            return try Date(text, strategy: Date.ISO8601FormatStyle())
        }
        guard var workout = try? decoder.decode(StoredWorkout.self, from: Data(payload)), !workout.id.isEmpty else { return nil }
        if !workout.id.hasPrefix(station + "/") { workout.id = "\(station)/\(workout.id)" }
        workout.station = station
        return workout
    }
}
