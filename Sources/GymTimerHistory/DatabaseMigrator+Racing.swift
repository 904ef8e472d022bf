import Foundation
import GRDB
import GymTimerSystem
#if canImport(Glibc)
import Glibc
#endif

extension DatabaseMigrator {
    /// Opens the SQLite file at `path` and brings its schema up to date, when another process
    /// may be creating or migrating the same new file at this instant (a second collector, a
    /// station started twice, a tool looking at a station's outbox): a step that fails because
    /// the other got there first (locked, "no such table", "duplicate column", "already
    /// exists") is tried again, for up to a second, and finds the other's work done. `check`
    /// runs on the open file before migrating (to refuse one written by a newer GymTimer).
    /// A new file is made with at most `mode` whatever the umask, and an existing one, or a
    /// side file of SQLite's, that other local users may open is closed to them, told to `note`
    /// (`PrivateFile`): the databases hold members' names and cards.
    public func openMigrated(
        path: String, configuration: Configuration, mode: mode_t = 0o600, note: (String) -> Void = { _ in },
        check: (Database) throws -> Void = { _ in }
    ) throws -> DatabaseQueue {
        PrivateFile.create(path, mode: mode)
        var attempt = 0
        while true {
            attempt += 1
            do {
                let database = try DatabaseQueue(path: path, configuration: configuration)
                try database.read(check)
                try migrate(database)
                if let line = PrivateFile.closeToOthers(path, sideFiles: PrivateFile.sqliteSideFiles) { note(line) }
                return database
            } catch let error as DatabaseError where attempt < 50 && Self.racing(error) {
                var none = pollfd()
                _ = poll(&none, 0, 20)
            }
        }
    }

    /// Whether `error` may come from another connection migrating the same file meanwhile.
    private static func racing(_ error: DatabaseError) -> Bool {
        switch error.resultCode {
        case .SQLITE_BUSY, .SQLITE_LOCKED: true
        case .SQLITE_ERROR: ["no such table", "duplicate column", "already exists"].contains { error.message?.contains($0) == true }
        default: false
        }
    }
}
