import GymTimerHAL

/// The simulated input lines and the edges still to come on them, in time order. Delivering
/// an edge drives its line; an edge that would not change the line's level (overlapping
/// actions) is dropped, as a real contact that is already closed cannot close again.
///
/// Edges are queued as whole gestures (`EdgeRun`s) and made one at a time as they come due,
/// so a long knob turn costs a cursor, not an array of edges.
public final class EdgeQueue {
    /// The input lines by name: the buttons, `encoder-a` and `encoder-b`.
    public let lines: [String: SimulatedLine]

    /// A gesture being delivered: its edges, the next one to deliver, and the order it was
    /// scheduled in, which breaks ties between gestures with edges at the same instant.
    private struct Cursor {
        let run: EdgeRun
        let order: Int
        var next = 0
        var nextTime: Duration { run[next].time }
        func comesBefore(_ other: Cursor) -> Bool { (nextTime, order) < (other.nextTime, other.order) }
    }

    /// Gestures with edges still to come, latest first: the next edge is the last one's.
    private var cursors: [Cursor] = []
    private var scheduled = 0

    public init(buttons: [String]) {
        var lines: [String: SimulatedLine] = [:]
        for name in buttons + [InputGestures.encoderA, InputGestures.encoderB] {
            lines[name] = SimulatedLine(name: name)
        }
        self.lines = lines
    }

    /// Adds gestures; edges at the same time are delivered in the order they were scheduled,
    /// after any already queued for that time.
    public func schedule(_ runs: [EdgeRun]) {
        let added = runs.filter { !$0.isEmpty }.map { run -> Cursor in
            defer { scheduled += 1 }
            return Cursor(run: run, order: scheduled)
        }
        if cursors.isEmpty {
            // The common cases (a whole script at once, a key while nothing is queued): one sort.
            cursors = added.sorted { $1.comesBefore($0) }
        } else {
            added.forEach(insert)
        }
    }

    /// Adds one gesture.
    public func schedule(_ run: EdgeRun) { schedule([run]) }

    /// Adds single edges, each as its own gesture, so they may come in any order.
    public func schedule(_ edges: [ScheduledEdge]) { schedule(edges.map { EdgeRun([$0]) }) }

    /// Puts `cursor` where its next edge belongs; usually near the end, where the soon ones are.
    private func insert(_ cursor: Cursor) {
        var index = cursors.count
        while index > 0, cursors[index - 1].comesBefore(cursor) { index -= 1 }
        cursors.insert(cursor, at: index)
    }

    /// The time of the next queued edge, if any remain.
    public var nextEdgeTime: Duration? { cursors.last?.nextTime }

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
        while var cursor = cursors.last, cursor.nextTime <= time {
            cursors.removeLast()
            let edge = cursor.run[cursor.next]
            cursor.next += 1
            if cursor.next < cursor.run.endIndex { insert(cursor) }
            guard let line = lines[edge.line], line.level != edge.active else { continue }
            line.drive(edge.active)
            edges.append(InputEdge(line: edge.line, active: edge.active, age: max(now - edge.time, .zero)))
        }
        return edges
    }
}
