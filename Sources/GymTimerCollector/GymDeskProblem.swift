/// Why the desk's store (`GymDeskStore`) could not read or do something, as the coach's page
/// says it (`the gym's database cannot be read: …`, `Not renamed: …`).
public struct GymDeskProblem: Error, Hashable, Sendable, CustomStringConvertible {
    public var description: String

    public init(description: String) {
        self.description = description
    }
}
