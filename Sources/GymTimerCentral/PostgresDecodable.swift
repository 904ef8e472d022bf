import Foundation

/// A value read from a cell's text as PostgreSQL prints it (nil text: SQL's NULL).
protocol PostgresDecodable {
    init?(postgresText text: String?)
}

extension String: PostgresDecodable {
    init?(postgresText text: String?) {
        guard let text else { return nil }
        self = text
    }
}

extension Int: PostgresDecodable {
    init?(postgresText text: String?) {
        guard let text, let value = Int(text) else { return nil }
        self = value
    }
}

extension Int64: PostgresDecodable {
    init?(postgresText text: String?) {
        guard let text, let value = Int64(text) else { return nil }
        self = value
    }
}

extension Bool: PostgresDecodable {
    init?(postgresText text: String?) {
        switch text {
        case "t": self = true
        case "f": self = false
        default: return nil
        }
    }
}

extension Date: PostgresDecodable {
    init?(postgresText text: String?) {
        guard let text, let date = PostgresTimestamp.date(text) else { return nil }
        self = date
    }
}

extension Optional: PostgresDecodable where Wrapped: PostgresDecodable {
    /// nil for NULL; a text its type cannot read is still a failure, not a NULL.
    init?(postgresText text: String?) {
        guard let text else {
            self = .none
            return
        }
        guard let value = Wrapped(postgresText: text) else { return nil }
        self = .some(value)
    }
}
