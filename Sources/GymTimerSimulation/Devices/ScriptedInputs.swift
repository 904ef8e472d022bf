import GymTimerHAL

/// The simulated world's hands: scripted button and knob actions turned into edges on
/// simulated input lines, delivered in virtual time. Waiting advances the virtual clock to the
/// next edge or to the timeout, whichever comes first, so no real time passes.
public final class ScriptedInputs: SimulatedInputs {
    /// Kept for callers that name the edge type through the waiter.
    public typealias ScheduledEdge = GymTimerSimulation.ScheduledEdge

    /// Line names the encoder's two contacts are known by (see `InputGestures`).
    public static let encoderA = InputGestures.encoderA
    public static let encoderB = InputGestures.encoderB

    public let clock: VirtualClock
    /// Never wait beyond this virtual time (the script's end).
    public var limit: Duration?
    private let queue: EdgeQueue

    public init(clock: VirtualClock, buttons: [String], edges: [ScheduledEdge] = []) {
        self.clock = clock
        queue = EdgeQueue(buttons: buttons)
        queue.schedule(edges)
    }

    /// The input lines by name: the buttons, `encoder-a` and `encoder-b`.
    public var lines: [String: SimulatedLine] { queue.lines }

    /// The gestures a script's actions make, in time order; `restart` makes none. Their edges
    /// are made as they come due, so a long `turn` costs nothing until it is reached.
    public static func gestures(for script: SimulationScript) -> [EdgeRun] {
        script.steps.map { step -> EdgeRun in
            let t = step.time
            switch step.action {
            case .press(let name): return InputGestures.press(name, at: t)
            case .release(let name): return InputGestures.release(name, at: t)
            case .click(let name): return InputGestures.click(name, at: t)
            case .hold(let name, let length): return InputGestures.hold(name, at: t, for: length)
            case .bounce(let name): return InputGestures.bounce(name, at: t)
            case .turn(let detents): return InputGestures.turn(detents, at: t)
            case .restart, .fleet, .tap: return EdgeRun([])
            }
        }
    }

    /// Adds edges to those still to come (for tests that need edges no script verb makes);
    /// a stable sort keeps the script's order for edges at the same instant.
    public func schedule(_ edges: [ScheduledEdge]) { queue.schedule(edges) }

    /// Adds gestures to those still to come.
    public func schedule(_ gestures: [EdgeRun]) { queue.schedule(gestures) }

    /// Puts the lines where the edges up to `time` leave them, without delivering those edges:
    /// a run resumed at `time` finds the world's hands as they are then.
    public func skip(through time: Duration) { _ = queue.deliver(through: time, now: time) }

    /// The virtual time of the next scripted edge, if any remain.
    public var nextEdgeTime: Duration? { queue.nextEdgeTime }

    public func wait(timeout: Duration?) throws(HALError) -> [InputEdge] {
        let now = clock.now.offset
        var target = timeout.map { now + max($0, .zero) }
        if let limit { target = min(target ?? limit, limit) }
        if let next = nextEdgeTime, target.map({ next <= $0 }) ?? true {
            clock.advance(to: .init(offset: max(next, now)))
            // Dated at the moment the loop sees them, as before the queue was shared.
            return queue.deliver(through: next, now: next)
        }
        if let target { clock.advance(to: .init(offset: target)) }
        return []
    }
}
