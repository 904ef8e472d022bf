import GymTimerHAL

/// The simulated input lines and the edges still to come on them, in time order. Delivering
/// an edge drives its line; an edge that would not change the line's level (overlapping
/// actions) is dropped, as a real contact that is already closed cannot close again.
public final class EdgeQueue {
    /// The input lines by name: the buttons, `encoder-a` and `encoder-b`.
    public let lines: [String: SimulatedLine]
    private var pending: [ScheduledEdge] = []
    private var nextIndex = 0

    public init(buttons: [String]) {
        var lines: [String: SimulatedLine] = [:]
        for name in buttons + [InputGestures.encoderA, InputGestures.encoderB] {
            lines[name] = SimulatedLine(name: name)
        }
        self.lines = lines
    }

    /// Adds edges; edges at the same time keep the order they were given in, after any
    /// already queued for that time.
    public func schedule(_ edges: [ScheduledEdge]) {
        let sorted = edges.enumerated()
            .sorted { ($0.element.time, $0.offset) < ($1.element.time, $1.offset) }
            .map(\.element)
        if nextIndex == pending.count {
            // The common cases (a whole script at once, a key while nothing is queued): no merge.
            pending = sorted
            nextIndex = 0
            return
        }
        for edge in sorted {
            var index = pending.count
            while index > nextIndex, pending[index - 1].time > edge.time { index -= 1 }
            pending.insert(edge, at: index)
        }
    }

    /// The time of the next queued edge, if any remain.
    public var nextEdgeTime: Duration? { nextIndex < pending.count ? pending[nextIndex].time : nil }

    /// How long a real-time waiter may block at `now`: until `deadline` or the next queued
    /// edge, whichever is first (never negative); nil when there is neither, so only outside
    /// input can end the wait.
    public func blockingTime(until deadline: Duration?, now: Duration) -> Duration? {
        [deadline, nextEdgeTime].compactMap { $0 }.min().map { max($0 - now, .zero) }
    }

    /// Delivers every queued edge due at or before `time`, driving the lines. `now` dates
    /// them: each edge's age is how long before `now` it was due.
    public func deliver(through time: Duration, now: Duration) -> [InputEdge] {
        var edges: [InputEdge] = []
        while nextIndex < pending.count, pending[nextIndex].time <= time {
            let edge = pending[nextIndex]
            nextIndex += 1
            guard let line = lines[edge.line], line.level != edge.active else { continue }
            line.drive(edge.active)
            edges.append(InputEdge(line: edge.line, active: edge.active, age: max(now - edge.time, .zero)))
        }
        if nextIndex == pending.count {
            pending.removeAll(keepingCapacity: true)
            nextIndex = 0
        }
        return edges
    }
}
