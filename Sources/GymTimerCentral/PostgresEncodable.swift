import Foundation

/// A value sent to PostgreSQL as a parameter, in the text form its input functions read.
protocol PostgresEncodable: Sendable {
    var postgresText: String { get }
}

extension String: PostgresEncodable {
    var postgresText: String { self }
}

extension Int: PostgresEncodable {
    var postgresText: String { String(self) }
}

extension Int64: PostgresEncodable {
    var postgresText: String { String(self) }
}

extension Bool: PostgresEncodable {
    var postgresText: String { self ? "t" : "f" }
}

extension Date: PostgresEncodable {
    /// An instant for a timestamptz: UTC, to the microsecond (`PostgresTimestamp`).
    var postgresText: String { PostgresTimestamp.text(self) }
}

extension Array: PostgresEncodable where Element == String {
    /// An array literal (`{"a","b"}`) for `= ANY($1)`: each element quoted, `"` and `\` escaped.
    var postgresText: String {
        "{" + map { "\"" + $0.replacingOccurrences(of: "\\", with: "\\\\").replacingOccurrences(of: "\"", with: "\\\"") + "\"" }
            .joined(separator: ",") + "}"
    }
}
