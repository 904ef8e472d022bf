/// Why an upgrade step failed, in words for the journal and the agent's exit line: what was
/// run, how it ended and the last lines it wrote (apt's own explanation).
public struct UpgradeError: Error, Hashable, Sendable, CustomStringConvertible {
    /// The step: "refreshing the gym's package source", "installing"…
    public var step: String
    public var reason: String

    public init(_ step: String, _ reason: String) {
        self.step = step
        self.reason = reason
    }

    public var description: String { "\(step): \(reason)" }
}
