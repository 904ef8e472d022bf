import Foundation
import GymTimerCore
@testable import GymTimerHistory
import GymTimerSystem
import Synchronization

/// A fresh directory under the system's temporary one, removed when the test lets go of it.
final class TemporaryDirectory {
    let path: String

    init() throws {
        path = FileManager.default.temporaryDirectory.appendingPathComponent("gymtimer-history-\(UUID().uuidString)").path
        try FileManager.default.createDirectory(atPath: path, withIntermediateDirectories: true)
    }

    deinit { try? FileManager.default.removeItem(atPath: path) }

    /// A path inside the directory.
    func file(_ name: String) -> String { path + "/" + name }
}

/// A wall clock a test sets by hand.
final class HandClock: Sendable {
    private let date: Mutex<Date>
    init(_ now: Date) { date = Mutex(now) }
    var now: Date {
        get { date.withLock { $0 } }
        set { date.withLock { $0 = newValue } }
    }
    /// The clock as the stores read it.
    var wall: WallClock { WallClock(unix: { [self] in now.timeIntervalSince1970 }) }
}

/// Lines a FaultLog wrote.
final class LogLines {
    var lines: [String] = []
    lazy var faults = FaultLog(sink: { [unowned self] in self.lines.append($0) })
}

/// Builds dates and records for the tests.
enum Fixture {
    static let berlin = TimeZone(identifier: "Europe/Berlin")!
    static let utc = TimeZone(identifier: "UTC")!

    /// The wall-clock instant of a local time in `timeZone`.
    static func date(_ year: Int, _ month: Int, _ day: Int, _ hour: Int, _ minute: Int, in timeZone: TimeZone = berlin) -> Date {
        var calendar = Calendar(identifier: .gregorian)
        calendar.timeZone = timeZone
        return calendar.date(from: DateComponents(year: year, month: month, day: day, hour: hour, minute: minute))!
    }

    /// A guided session that started `start` seconds into the kiosk's timeline (its identity).
    static func session(start: Int, exercises: [String] = ["Squats", "Plank"]) -> WorkoutRecord {
        WorkoutRecord(
            kind: .workout, sets: exercises.count, duration: .seconds(360), calories: 150,
            exercises: exercises, preset: "full-body", endedAt: Moment(.seconds(start + 360)))
    }

    /// A store at `path` in Berlin whose wall clock is `clock`.
    static func store(_ path: String, clock: HandClock, log: LogLines = LogLines(), busyTimeout: Duration = .zero) throws -> HistoryStore {
        try HistoryStore(path: path, faults: log.faults, timeZone: berlin, busyTimeout: busyTimeout, wall: clock.wall)
    }
}
