import GymTimerCore
import GymTimerSimulation
import Testing
@testable import GymTimerDrivers
import GymTimerSystem

@Suite struct SevenSegmentRendererTests {
    /// With `repeated`, the core says the same content again after each wake-up (it keeps no
    /// copy of what is shown): that neither restarts the blink nor writes a frame.
    @Test(arguments: [false, true]) func flashingShowsAndBlanksEveryQuarterSecond(repeated: Bool) {
        let display = SimulatedSegmentDisplay()
        var now = Moment.origin
        var frames: [String] = []
        display.onFrame = { frames.append("\(now.nanoseconds / 1_000_000) \($0)") }
        let renderer = SevenSegmentRenderer(display: display, faults: FaultLog { _ in })
        renderer.show(.time(seconds: 0, blink: .all), at: now)
        while let due = renderer.nextDeadline, due <= Moment(.seconds(1)) {
            now = due
            renderer.fire(at: now)
            if repeated { renderer.show(.time(seconds: 0, blink: .all), at: now + .milliseconds(100)) }
        }
        #expect(frames == ["0 00:00", "250     ", "500 00:00", "750     ", "1000 00:00"])
    }

    @Test func colonBlinkKeepsTheDigits() {
        let display = SimulatedSegmentDisplay()
        let renderer = SevenSegmentRenderer(display: display, faults: FaultLog { _ in })
        renderer.show(.time(seconds: 75, blink: .colon), at: .origin)
        #expect(display.frame.description == "01:15")
        renderer.fire(at: Moment(.milliseconds(250)))
        #expect(display.frame.description == "0115")
    }

    @Test func unchangedContentIsNotRewritten() {
        let display = SimulatedSegmentDisplay()
        var writes = 0
        display.onFrame = { _ in writes += 1 }
        let renderer = SevenSegmentRenderer(display: display, faults: FaultLog { _ in })
        renderer.show(.time(seconds: 90), at: .origin)
        renderer.show(.time(seconds: 90), at: Moment(.seconds(1)))
        #expect(writes == 1)
        #expect(renderer.nextDeadline == nil, "a steady display needs no wake-ups")
    }

    @Test func aFailedWriteIsRetriedEverySecondAndLoggedOnce() {
        let display = SimulatedSegmentDisplay()
        display.failure = .noAcknowledge(device: "TM1637", byte: 0x40)
        var logged: [String] = []
        let renderer = SevenSegmentRenderer(display: display, faults: FaultLog { logged.append($0) })
        renderer.show(.time(seconds: 42), at: .origin)
        #expect(renderer.nextDeadline == Moment(.seconds(1)))
        renderer.fire(at: Moment(.seconds(1)))
        display.failure = nil
        renderer.fire(at: Moment(.seconds(2)))
        #expect(display.frame.description == "00:42")
        #expect(logged.count == 2)
    }
}
