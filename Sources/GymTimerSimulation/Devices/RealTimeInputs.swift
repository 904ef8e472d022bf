#if canImport(Glibc)
import Glibc
#elseif canImport(Darwin)
import Darwin
#endif
import GymTimerHAL

/// Simulated hands in real time with no terminal: scheduled edges (see `InputGestures`) are
/// delivered at their real times on the injected timeline, so the real event loop on a real
/// clock can be measured. Waiting sleeps (`SystemCall.poll` on nothing: to the nanosecond)
/// until the next edge or the timeout, whichever is first, and is never early; nothing wakes
/// it while idle. `onWake` sees the time of every return, for counting wake-ups.
public final class RealTimeInputs: SimulatedInputs {
    private let now: () -> Duration
    private let queue: EdgeQueue
    /// Called with the time each `wait` returns.
    public var onWake: ((Duration) -> Void)?

    /// `now` is the time on the kiosk's timeline (e.g. since the runtime's origin on a
    /// `ContinuousClock`); edges are scheduled on that timeline.
    public init(buttons: [String], now: @escaping () -> Duration) {
        self.now = now
        queue = EdgeQueue(buttons: buttons)
    }

    public var lines: [String: SimulatedLine] { queue.lines }

    /// When the next scheduled edge is due, if any.
    public var nextEdgeTime: Duration? { queue.nextEdgeTime }

    /// Adds edges to those still to come.
    public func schedule(_ edges: [ScheduledEdge]) { queue.schedule(edges) }

    /// Adds gestures to those still to come.
    public func schedule(_ gestures: [EdgeRun]) { queue.schedule(gestures) }

    public func wait(timeout: Duration?) throws(HALError) -> [InputEdge] {
        let deadline = timeout.map { now() + max($0, .zero) }
        while true {
            let t = now()
            let due = queue.deliver(through: t, now: t)
            if !due.isEmpty {
                onWake?(t)
                return due
            }
            if let deadline, t >= deadline {
                onWake?(t)
                return []
            }
            // Nothing scheduled and no timeout: only a new edge could end this, and none can
            // arrive from another thread, so sleep in long slices (as a kiosk with no input would).
            try Self.sleep(queue.blockingTime(until: deadline, now: t) ?? .seconds(3600))
        }
    }

    /// Sleeps for `duration`, never less: the one wait (`SystemCall.poll`) with nothing to watch.
    static func sleep(_ duration: Duration) throws(HALError) {
        guard duration > .zero else { return }
        var nothing: [pollfd] = []
        try SystemCall.poll(&nothing, timeout: duration, device: "simulated inputs")
    }
}
