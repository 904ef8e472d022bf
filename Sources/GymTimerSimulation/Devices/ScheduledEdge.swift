/// One level change of one simulated input line at a time on the simulation's timeline
/// (virtual time for a script, time since start for the terminal).
public struct ScheduledEdge: Hashable, Sendable {
    public var time: Duration
    public var line: String
    public var active: Bool

    public init(time: Duration, line: String, active: Bool) {
        self.time = time
        self.line = line
        self.active = active
    }
}
