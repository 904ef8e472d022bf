import GymTimerHAL
import Testing
@testable import GymTimerSimulation

/// The queue of gestures on the simulated lines: edges come out in time order, ties in the
/// order scheduled, and a long knob turn is made edge by edge as it comes due.
@Suite struct EdgeQueueTests {
    static let ms = Duration.milliseconds(1)

    /// Every edge the queue delivers, dated at the moment it was due.
    func drain(_ queue: EdgeQueue) -> [ScheduledEdge] {
        var delivered: [ScheduledEdge] = []
        while let next = queue.nextEdgeTime {
            for edge in queue.deliver(through: next, now: next) {
                delivered.append(ScheduledEdge(time: next, line: edge.line, active: edge.active))
            }
        }
        return delivered
    }

    @Test func aTurnIsFourEdgesPerDetentALeadingBClockwise() {
        let turn = Array(InputGestures.turn(2, at: .seconds(1)))
        #expect(turn == [
            ScheduledEdge(time: .seconds(1), line: "encoder-a", active: true),
            ScheduledEdge(time: .seconds(1) + Self.ms * 2, line: "encoder-b", active: true),
            ScheduledEdge(time: .seconds(1) + Self.ms * 4, line: "encoder-a", active: false),
            ScheduledEdge(time: .seconds(1) + Self.ms * 6, line: "encoder-b", active: false),
            ScheduledEdge(time: .seconds(1) + Self.ms * 20, line: "encoder-a", active: true),
            ScheduledEdge(time: .seconds(1) + Self.ms * 22, line: "encoder-b", active: true),
            ScheduledEdge(time: .seconds(1) + Self.ms * 24, line: "encoder-a", active: false),
            ScheduledEdge(time: .seconds(1) + Self.ms * 26, line: "encoder-b", active: false),
        ])
        #expect(Array(InputGestures.turn(-1, at: .zero)).map(\.line) == ["encoder-b", "encoder-a", "encoder-b", "encoder-a"])
    }

    @Test func aBillionDetentsCostNothingUntilTheyAreTurned() {
        // Built up front this was 4 billion edges: minutes and tens of gigabytes.
        let queue = EdgeQueue(buttons: ["start"])
        queue.schedule(InputGestures.turn(1_000_000_000, at: .zero))
        queue.schedule(InputGestures.click("start", at: Self.ms))
        #expect(queue.nextEdgeTime == .zero)
        let firstFive = queue.deliver(through: Self.ms * 4, now: Self.ms * 4)
        #expect(firstFive.map(\.line) == ["encoder-a", "start", "encoder-b", "encoder-a"])
        #expect(queue.nextEdgeTime == Self.ms * 6)
        // The turn's last detent starts 20 ms × (10⁹ − 1) after its first.
        let last = InputGestures.turn(1_000_000_000, at: .zero).last
        #expect(last == ScheduledEdge(time: Self.ms * 20 * 999_999_999 + Self.ms * 6, line: "encoder-b", active: false))
        #expect(InputGestures.turn(Int.min, at: .zero).count == Int.max / 4 * 4, "no trap on the most negative count")
    }

    @Test func gesturesInterleaveByTimeAndTiesKeepTheOrderScheduled() {
        let queue = EdgeQueue(buttons: ["start", "dismiss"])
        queue.schedule([
            InputGestures.turn(1, at: .zero),
            InputGestures.hold("start", at: Self.ms * 2, for: Self.ms * 2),
            InputGestures.click("dismiss", at: Self.ms * 4),
        ])
        #expect(drain(queue) == [
            ScheduledEdge(time: .zero, line: "encoder-a", active: true),
            ScheduledEdge(time: Self.ms * 2, line: "encoder-b", active: true),
            ScheduledEdge(time: Self.ms * 2, line: "start", active: true),
            ScheduledEdge(time: Self.ms * 4, line: "encoder-a", active: false),
            ScheduledEdge(time: Self.ms * 4, line: "start", active: false),
            ScheduledEdge(time: Self.ms * 4, line: "dismiss", active: true),
            ScheduledEdge(time: Self.ms * 6, line: "encoder-b", active: false),
            ScheduledEdge(time: Self.ms * 84, line: "dismiss", active: false),
        ])
    }

    @Test func edgesScheduledLaterComeAfterThoseAlreadyQueuedForTheSameInstant() {
        let queue = EdgeQueue(buttons: ["start", "dismiss"])
        queue.schedule(InputGestures.press("start", at: Self.ms * 10))
        queue.schedule([ScheduledEdge(time: Self.ms * 10, line: "dismiss", active: true),
                        ScheduledEdge(time: Self.ms * 5, line: "dismiss", active: false)])
        #expect(drain(queue).map(\.line) == ["start", "dismiss"], "the release at 5 ms changes nothing and is dropped")
    }

    @Test func aScriptsLongTurnRunsInVirtualTimeWithEveryDetentCounted() throws {
        // 10 000 detents (the most one line may turn) take 200 s of knob; each moves the rest by 5 s
        // until the knob's limit.
        let script = try ScriptParser().parse("0 turn -10000\n300 end\n")
        let gestures = ScriptedInputs.gestures(for: script)
        #expect(gestures.map(\.count) == [40_000])
        let clock = VirtualClock()
        let inputs = ScriptedInputs(clock: clock, buttons: ["start", "dismiss"])
        inputs.schedule(gestures)
        var edges = 0
        while inputs.nextEdgeTime != nil { edges += try inputs.wait(timeout: nil).count }
        #expect(edges == 40_000)
        #expect(clock.now.offset == Self.ms * 20 * 9_999 + Self.ms * 6)
    }
}
