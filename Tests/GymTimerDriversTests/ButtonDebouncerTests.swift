import GymTimerCore
import Testing
@testable import GymTimerDrivers

@Suite struct ButtonDebouncerTests {
    func ms(_ value: Double) -> Moment { Moment(nanoseconds: Int64(value * 1e6)) }

    /// Feeds edges (ms, level) and advances through every deadline up to `end` ms.
    func gestures(_ edges: [(Double, Bool)], until end: Double) -> [String] {
        var debouncer = ButtonDebouncer()
        var out: [String] = []
        var pending = edges[...]
        var now = ms(0)
        while true {
            let nextEdge = pending.first.map { ms($0.0) }
            let due = debouncer.nextDeadline
            guard let next = [nextEdge, due].compactMap({ $0 }).min(), next <= ms(end) else { break }
            now = next
            out += debouncer.advance(to: now).map { "\($0.0)@\($0.1)" }
            while let edge = pending.first, ms(edge.0) == now {
                debouncer.edge(active: edge.1, at: now)
                pending = pending.dropFirst()
            }
            out += debouncer.advance(to: now).map { "\($0.0)@\($0.1)" }
        }
        return out
    }

    @Test func aCleanPressActsAfterTheSettleTime() {
        #expect(gestures([(100, true), (180, false)], until: 500) == [
            "pressed@0.11 seconds", "released@0.19 seconds",
        ])
    }

    @Test func chatterOnPressAndReleaseIsOnePress() {
        let chatter: [(Double, Bool)] = [(100, true), (100.5, false), (101, true), (101.5, false), (102, true),
                                         (180, false), (180.5, true), (181, false), (181.5, true), (182, false)]
        let out = gestures(chatter, until: 500)
        #expect(out == ["pressed@0.112 seconds", "released@0.192 seconds"])
    }

    @Test func pressActsWithinThirtyMilliseconds() {
        // Worst realistic chatter: 10 ms of bouncing still acts within 30 ms of the first contact.
        var edges: [(Double, Bool)] = []
        for i in 0..<21 { edges.append((100 + Double(i) * 0.5, i % 2 == 0)) }
        let out = gestures(edges, until: 300)
        #expect(out == ["pressed@0.12 seconds"])
    }

    @Test func aNoiseSpikeIsRejected() {
        #expect(gestures([(100, true), (101, false), (300, true), (302, false)], until: 500) == [])
    }

    @Test func holdingTwoSecondsReportsHeldOnce() {
        let out = gestures([(100, true), (2500, false)], until: 5000)
        #expect(out == ["pressed@0.11 seconds", "held@2.11 seconds", "released@2.51 seconds"])
    }

    @Test func releasingBeforeTwoSecondsIsNoHold() {
        let out = gestures([(100, true), (2050, false)], until: 5000)
        #expect(out == ["pressed@0.11 seconds", "released@2.06 seconds"])
    }

    /// A loop that wakes late, after the release of a long press, hears what an on-time one
    /// would have: the hold first, then the release (a lost hold once ended nothing on a loaded machine).
    @Test func aHoldReadOnlyAfterItsReleaseIsStillAHold() {
        var debouncer = ButtonDebouncer()
        debouncer.edge(active: true, at: ms(100))
        #expect(debouncer.advance(to: ms(110)).map { "\($0.0)@\($0.1)" } == ["pressed@0.11 seconds"])
        debouncer.edge(active: false, at: ms(2500))
        let late = debouncer.advance(to: ms(2900)).map { "\($0.0)@\($0.1)" }
        #expect(late == ["held@2.11 seconds", "released@2.51 seconds"])
        // A release that settled before the hold time is still no hold, however late it is read.
        var short = ButtonDebouncer()
        short.edge(active: true, at: ms(100))
        _ = short.advance(to: ms(110))
        short.edge(active: false, at: ms(2050))
        #expect(short.advance(to: ms(3000)).map { "\($0.0)" } == ["released"])
    }
}
