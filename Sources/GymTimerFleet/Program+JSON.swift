import GymTimerCore

/// A program's definition on the wire (`{"do": "start", "at": …, "program": {…}}`): the keys of
/// a config's `[[programs]]` table as a JSON object, held to the same kinds, keys and ranges
/// (`Program+Definition`), so a station refuses a hostile definition as its config reader
/// would refuse the same table — with an answer, never a crash.
extension Program {
    /// The keys a definition may hold.
    static let definitionKeys: Set<String> = Set(["name", "label", "kind", "lead_in_seconds"] + kindKeys)

    /// The program `object` defines, or the first thing wrong with it (fields in a fixed order).
    public static func parse(definition object: [String: JSONValue]) -> Result<Program, FleetCommandError> {
        if let extra = Set(object.keys).subtracting(definitionKeys).sorted().first {
            return .failure(.unexpected(field: "program." + String(extra.prefix(32)), command: "start"))
        }
        guard let rawName = object["name"] else { return .failure(.missing("program.name")) }
        if let name = rawName.string, let problem = NameText.problem(name) {
            return .failure(.badName(field: "program.name", problem: problem.description))
        }
        guard let name = rawName.string, nameProblem(name) == nil else {
            return .failure(.wrongType(field: "program.name", expected: "a name of 1 to \(maxNameLength) characters, no control or format characters"))
        }
        guard let rawLabel = object["label"] else { return .failure(.missing("program.label")) }
        if let label = rawLabel.string, let problem = NameText.problem(label) {
            return .failure(.badName(field: "program.label", problem: problem.description))
        }
        guard let label = rawLabel.string, labelProblem(label) == nil else {
            return .failure(.wrongType(field: "program.label", expected: "up to 4 characters the 7-segment display can draw"))
        }
        guard let rawKind = object["kind"] else { return .failure(.missing("program.kind")) }
        guard let kind = rawKind.string.flatMap(Kind.init(rawValue:)) else {
            return .failure(.wrongType(field: "program.kind", expected: "one of intervals, emom, amrap, for-time"))
        }
        var numbers: [String: Int] = [:]
        for key in ["lead_in_seconds"] + kindKeys {
            guard let raw = object[key] else {
                if kind.required.contains(key) { return .failure(.missing("program." + key)) }
                continue
            }
            guard key == "lead_in_seconds" || kind.keys.contains(key) else {
                return .failure(.unexpected(field: "program." + key, command: "start (kind \(kind.rawValue))"))
            }
            let range = numberLimits[key]!.range
            // Compared as a Double before any conversion: 1e300 or 2.5 is refused, never trapped on.
            guard let value = raw.number, value.rounded() == value, value >= Double(range.lowerBound),
                  value <= Double(range.upperBound) else {
                return .failure(.wrongType(field: "program." + key, expected: "whole seconds or rounds, \(range.lowerBound) to \(range.upperBound)"))
            }
            numbers[key] = Int(value)
        }
        let leadIn = numbers["lead_in_seconds"] ?? numberLimits["lead_in_seconds"]!.default
        return .success(Program(name: name, label: label, leadInSeconds: leadIn, format: format(kind, numbers)))
    }
}
