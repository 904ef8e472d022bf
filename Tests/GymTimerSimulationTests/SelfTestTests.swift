import GymTimerCore
import GymTimerHAL
import GymTimerSimulation
import Testing
@testable import GymTimerKiosk
@testable import GymTimerRuntime

/// The self-test's sequence against simulated devices, in virtual time.
@Suite struct SelfTestTests {
    /// Everything that happened, outputs and printed lines, in order.
    final class Log {
        var entries: [String] = []
    }

    func makeSelfTest(edges: [ScriptedInputs.ScheduledEdge], end: Duration, log: Log)
        -> (SelfTest<VirtualClock>, VirtualClock)
    {
        let clock = VirtualClock()
        let inputs = ScriptedInputs(clock: clock, buttons: ["start", "dismiss"], edges: edges)
        inputs.limit = end
        let display = SimulatedSegmentDisplay()
        display.onFrame = { log.entries.append("frame \($0)") }
        let leds = StatusLED.allCases.enumerated().map { index, led in
            let line = SimulatedLine(name: "led-\(led.rawValue)")
            line.onChange = { log.entries.append("led \(led.rawValue) \($0 ? "on" : "off")") }
            return SelfTest<VirtualClock>.Output(name: led.rawValue, wiring: "line \(index)", line: line)
        }
        let buzzerLine = SimulatedLine(name: "buzzer")
        buzzerLine.onChange = { log.entries.append("buzzer \($0 ? "on" : "off")") }
        let selfTest = SelfTest(
            clock: clock, waiter: inputs, display: display, leds: leds,
            buzzer: .init(name: "buzzer", wiring: "GPIO18", line: buzzerLine),
            buttons: [.init(role: .start, label: "start"), .init(role: .dismiss, label: "dismiss")],
            encoder: (inputs.lines[ScriptedInputs.encoderA]!, inputs.lines[ScriptedInputs.encoderB]!),
            print: { log.entries.append("print \($0)") })
        return (selfTest, clock)
    }

    @Test func showsTheDisplayThenEachLEDThenBeeps() throws {
        let log = Log()
        let (selfTest, clock) = makeSelfTest(edges: [], end: .seconds(30), log: log)
        try selfTest.run(shouldStop: { clock.now.offset >= .seconds(30) })
        let outputs = log.entries.filter { !$0.hasPrefix("print") }
        #expect(outputs == [
            "frame 88:88", "frame 8   ", "frame  8  ", "frame   8 ", "frame    8", "frame     ",
            "led ready on", "led ready off", "led rest on", "led rest off", "led alarm on", "led alarm off",
            "led low on", "led low off", "led high on", "led high off", "buzzer on", "buzzer off",
        ])
        #expect(log.entries.first == "print [    0.000] display: every segment (8.8.:8.8.)")
        #expect(log.entries.contains("print [    4.200] led rest (line 1)"))
        #expect(log.entries.contains("print [    7.000] buzzer (GPIO18): beep"))
        #expect(log.entries.last == "print [    7.200] press the buttons and turn the knob; Ctrl-C ends the self-test")
    }

    @Test func allLitIsEverySegmentAndTheColon() throws {
        let display = SimulatedSegmentDisplay()
        try display.show(.allLit)
        #expect(display.frame.digits == [0xFF, 0xFF, 0xFF, 0xFF] && display.frame.colon)
    }

    @Test func reportsPressesHoldsAndDetentsWithTheirTimes() throws {
        let log = Log()
        var edges: [ScriptedInputs.ScheduledEdge] = [
            .init(time: .seconds(10), line: "start", active: true),
            .init(time: .milliseconds(10_080), line: "start", active: false),
            .init(time: .seconds(12), line: "dismiss", active: true),
            .init(time: .seconds(15), line: "dismiss", active: false),
        ]
        let script = try ScriptParser().parse("20 turn 2\n21 turn -1\n25 end")
        edges += ScriptedInputs.gestures(for: script).flatMap { $0 }
        let (selfTest, clock) = makeSelfTest(edges: edges, end: .seconds(25), log: log)
        try selfTest.run(shouldStop: { clock.now.offset >= .seconds(25) })
        let inputs = log.entries.drop { !$0.contains("Ctrl-C") }.dropFirst()
        #expect(Array(inputs) == [
            "print [   10.010] start pressed",
            "print [   10.090] start released",
            "print [   12.010] dismiss pressed",
            "print [   14.010] dismiss held",
            "print [   15.010] dismiss released",
            "print [   20.006] knob +1 (clockwise)",
            "print [   20.026] knob +1 (clockwise)",
            "print [   21.006] knob -1 (counter-clockwise)",
        ])
    }

    /// A loop that wakes late gets a press and its release in one batch; the press was held far
    /// beyond the settle time and must be reported, as the kiosk counts it (`LateWakeupTests`).
    @Test func aPressAndItsReleaseReadInOneWakeUpAreBothReported() throws {
        let clock = VirtualClock()
        // Pressed 90 ms before the wake-up, released 20 ms before it: 70 ms down.
        let waiter = LateWakeupTests.LateWaiter(clock: clock, batches: [[
            InputEdge(line: "start", active: true, age: .milliseconds(90)),
            InputEdge(line: "start", active: false, age: .milliseconds(20)),
        ]])
        var printed: [String] = []
        let selfTest = SelfTest(
            clock: clock, waiter: waiter, display: SimulatedSegmentDisplay(), leds: [],
            buzzer: .init(name: "buzzer", wiring: "GPIO18", line: SimulatedLine(name: "buzzer")),
            buttons: [.init(role: .start, label: "start")], encoder: nil, print: { printed.append($0) })
        try selfTest.watch(until: Moment(.milliseconds(300)), shouldStop: { false })
        #expect(printed == ["[    0.020] start pressed", "[    0.090] start released"])
    }

    @Test func timestampsAreSecondsToTheMillisecond() {
        #expect(SelfTest<VirtualClock>.timestamp(Moment(.milliseconds(12_345))) == "   12.345")
        #expect(SelfTest<VirtualClock>.timestamp(.origin) == "    0.000")
    }
}
