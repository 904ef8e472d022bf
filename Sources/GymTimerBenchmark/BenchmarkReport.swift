import Foundation

/// The benchmark's figures as a table for people and as JSON for tracking over time.
public struct BenchmarkReport: Hashable, Sendable, Codable {
    public var figures: [BenchmarkFigure]
    /// Whether durations were shortened (`--quick`), which makes the figures less stable.
    public var quick: Bool

    public init(figures: [BenchmarkFigure], quick: Bool) {
        self.figures = figures
        self.quick = quick
    }

    /// Figures that missed their target.
    public var missed: [BenchmarkFigure] { figures.filter { $0.status == .missed } }

    /// A fixed-width table, one row per figure, then the numbered notes.
    public var table: String {
        let header = ["figure", "n", "median", "p99", "max", "target", "result"]
        var notes: [String] = []
        let rows: [[String]] = figures.map { figure in
            var name = figure.name
            if let note = figure.note {
                notes.append(note)
                name += " [\(notes.count)]"
            }
            let stats = figure.statistics
            let cells = [stats?.median, stats?.p99, stats?.max].map { value in
                value.map { Self.format($0, figure.unit) } ?? "-"
            }
            let target = figure.target.map {
                "\($0.statistic.rawValue) \($0.comparison.rawValue) \(Self.format($0.bound, figure.unit))"
            } ?? "-"
            return [name, stats.map { String($0.count) } ?? "0"] + cells + [target, figure.status.rawValue]
        }
        let all = [header] + rows
        let widths = header.indices.map { column in all.map { $0[column].count }.max() ?? 0 }
        func line(_ cells: [String]) -> String {
            cells.enumerated().map { column, cell in
                let pad = String(repeating: " ", count: widths[column] - cell.count)
                // Names and results read left to right; numbers line up on the right.
                return column == 0 || column >= 5 ? cell + pad : pad + cell
            }.joined(separator: "  ").trimmingTrailingSpaces()
        }
        var out = [line(header), String(repeating: "-", count: widths.reduce(0, +) + 2 * (widths.count - 1))]
        out += rows.map(line)
        if quick { out.append("(--quick: shortened runs, figures are indicative only)") }
        out += notes.enumerated().map { "[\($0.offset + 1)] \($0.element)" }
        let missed = self.missed
        out.append(missed.isEmpty
            ? "All targets met."
            : "MISSED \(missed.count) target\(missed.count == 1 ? "" : "s"): \(missed.map(\.name).joined(separator: "; "))")
        return out.joined(separator: "\n")
    }

    /// The report as one JSON object (keys sorted, so runs diff cleanly).
    public var json: String {
        struct Row: Encodable {
            var name: String, unit: String, count: Int, median: Double?, p99: Double?, max: Double?
            var target: String?, result: String, note: String?
        }
        struct Document: Encodable { var quick: Bool, figures: [Row] }
        let rows = figures.map { figure in
            Row(
                name: figure.name, unit: figure.unit.rawValue, count: figure.statistics?.count ?? 0,
                median: figure.statistics?.median, p99: figure.statistics?.p99, max: figure.statistics?.max,
                target: figure.target.map { "\($0.statistic.rawValue) \($0.comparison.rawValue) \($0.bound)" },
                result: figure.status.rawValue, note: figure.note)
        }
        let encoder = JSONEncoder()
        encoder.outputFormatting = [.sortedKeys]
        guard let data = try? encoder.encode(Document(quick: quick, figures: rows)) else { return "{}" }
        return String(decoding: data, as: UTF8.self)
    }

    /// `value` with a precision that suits its unit and size.
    static func format(_ value: Double, _ unit: BenchmarkFigure.Unit) -> String {
        let magnitude = abs(value)
        let digits = magnitude >= 100 ? 0 : magnitude >= 10 ? 1 : magnitude >= 1 ? 2 : 3
        return String(format: "%.\(digits)f", value) + " " + unit.rawValue
    }
}

extension String {
    fileprivate func trimmingTrailingSpaces() -> String {
        var s = self
        while s.last == " " { s.removeLast() }
        return s
    }
}
