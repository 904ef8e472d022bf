/// One SQL statement and its parameters (`$1`, `$2`, … in the text), each sent to PostgreSQL
/// as text for the server to read as the column or function wants it. A literal is a
/// statement without parameters; each interpolation in one becomes a parameter, never SQL:
/// `"SELECT id FROM athletes WHERE name = \(name)"` sends `$1` and `name` beside it.
struct PostgresQuery: ExpressibleByStringInterpolation, Sendable {
    /// The statement, its parameters numbered from `$1`.
    var sql: String
    var binds: PostgresBindings

    /// `sql` as written, with `binds` for its `$n`s (no quoting is done: it must not hold
    /// anything that came from outside).
    init(unsafeSQL sql: String, binds: PostgresBindings = PostgresBindings()) {
        self.sql = sql
        self.binds = binds
    }

    init(stringLiteral value: String) {
        self.init(unsafeSQL: value)
    }

    init(stringInterpolation: StringInterpolation) {
        self.init(unsafeSQL: stringInterpolation.sql, binds: stringInterpolation.binds)
    }

    struct StringInterpolation: StringInterpolationProtocol {
        var sql = ""
        var binds = PostgresBindings()

        init(literalCapacity: Int, interpolationCount: Int) {
            sql.reserveCapacity(literalCapacity + 3 * interpolationCount)
        }

        mutating func appendLiteral(_ literal: String) {
            sql += literal
        }

        mutating func appendInterpolation(_ value: some PostgresEncodable) {
            binds.append(value)
            sql += "$\(binds.count)"
        }

        mutating func appendInterpolation(_ value: (some PostgresEncodable)?) {
            binds.append(value)
            sql += "$\(binds.count)"
        }
    }
}

/// The parameters of a `PostgresQuery`, in order: each one's text, nil for SQL's NULL.
struct PostgresBindings: Sendable {
    private(set) var values: [String?] = []

    init(capacity: Int = 0) {
        values.reserveCapacity(capacity)
    }

    var count: Int { values.count }

    mutating func append(_ value: some PostgresEncodable) {
        values.append(value.postgresText)
    }

    mutating func append(_ value: (some PostgresEncodable)?) {
        values.append(value?.postgresText)
    }
}
