/// The problems found so far while reading one config file, shared by every `TOMLReader` on it
/// so that all of them are collected and reported together.
final class ProblemList {
    private(set) var lines: [String] = []

    var isEmpty: Bool { lines.isEmpty }

    /// Records `key = value: message`, or `key: message` when there is no value to show.
    /// `value` is already rendered as written in TOML.
    func add(key: String, value: String?, _ message: String) {
        if let value {
            lines.append("\(key) = \(value): \(message)")
        } else {
            lines.append("\(key): \(message)")
        }
    }
}
