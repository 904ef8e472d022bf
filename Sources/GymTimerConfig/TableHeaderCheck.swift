/// Catches table headers the TOML parser inside TOMLKit (toml++) cannot take: a header name part
/// that does not start with a key character or a quote (`[[[a]]`, `[` alone, `[a.\rb]`, all
/// found by fuzzing) trips an assertion there and would abort the program instead of reporting
/// it. Works on Unicode scalars, as the parser does: a combining mark after `[` would otherwise
/// hide the bracket inside one `Character`.
enum TableHeaderCheck {
    /// The first such header as a one-line problem, or nil.
    static func firstProblem(in toml: String) -> String? {
        // Every line starting with `[` is checked, even inside a multi-line string: no key of
        // this config is one, and telling them apart from text (comments may hold `"""`) is
        // what let such headers through before.
        for (index, line) in toml.unicodeScalars.split(separator: "\n", omittingEmptySubsequences: false).enumerated() {
            let header = line.drop { $0 == " " || $0 == "\t" }
            guard header.first == "[", !isValid(header) else { continue }
            let shown = String(String.UnicodeScalarView(header.prefix(40)))
                .trimmingCharacters(in: [" ", "\t", "\r"])
            return "line \(index + 1): invalid table header \(shown): a table name must start with a letter, digit, _, - or a quote"
        }
        return nil
    }

    /// Whether every dot-separated part of the header's name starts, after spaces and tabs,
    /// with a key character or a quote — what toml++ asserts before reading each part.
    private static func isValid(_ header: Substring.UnicodeScalarView.SubSequence) -> Bool {
        var rest = header.dropFirst()
        if rest.first == "[" { rest = rest.dropFirst() }
        while true {
            rest = rest.drop { $0 == " " || $0 == "\t" }
            guard let first = rest.first else { return false }
            if first == "\"" || first == "'" {
                // A quoted part: skip to its closing quote (the parser reports anything odd inside).
                guard let close = rest.dropFirst().firstIndex(of: first) else { return true }
                rest = rest[rest.index(after: close)...]
            } else if isKeyScalar(first) {
                rest = rest.drop(while: isKeyScalar)
            } else {
                return false
            }
            rest = rest.drop { $0 == " " || $0 == "\t" }
            guard rest.first == "." else { return true }
            rest = rest.dropFirst()
        }
    }

    private static func isKeyScalar(_ scalar: Unicode.Scalar) -> Bool {
        switch scalar {
        case "a"..."z", "A"..."Z", "0"..."9", "_", "-": return true
        default: return false
        }
    }
}

extension String {
    /// The string with `characters` removed from both ends.
    fileprivate func trimmingCharacters(in characters: Set<Character>) -> String {
        String(drop { characters.contains($0) }.reversed().drop { characters.contains($0) }.reversed())
    }
}
