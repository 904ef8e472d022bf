import TOMLKit

/// Reads the keys of one TOML table for the config, recording a problem for each value that is
/// of the wrong type or out of range and returning the default in its place, so reading carries
/// on and every problem in the file is found in one pass.
///
/// Every key the parser asks for is remembered; when the table is finished, any key in it that
/// nobody asked for is reported as unknown, with the closest known key as a suggestion. That is
/// how typos are caught without each section listing its keys twice.
final class TOMLReader {
    /// The dotted path of this table in messages (`hardware.lines`, `workout.presets[2]`); empty for the root.
    let path: String
    private let table: TOMLTable
    private let problems: ProblemList
    /// The keys asked for, in order, for unknown-key suggestions.
    private var known: [String] = []
    /// Those of `known` asked for as tables, so a mistyped table is matched to a table first.
    private var knownTables: Set<String> = []
    /// The keys whose value was refused, so checks that combine keys can skip them.
    private var refused: Set<String> = []

    private init(table: TOMLTable, path: String, problems: ProblemList) {
        self.table = table
        self.path = path
        self.problems = problems
    }

    /// Reads a whole document with `body`, then reports its unknown keys.
    static func read<T>(_ table: TOMLTable, problems: ProblemList, _ body: (TOMLReader) -> T) -> T {
        let reader = TOMLReader(table: table, path: "", problems: problems)
        let result = body(reader)
        reader.reportUnknownKeys()
        return result
    }

    /// The full dotted path of `key` in this table.
    func keyPath(_ key: String) -> String { path.isEmpty ? key : "\(path).\(key)" }

    /// Whether none of `keys` has been refused (a missing key counts as valid).
    func isValid(_ keys: String...) -> Bool { keys.allSatisfy { !refused.contains($0) } }

    /// The raw value of `key`, if present, marking the key as known.
    func value(_ key: String) -> TOMLValueConvertible? {
        if !known.contains(key) { known.append(key) }
        return table[key]
    }

    /// Records a problem with `key`: `path.key = value: message`, or `path.key: message` without a value.
    func report(_ key: String, _ value: TOMLValueConvertible?, _ message: String) {
        refused.insert(key)
        problems.add(key: keyPath(key), value: value.map(TOMLText.render), message)
    }

    /// Records a problem that is not about one value of this table (duplicates across tables).
    func report(path: String, value: String?, _ message: String) {
        problems.add(key: path, value: value, message)
    }

    // MARK: - Values

    /// A whole number within `range` (any whole number when nil); `format` renders numbers in messages.
    func int(
        _ key: String, default defaultValue: Int, in range: ClosedRange<Int>? = nil,
        format: (Int) -> String = { String($0) }
    ) -> Int {
        guard let raw = value(key) else { return defaultValue }
        guard let number = raw.int else {
            report(key, raw, "must be a whole number")
            return defaultValue
        }
        guard let range, !range.contains(number) else { return number }
        let message: String
        if range.upperBound == Int.max {
            message = "must be \(format(range.lowerBound)) or more"
        } else if range.lowerBound == range.upperBound {
            message = "must be \(format(range.lowerBound))"
        } else {
            message = "must be between \(format(range.lowerBound)) and \(format(range.upperBound))"
        }
        problems.add(key: keyPath(key), value: format(number), message)
        refused.insert(key)
        return defaultValue
    }

    func bool(_ key: String, default defaultValue: Bool) -> Bool {
        guard let raw = value(key) else { return defaultValue }
        guard let flag = raw.bool else {
            report(key, raw, "must be true or false")
            return defaultValue
        }
        return flag
    }

    /// A string; an empty one is refused unless `allowEmpty`.
    func string(_ key: String, default defaultValue: String, allowEmpty: Bool = false) -> String {
        guard let raw = value(key) else { return defaultValue }
        guard let text = raw.string else {
            report(key, raw, "must be a string")
            return defaultValue
        }
        if text.isEmpty && !allowEmpty {
            report(key, raw, "must not be empty")
            return defaultValue
        }
        return text
    }

    /// One of the cases of `Choice`, written as its raw value.
    func choice<Choice: RawRepresentable & CaseIterable>(_ key: String, default defaultValue: Choice) -> Choice
    where Choice.RawValue == String {
        guard let raw = value(key) else { return defaultValue }
        guard let text = raw.string, let chosen = Choice(rawValue: text) else {
            report(key, raw, "must be one of " + Choice.allCases.map(\.rawValue).joined(separator: ", "))
            return defaultValue
        }
        return chosen
    }

    /// A GPIO line: a line name string (`"GPIO17"`) or an offset (`17`). An empty string gives nil
    /// (not fitted, or required: the caller decides); so does a refused value.
    func line(_ key: String, default defaultValue: LineSpec?) -> LineSpec? {
        guard let raw = value(key) else { return defaultValue }
        if let name = raw.string {
            return name.isEmpty ? nil : .name(name)
        }
        if let offset = raw.int, offset >= 0 {
            return .offset(offset)
        }
        report(key, raw, "must be a line name like \"GPIO17\" or an offset like 17")
        return nil
    }

    /// A non-empty array of non-empty strings.
    func stringList(_ key: String, default defaultValue: [String], describing what: String) -> [String] {
        guard let raw = value(key) else { return defaultValue }
        guard let array = raw.array else {
            report(key, raw, "must be a list of \(what), like [\"…\", \"…\"]")
            return defaultValue
        }
        guard !array.isEmpty else {
            report(key, raw, "must list at least one of \(what)")
            return defaultValue
        }
        var items: [String] = []
        for (index, element) in array.enumerated() {
            if let text = element.string, !text.isEmpty {
                items.append(text)
            } else {
                refused.insert(key)
                problems.add(
                    key: "\(keyPath(key))[\(index + 1)]", value: TOMLText.render(element), "must be a non-empty string")
            }
        }
        return isValid(key) ? items : defaultValue
    }

    // MARK: - Tables

    /// Reads the sub-table `key` with `body` and reports its unknown keys. Without the table,
    /// `body` reads an empty one, so every default comes from one place.
    func table<T>(_ key: String, _ body: (TOMLReader) -> T) -> T {
        knownTables.insert(key)
        let raw = value(key)
        let sub: TOMLTable
        if let raw, let found = raw.table {
            sub = found
        } else {
            if let raw { report(key, raw, "must be a table") }
            sub = TOMLTable()
        }
        let reader = TOMLReader(table: sub, path: keyPath(key), problems: problems)
        let result = body(reader)
        reader.reportUnknownKeys()
        return result
    }

    /// Reads each table of the array of tables `key` (`[[key]]`) with `body(reader, number)`, where
    /// `number` counts from 1 as the blocks appear in the file and names it in messages (`key[2]`).
    /// Nil when the key is missing or refused.
    func tables<T>(_ key: String, _ body: (TOMLReader, Int) -> T) -> [T]? {
        knownTables.insert(key)
        guard let raw = value(key) else { return nil }
        guard let array = raw.array else {
            report(key, raw, "must be a list of tables, written [[\(keyPath(key))]]")
            return nil
        }
        guard !array.isEmpty else {
            report(key, raw, "must have at least one [[\(keyPath(key))]] table")
            return nil
        }
        var results: [T] = []
        for (index, element) in array.enumerated() {
            let number = index + 1
            let elementPath = "\(keyPath(key))[\(number)]"
            guard let sub = element.table else {
                refused.insert(key)
                problems.add(key: elementPath, value: TOMLText.render(element), "must be a table")
                continue
            }
            let reader = TOMLReader(table: sub, path: elementPath, problems: problems)
            results.append(body(reader, number))
            reader.reportUnknownKeys()
        }
        return results
    }

    // MARK: - Unknown keys

    private func reportUnknownKeys() {
        for (key, raw) in table where !known.contains(key) {
            let isTable = raw.type == .table
                || (raw.array.map { !$0.isEmpty && $0.allSatisfy { $0.type == .table } } ?? false)
            var message = isTable ? "unknown table" : "unknown key"
            let sameKind = known.filter { knownTables.contains($0) == isTable }
            if let suggestion = KeySuggestion.closest(to: key, among: sameKind)
                ?? KeySuggestion.closest(to: key, among: known)
            {
                message += " (did you mean \(keyPath(suggestion))?)"
            }
            problems.add(key: keyPath(key), value: nil, message)
        }
    }
}
