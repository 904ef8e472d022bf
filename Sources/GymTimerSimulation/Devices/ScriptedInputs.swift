import GymTimerHAL

/// The simulated world's hands: scripted button and knob actions turned into edges on
/// simulated input lines, delivered in virtual time. Waiting advances the virtual clock to the
/// next edge or to the timeout, whichever comes first, so no real time passes.
public final class ScriptedInputs: InputWaiter {
    /// One level change of one input line at a virtual time.
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

    /// Line names the encoder's two contacts are known by.
    public static let encoderA = "encoder-a"
    public static let encoderB = "encoder-b"

    /// A click holds the button this long.
    public static let clickLength = Duration.milliseconds(80)
    /// A bouncing contact toggles this often, five times on press and on release.
    public static let bounceInterval = Duration.microseconds(500)
    /// Between the edges of one detent, and between the starts of successive detents.
    public static let edgeInterval = Duration.milliseconds(2)
    public static let detentInterval = Duration.milliseconds(20)

    public let clock: VirtualClock
    /// The input lines by name: the buttons, `encoder-a` and `encoder-b`.
    public let lines: [String: SimulatedLine]
    /// Never wait beyond this virtual time (the script's end).
    public var limit: Duration?
    private var pending: [ScheduledEdge]
    private var nextIndex = 0

    public init(clock: VirtualClock, buttons: [String], edges: [ScheduledEdge] = []) {
        self.clock = clock
        var lines: [String: SimulatedLine] = [:]
        for name in buttons + [Self.encoderA, Self.encoderB] { lines[name] = SimulatedLine(name: name) }
        self.lines = lines
        self.pending = []
        schedule(edges)
    }

    /// The edges a script's actions make, in time order; `restart` makes none.
    public static func edges(for script: SimulationScript) -> [ScheduledEdge] {
        var edges: [ScheduledEdge] = []
        func add(_ time: Duration, _ line: String, _ active: Bool) { edges.append(.init(time: time, line: line, active: active)) }
        for step in script.steps {
            let t = step.time
            switch step.action {
            case .press(let name): add(t, name, true)
            case .release(let name): add(t, name, false)
            case .click(let name):
                add(t, name, true)
                add(t + clickLength, name, false)
            case .hold(let name, let length):
                add(t, name, true)
                add(t + length, name, false)
            case .bounce(let name):
                for (start, settled) in [(t, true), (t + clickLength, false)] {
                    for i in 0..<5 { add(start + bounceInterval * i, name, i % 2 == 0 ? settled : !settled) }
                }
            case .turn(let detents):
                let (lead, lag) = detents >= 0 ? (encoderA, encoderB) : (encoderB, encoderA)
                for k in 0..<abs(detents) {
                    let start = t + detentInterval * k
                    add(start, lead, true)
                    add(start + edgeInterval, lag, true)
                    add(start + edgeInterval * 2, lead, false)
                    add(start + edgeInterval * 3, lag, false)
                }
            case .restart:
                break
            }
        }
        return edges
    }

    /// Adds edges to those still to come (for tests that need edges no script verb makes);
    /// a stable sort keeps the script's order for edges at the same instant.
    public func schedule(_ edges: [ScheduledEdge]) {
        let remaining = Array(pending[nextIndex...]) + edges
        pending = remaining.enumerated().sorted { ($0.element.time, $0.offset) < ($1.element.time, $1.offset) }.map(\.element)
        nextIndex = 0
    }

    /// The virtual time of the next scripted edge, if any remain.
    public var nextEdgeTime: Duration? { nextIndex < pending.count ? pending[nextIndex].time : nil }

    public func wait(timeout: Duration?) throws(HALError) -> [InputEdge] {
        let now = clock.now.offset
        var target = timeout.map { now + max($0, .zero) }
        if let limit { target = min(target ?? limit, limit) }
        if let next = nextEdgeTime, target.map({ next <= $0 }) ?? true {
            clock.advance(to: .init(offset: max(next, now)))
            var edges: [InputEdge] = []
            while nextIndex < pending.count, pending[nextIndex].time == next {
                let edge = pending[nextIndex]
                nextIndex += 1
                guard let line = lines[edge.line], line.level != edge.active else { continue }
                line.drive(edge.active)
                edges.append(InputEdge(line: edge.line, active: edge.active))
            }
            return edges
        }
        if let target { clock.advance(to: .init(offset: target)) }
        return []
    }
}
