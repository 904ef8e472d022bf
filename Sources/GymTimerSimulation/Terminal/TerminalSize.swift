/// The size of a terminal in character cells, as `TIOCGWINSZ` reports it.
public struct TerminalSize: Hashable, Sendable, CustomStringConvertible {
    public var columns: Int
    public var rows: Int

    public init(columns: Int, rows: Int) {
        self.columns = columns
        self.rows = rows
    }

    /// The classic terminal, and what is assumed when the size cannot be read.
    public static let standard = TerminalSize(columns: 80, rows: 24)

    public var description: String { "\(columns)×\(rows)" }

    /// True when a block of `other`'s size fits inside this one.
    public func fits(_ other: TerminalSize) -> Bool { other.columns <= columns && other.rows <= rows }
}
