/// One change of an input line's logical level, as the event loop receives it.
public struct InputEdge: Hashable, Sendable {
    /// The role of the line (`start`, `dismiss`, `encoder-a`, `encoder-b`, …).
    public var line: String
    /// The new logical level (`true`: active).
    public var active: Bool
    /// How long before `wait` returned the edge happened, from the kernel's timestamp; zero
    /// where the backend has no timestamps. The loop dates the edge `now - age`.
    public var age: Duration

    public init(line: String, active: Bool, age: Duration = .zero) {
        self.line = line
        self.active = active
        self.age = age
    }
}
