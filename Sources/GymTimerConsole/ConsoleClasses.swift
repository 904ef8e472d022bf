import GymTimerFleet

/// The class each station is in, as the console keeps it (`FleetClassRecord`): begun when a
/// class start is taken, paused and resumed with the coach's pause and resume, ended by End
/// without recording or a call-off. Every change is the record to retain on the station's
/// `class` topic (nil: clear it), so a station that was offline or restarted through a pause
/// follows the class's instants when it is back, and one that obeyed is moved by the
/// milliseconds between the coach's instant and its receipt. Pure: the link publishes.
public struct ConsoleClasses: Sendable {
    /// By station.
    public private(set) var records: [String: FleetClassRecord] = [:]

    public init() {}

    /// A class `id` whose work begins at `workBegins` (Unix seconds) on `stations`.
    public mutating func begin(id: String, workBegins: Double, on stations: [String]) -> [String: FleetClassRecord?] {
        var changed: [String: FleetClassRecord?] = [:]
        for station in stations {
            records[station] = FleetClassRecord(id: id, workBegins: workBegins)
            changed[station] = records[station]
        }
        return changed
    }

    /// The class paused at `at` on those of `stations` in a class (`FleetClassRecord.pause`).
    public mutating func pause(_ stations: [String], at: Double) -> [String: FleetClassRecord?] {
        change(stations) { $0.pause(at: at) }
    }

    /// The class resumed at `at` on those of `stations` whose class is paused.
    public mutating func resume(_ stations: [String], at: Double) -> [String: FleetClassRecord?] {
        change(stations) { $0.resume(at: at) }
    }

    /// No class on `stations` any more: their records are cleared.
    public mutating func end(_ stations: [String]) -> [String: FleetClassRecord?] {
        var changed: [String: FleetClassRecord?] = [:]
        for station in stations where records.removeValue(forKey: station) != nil { changed[station] = .some(nil) }
        return changed
    }

    private mutating func change(_ stations: [String], _ edit: (inout FleetClassRecord) -> Bool) -> [String: FleetClassRecord?] {
        var changed: [String: FleetClassRecord?] = [:]
        for station in stations {
            guard var record = records[station], edit(&record) else { continue }
            records[station] = record
            changed[station] = record
        }
        return changed
    }
}
