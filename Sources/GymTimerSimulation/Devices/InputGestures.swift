import GymTimerDrivers

/// What a finger does to the simulated input lines, as timed edges: a click, a hold, a
/// chattering press, knob detents. The script and the terminal both build their edges here,
/// so a key in the terminal drives the lines exactly as the same script line would.
public enum InputGestures {
    /// Line names the encoder's two contacts are known by.
    public static let encoderA = InputRole.encoderA.lineName
    public static let encoderB = InputRole.encoderB.lineName

    /// A click holds the button this long.
    public static let clickLength = Duration.milliseconds(80)
    /// A bouncing contact toggles this often, five times on press and on release.
    public static let bounceInterval = Duration.microseconds(500)
    /// Between the edges of one detent, and between the starts of successive detents.
    public static let edgeInterval = Duration.milliseconds(2)
    public static let detentInterval = Duration.milliseconds(20)

    /// Button `name` goes active at `time`.
    public static func press(_ name: String, at time: Duration) -> [ScheduledEdge] {
        [ScheduledEdge(time: time, line: name, active: true)]
    }

    /// Button `name` goes inactive at `time`.
    public static func release(_ name: String, at time: Duration) -> [ScheduledEdge] {
        [ScheduledEdge(time: time, line: name, active: false)]
    }

    /// Press at `time`, release `length` later.
    public static func hold(_ name: String, at time: Duration, for length: Duration) -> [ScheduledEdge] {
        press(name, at: time) + release(name, at: time + length)
    }

    /// Press at `time`, release `clickLength` later.
    public static func click(_ name: String, at time: Duration) -> [ScheduledEdge] {
        hold(name, at: time, for: clickLength)
    }

    /// A click whose contacts chatter: five toggles `bounceInterval` apart on press and again
    /// on release, each burst ending at the settled level.
    public static func bounce(_ name: String, at time: Duration) -> [ScheduledEdge] {
        var edges: [ScheduledEdge] = []
        for (start, settled) in [(time, true), (time + clickLength, false)] {
            for i in 0..<5 {
                edges.append(ScheduledEdge(
                    time: start + bounceInterval * i, line: name, active: i % 2 == 0 ? settled : !settled))
            }
        }
        return edges
    }

    /// `detents` knob detents from `time` (negative: counter-clockwise), each a full quadrature
    /// cycle of 4 edges `edgeInterval` apart; A leads B when turning clockwise.
    public static func turn(_ detents: Int, at time: Duration) -> [ScheduledEdge] {
        let (lead, lag) = detents >= 0 ? (encoderA, encoderB) : (encoderB, encoderA)
        var edges: [ScheduledEdge] = []
        for k in 0..<abs(detents) {
            let start = time + detentInterval * k
            edges.append(ScheduledEdge(time: start, line: lead, active: true))
            edges.append(ScheduledEdge(time: start + edgeInterval, line: lag, active: true))
            edges.append(ScheduledEdge(time: start + edgeInterval * 2, line: lead, active: false))
            edges.append(ScheduledEdge(time: start + edgeInterval * 3, line: lag, active: false))
        }
        return edges
    }
}
