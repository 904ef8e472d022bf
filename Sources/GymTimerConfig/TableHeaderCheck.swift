/// Catches table headers the TOML parser inside TOMLKit (toml++) cannot take: a header whose
/// name starts with something other than a key character or a quote (`[[[a]]`, found by
/// fuzzing) trips an assertion there and would abort the program instead of reporting it.
enum TableHeaderCheck {
    /// The first such header as a one-line problem, or nil.
    static func firstProblem(in toml: String) -> String? {
        var inMultilineString = false
        for (index, line) in toml.split(separator: "\n", omittingEmptySubsequences: false).enumerated() {
            // Skip the inside of multi-line strings, where a `[` is just text.
            if line.components(separatedByTripleQuotes: true) % 2 == 1 { inMultilineString.toggle() }
            if inMultilineString { continue }
            var rest = line.drop { $0 == " " || $0 == "\t" }
            guard rest.first == "[" else { continue }
            rest = rest.dropFirst()
            if rest.first == "[" { rest = rest.dropFirst() }
            rest = rest.drop { $0 == " " || $0 == "\t" }
            guard let first = rest.first else { continue }
            if first.isASCII && (first.isLetter || first.isNumber || first == "_" || first == "-") { continue }
            if first == "\"" || first == "'" { continue }
            return "line \(index + 1): invalid table header \(line.trimmingSpaces): a table name must start with a letter, digit, _, - or a quote"
        }
        return nil
    }
}

extension Substring {
    /// How many `"""` or `'''` delimiters the line holds.
    fileprivate func components(separatedByTripleQuotes _: Bool) -> Int {
        var count = 0
        var index = startIndex
        while index < endIndex {
            let tail = self[index...]
            if tail.hasPrefix("\"\"\"") || tail.hasPrefix("'''") {
                count += 1
                index = self.index(index, offsetBy: 3)
            } else {
                index = self.index(after: index)
            }
        }
        return count
    }

    fileprivate var trimmingSpaces: Substring {
        drop { $0 == " " || $0 == "\t" }.reversed().drop { $0 == " " || $0 == "\t" || $0 == "\r" }.reversed().map { $0 }.reduce(into: Substring()) { $0.append($1) }
    }
}
