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
    public static func press(_ name: String, at time: Duration) -> EdgeRun {
        EdgeRun([ScheduledEdge(time: time, line: name, active: true)])
    }

    /// Button `name` goes inactive at `time`.
    public static func release(_ name: String, at time: Duration) -> EdgeRun {
        EdgeRun([ScheduledEdge(time: time, line: name, active: false)])
    }

    /// Press at `time`, release `length` later.
    public static func hold(_ name: String, at time: Duration, for length: Duration) -> EdgeRun {
        EdgeRun([
            ScheduledEdge(time: time, line: name, active: true),
            ScheduledEdge(time: time + max(length, .zero), line: name, active: false),
        ])
    }

    /// Press at `time`, release `clickLength` later.
    public static func click(_ name: String, at time: Duration) -> EdgeRun {
        hold(name, at: time, for: clickLength)
    }

    /// A click whose contacts chatter: five toggles `bounceInterval` apart on press and again
    /// on release, each burst ending at the settled level.
    public static func bounce(_ name: String, at time: Duration) -> EdgeRun {
        var edges: [ScheduledEdge] = []
        for (start, settled) in [(time, true), (time + clickLength, false)] {
            for i in 0..<5 {
                edges.append(ScheduledEdge(
                    time: start + bounceInterval * i, line: name, active: i % 2 == 0 ? settled : !settled))
            }
        }
        return EdgeRun(edges)
    }

    /// `detents` knob detents from `time` (negative: counter-clockwise), each a full quadrature
    /// cycle of 4 edges `edgeInterval` apart; A leads B when turning clockwise. The edges are
    /// made as the queue reaches them, so any number of detents costs nothing up front.
    public static func turn(_ detents: Int, at time: Duration) -> EdgeRun {
        let (lead, lag) = detents >= 0 ? (encoderA, encoderB) : (encoderB, encoderA)
        // Four edges per detent; a count past Int.max / 4 detents would take ages to turn anyway.
        let count = Int(min(detents.magnitude, UInt(Int.max / 4))) * 4
        let cycle: [(line: String, active: Bool)] = [(lead, true), (lag, true), (lead, false), (lag, false)]
        return EdgeRun(count: count) { index in
            let (detent, phase) = index.quotientAndRemainder(dividingBy: 4)
            return ScheduledEdge(
                time: time + detentInterval * detent + edgeInterval * phase,
                line: cycle[phase].line, active: cycle[phase].active)
        }
    }
}
