/// What one statement answered: its rows (each cell PostgreSQL's text, nil for NULL) and, for
/// a command, how many rows it touched.
struct PostgresQueryResult: Sendable {
    var rows: [PostgresRow]
    var metadata: Metadata

    struct Metadata: Sendable {
        /// The rows an INSERT, UPDATE or DELETE touched (or a SELECT returned); nil for a
        /// command that says none (BEGIN, CREATE).
        var rows: Int?
    }
}

/// One row of a `PostgresQueryResult`: read a cell by its column's place, or the first few as
/// a tuple (`row.decode((Int64, String).self)`).
struct PostgresRow: Sendable {
    var cells: [String?]

    /// The row itself (its cells are already in an array).
    func makeRandomAccess() -> PostgresRow { self }

    subscript(column: Int) -> PostgresCell {
        PostgresCell(text: column < cells.count ? cells[column] : nil, column: column, present: column < cells.count)
    }

    func decode<A: PostgresDecodable>(_: A.Type) throws -> A {
        try self[0].decode(A.self)
    }

    func decode<A: PostgresDecodable, B: PostgresDecodable>(_: (A, B).Type) throws -> (A, B) {
        (try self[0].decode(A.self), try self[1].decode(B.self))
    }

    func decode<A: PostgresDecodable, B: PostgresDecodable, C: PostgresDecodable>(_: (A, B, C).Type) throws -> (A, B, C) {
        (try self[0].decode(A.self), try self[1].decode(B.self), try self[2].decode(C.self))
    }

    func decode<A: PostgresDecodable, B: PostgresDecodable, C: PostgresDecodable, D: PostgresDecodable>(
        _: (A, B, C, D).Type
    ) throws -> (A, B, C, D) {
        (try self[0].decode(A.self), try self[1].decode(B.self), try self[2].decode(C.self), try self[3].decode(D.self))
    }

    func decode<A: PostgresDecodable, B: PostgresDecodable, C: PostgresDecodable, D: PostgresDecodable, E: PostgresDecodable>(
        _: (A, B, C, D, E).Type
    ) throws -> (A, B, C, D, E) {
        (try self[0].decode(A.self), try self[1].decode(B.self), try self[2].decode(C.self), try self[3].decode(D.self),
         try self[4].decode(E.self))
    }
}

/// One cell of a row, read as the type its column holds.
struct PostgresCell: Sendable {
    var text: String?
    var column: Int
    var present: Bool

    func decode<T: PostgresDecodable>(_: T.Type) throws -> T {
        guard present else { throw PostgresDecodingError(column: column, text: nil, type: "\(T.self)", why: "the row has no such column") }
        guard let value = T(postgresText: text) else {
            throw PostgresDecodingError(column: column, text: text, type: "\(T.self)", why: text == nil ? "it is NULL" : "it is not one")
        }
        return value
    }
}

/// A cell that is not what its reader expects (a row edited by hand, a column changed).
struct PostgresDecodingError: Error, CustomStringConvertible {
    var column: Int
    var text: String?
    var type: String
    var why: String

    var description: String { "column \(column + 1) read as \(type): \(why)" }
}
