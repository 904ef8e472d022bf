/// A parsed `simulate --script` file (simulation.md): timed actions and the end time.
public struct SimulationScript: Hashable, Sendable {
    /// One scripted action.
    public enum Action: Hashable, Sendable {
        case press(String)
        case release(String)
        case click(String)
        case hold(String, Duration)
        case bounce(String)
        case turn(Int)
        case restart
    }

    /// An action at its time, with the script line it came from.
    public struct Step: Hashable, Sendable {
        public var time: Duration
        public var action: Action
        public var line: Int

        public init(time: Duration, action: Action, line: Int) {
            self.time = time
            self.action = action
            self.line = line
        }
    }

    public var steps: [Step]
    /// When the simulation stops.
    public var end: Duration

    public init(steps: [Step], end: Duration) {
        self.steps = steps
        self.end = end
    }
}
