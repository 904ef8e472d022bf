import GRDB

/// Why the history could not be opened, read or written; each is one line for a log or the CLI.
public enum HistoryError: Error, Hashable, Sendable, CustomStringConvertible {
    /// The database's directory is missing and could not be created.
    case cannotCreateDirectory(path: String, reason: String)
    /// SQLite could not open or set up the file (permission denied, not a database, ...).
    case cannotOpen(path: String, reason: String)
    /// There is no file to read (the CLI opens read-only and never creates one).
    case missing(path: String)
    /// The file is an SQLite database but not a GymTimer history, or one a newer version wrote.
    case notAHistory(path: String, reason: String)
    /// Writing failed (locked, read-only, disk full); the workouts wait (see `HistoryStore.pending`).
    case cannotSave(reason: String, pending: Int)
    /// A query failed.
    case cannotRead(reason: String)
    /// A stored record could not be amended (locked, read-only); nothing changed.
    case cannotAmend(reason: String)

    public var description: String {
        switch self {
        case .cannotCreateDirectory(let path, let reason):
            "cannot create the directory for the history database \(path): \(reason)"
        case .cannotOpen(let path, let reason):
            "cannot open the history database \(path): \(reason)"
        case .missing(let path):
            "no history database at \(path)"
        case .notAHistory(let path, let reason):
            "\(path) is not a usable GymTimer history: \(reason)"
        case .cannotSave(let reason, let pending):
            "cannot save workouts (\(pending) waiting until the database can be written): \(reason)"
        case .cannotRead(let reason):
            "cannot read the history: \(reason)"
        case .cannotAmend(let reason):
            "cannot amend the record, nothing changed: \(reason)"
        }
    }

    /// The short reason of any error: SQLite's message without the SQL statement.
    static func reason(_ error: any Error) -> String {
        if let error = error as? DatabaseError {
            return error.message ?? "SQLite error \(error.resultCode.rawValue)"
        }
        return "\(error)"
    }
}
