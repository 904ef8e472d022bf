import Foundation
import Testing
@testable import GymTimerHistory
import GymTimerSystem

/// Two collectors (or a collector and `history`) opening one new database at the same instant:
/// both must end up with the migrated file. (Before, one could die with "no such table:
/// grdb_migrations" or "database is locked" while the other created it.)
@Suite struct HistoryCreationRaceTests {
    @Test func openersRacingOnANewFileAllGetTheMigratedDatabase() throws {
        let dir = try TemporaryDirectory()
        let failures = Failures()
        for round in 0..<20 {
            let path = dir.file("gym-\(round).sqlite")
            DispatchQueue.concurrentPerform(iterations: 6) { _ in
                do {
                    let store = try HistoryStore(path: path, faults: FaultLog(sink: { _ in }), busyTimeout: .milliseconds(100))
                    _ = try store.workouts()
                } catch {
                    failures.add("\(error)")
                }
            }
        }
        #expect(failures.all.isEmpty, "\(failures.all.count) openers failed: \(Set(failures.all))")
    }

    /// Errors collected from the racing threads.
    final class Failures: @unchecked Sendable {
        private let lock = NSLock()
        private var lines: [String] = []
        func add(_ line: String) { lock.withLock { lines.append(line) } }
        var all: [String] { lock.withLock { lines } }
    }
}
