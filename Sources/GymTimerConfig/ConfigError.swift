/// Why a config file was refused: every problem found in it, one line each, naming the key, the
/// value as written and what is allowed (config.md), so one run of `check-config` shows them all.
public struct ConfigError: Error, Hashable, Sendable, CustomStringConvertible {
    /// One line per problem, in the order the file was checked.
    public var problems: [String]

    public init(problems: [String]) {
        self.problems = problems
    }

    /// A single problem, such as a file that cannot be read.
    public init(_ problem: String) {
        self.problems = [problem]
    }

    public var description: String { problems.joined(separator: "\n") }
}
