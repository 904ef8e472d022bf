import GymTimerCore
import GymTimerHAL
import Testing
@testable import GymTimerDrivers

/// The input front end against simulated edges, as a wake-up of the loop reads them.
@Suite struct InputFrontEndTests {
    func ms(_ value: Double) -> Moment { Moment(nanoseconds: Int64((value * 1e6).rounded())) }

    /// Each event as `kind@ms`.
    func text(_ events: [InputFrontEnd.Event]) -> [String] {
        events.map { event in
            let at = Double(event.at.nanoseconds) / 1e6
            let stamp = at == at.rounded() ? String(Int(at)) : String(at)
            switch event.kind {
            case .pressed(let role): return "pressed \(role.lineName)@\(stamp)"
            case .released(let role): return "released \(role.lineName)@\(stamp)"
            case .held(let role): return "held \(role.lineName)@\(stamp)"
            case .turned(let detents): return "turned \(detents)@\(stamp)"
            }
        }
    }

    /// Feeds each edge (ms, line, level) at its own moment, and wakes at every deadline the
    /// front end asks for, up to `end` ms, as the loop does.
    func run(_ front: inout InputFrontEnd, _ edges: [(Double, String, Bool)], until end: Double) -> [String] {
        var out: [String] = []
        var pending = edges[...]
        while true {
            let nextEdge = pending.first.map { ms($0.0) }
            guard let next = [nextEdge, front.nextDeadline].compactMap({ $0 }).min(), next <= ms(end) else { break }
            var batch: [InputEdge] = []
            while let edge = pending.first, ms(edge.0) == next {
                batch.append(InputEdge(line: edge.1, active: edge.2))
                pending = pending.dropFirst()
            }
            out += text(front.feed(batch, at: next))
        }
        return out
    }

    func frontEnd(encoder: (a: Bool, b: Bool)? = (false, false)) -> InputFrontEnd {
        InputFrontEnd(buttons: [.start, .dismiss, .encoderSwitch], encoder: encoder)
    }

    @Test func aBouncingPressIsOnePressAndOneRelease() {
        var front = frontEnd()
        let chatter: [(Double, String, Bool)] = [
            (100, "start", true), (100.5, "start", false), (101, "start", true), (101.5, "start", false),
            (102, "start", true), (180, "start", false), (180.5, "start", true), (181, "start", false),
        ]
        #expect(run(&front, chatter, until: 500) == ["pressed start@112", "released start@191"])
    }

    @Test func aPressAndItsReleaseReadInOneWakeUpBothCount() {
        var front = frontEnd()
        // Pressed 90 ms before the wake-up, released 20 ms before it: 70 ms down.
        let events = front.feed([
            InputEdge(line: "start", active: true, age: .milliseconds(90)),
            InputEdge(line: "start", active: false, age: .milliseconds(20)),
        ], at: ms(100))
        #expect(text(events) == ["pressed start@20", "released start@90"])
        #expect(events.map(\.control) == [.pressed(.start), .released(.start)])
        #expect(front.nextDeadline == nil)
    }

    @Test func aBlipShorterThanTheSettleTimeIsNothing() {
        var front = frontEnd()
        let events = front.feed([
            InputEdge(line: "dismiss", active: true, age: .milliseconds(30)),
            InputEdge(line: "dismiss", active: false, age: .milliseconds(25)),
        ], at: ms(100))
        #expect(events.isEmpty)
        #expect(front.nextDeadline == nil)
    }

    @Test func detentsInBothDirections() {
        var front = frontEnd()
        let clockwise: [(Double, String, Bool)] = [
            (10, "encoder-a", true), (12, "encoder-b", true), (14, "encoder-a", false), (16, "encoder-b", false),
        ]
        let counter: [(Double, String, Bool)] = [
            (50, "encoder-b", true), (52, "encoder-a", true), (54, "encoder-b", false), (56, "encoder-a", false),
        ]
        #expect(run(&front, clockwise + counter, until: 100) == ["turned 1@16", "turned -1@56"])
    }

    @Test func aDetentReadInOneWakeUpIsDatedByItsLastEdge() {
        var front = frontEnd()
        let events = front.feed([
            InputEdge(line: "encoder-a", active: true, age: .milliseconds(8)),
            InputEdge(line: "encoder-b", active: true, age: .milliseconds(6)),
            InputEdge(line: "encoder-a", active: false, age: .milliseconds(4)),
            InputEdge(line: "encoder-b", active: false, age: .milliseconds(2)),
        ], at: ms(100))
        #expect(text(events) == ["turned 1@98"])
        #expect(events.map(\.control) == [.turned(1)])
    }

    @Test func theKnobDecodesFromTheLevelsItRestsAt() {
        // Both contacts closed at start-up: opening them is the second half of a clockwise detent.
        let edges: [(Double, String, Bool)] = [(10, "encoder-a", false), (12, "encoder-b", false)]
        var closed = frontEnd(encoder: (true, true))
        #expect(run(&closed, edges, until: 100) == ["turned 1@12"])
        var open = frontEnd(encoder: (false, false))
        #expect(run(&open, edges, until: 100) == [])
    }

    @Test func aHoldIsReportedAtTheHoldTimeAndTheSwitchIsAStartButton() {
        var front = frontEnd()
        #expect(run(&front, [(0, "encoder-switch", true), (2500, "encoder-switch", false)], until: 3000) == [
            "pressed encoder-switch@10", "held encoder-switch@2010", "released encoder-switch@2510",
        ])
        var again = frontEnd()
        _ = again.feed([InputEdge(line: "encoder-switch", active: true)], at: ms(0))
        #expect(again.nextDeadline == ms(10))
        #expect(again.advance(to: ms(10)).map(\.control) == [.pressed(.start)])
        #expect(again.nextDeadline == ms(2010))
        #expect(again.advance(to: ms(2010)).map(\.control) == [.held(.start)])
        #expect(again.heldPresses == [.encoderSwitch: HeldPress(holdPendingSince: nil)])
    }

    @Test func linesOfNoFittedRoleAreIgnored() {
        var front = InputFrontEnd(buttons: [.start], encoder: nil)
        let events = front.feed([
            InputEdge(line: "dismiss", active: true, age: .milliseconds(50)),
            InputEdge(line: "encoder-a", active: true, age: .milliseconds(40)),
            InputEdge(line: "buzzer", active: true, age: .milliseconds(30)),
        ], at: ms(100))
        #expect(events.isEmpty && front.nextDeadline == nil)
    }

    @Test func aResumedPressIsHeldWhenDue() {
        var front = frontEnd()
        front.resume(.start, HeldPress(holdPendingSince: ms(0)))
        #expect(front.nextDeadline == ms(2000))
        #expect(text(front.advance(to: ms(2000))) == ["held start@2000"])
    }

    @Test func theDefaultsAreTheSpecsSettleAndHold() {
        #expect(InputFrontEnd.defaultSettle == .milliseconds(10) && InputFrontEnd.defaultHold == .seconds(2))
        #expect(InputRole.encoderA.lineName == "encoder-a" && InputRole(lineName: "encoder-switch") == .encoderSwitch)
    }
}
