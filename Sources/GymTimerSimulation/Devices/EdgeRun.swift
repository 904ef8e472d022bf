/// One gesture's edges in time order, each made only when asked for: a knob turned ten
/// thousand detents holds no edges in memory, and the queue reaches the first at once.
public struct EdgeRun: RandomAccessCollection, Sendable {
    public let startIndex = 0
    public let endIndex: Int
    private let edge: @Sendable (Int) -> ScheduledEdge

    /// `count` edges, the `i`th made by `edge(i)`; their times must not decrease.
    public init(count: Int, edge: @escaping @Sendable (Int) -> ScheduledEdge) {
        endIndex = Swift.max(count, 0)
        self.edge = edge
    }

    /// Edges already made, in time order.
    public init(_ edges: [ScheduledEdge]) {
        self.init(count: edges.count) { edges[$0] }
    }

    public subscript(position: Int) -> ScheduledEdge { edge(position) }

    /// The same gesture `offset` later (a line read at run time, its times counted from then).
    public func delayed(by offset: Duration) -> EdgeRun {
        let edge = self.edge
        return EdgeRun(count: endIndex) { index in
            var shifted = edge(index)
            shifted.time += offset
            return shifted
        }
    }
}
