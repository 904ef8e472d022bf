import Testing
@testable import GymTimerSimulation

@Suite struct TerminalEventLogTests {
    static func s(_ seconds: Double) -> Duration { .milliseconds(Int(seconds * 1000)) }

    @Test func keepsTheLastFiveWithTheirTimes() {
        var log = TerminalEventLog()
        for i in 1...7 { log.note("event \(i)", at: Self.s(Double(i) * 10.5)) }
        #expect(log.lines() == ["0:31.5  event 3", "0:42.0  event 4", "0:52.5  event 5", "1:03.0  event 6", "1:13.5  event 7"])
    }

    @Test func aRunOfDetentsIsOneTurnUntilSomethingElseHappens() {
        var log = TerminalEventLog()
        for i in 0..<6 { log.knob(-1, at: Self.s(1 + Double(i) * 0.02)) }
        #expect(log.lines() == ["0:01.0  knob −6"])
        // Turned back: a turn of its own at its own time, not a net −4 at 0:01.0.
        log.knob(2, at: Self.s(1.5))
        #expect(log.lines() == ["0:01.0  knob −6", "0:01.5  knob +2"])
        log.knob(1, at: Self.s(1.55))
        #expect(log.lines() == ["0:01.0  knob −6", "0:01.5  knob +3"])
        log.note("start pressed", at: Self.s(1.6))
        log.knob(1, at: Self.s(1.7))
        #expect(log.lines() == ["0:01.0  knob −6", "0:01.5  knob +3", "0:01.6  start pressed", "0:01.7  knob +1"])
        log.knob(1, at: Self.s(3))
        #expect(log.lines().last == "0:03.0  knob +1")
    }

    @Test func aPulsingBuzzerIsOneBeepAndCountdownBeepsAreEach() {
        var log = TerminalEventLog()
        // 3-2-1: three beeps a second apart, each 100 ms.
        var rang: [Bool] = []
        for t in [87.0, 88.0, 89.0] {
            rang.append(log.buzzer(true, at: Self.s(t)))
            _ = log.buzzer(false, at: Self.s(t + 0.1))
        }
        // The alarm pulses every 250 ms: one beep.
        for k in 0..<8 { rang.append(log.buzzer(k % 2 == 0, at: Self.s(90 + Double(k) * 0.25))) }
        #expect(rang == [true, true, true, true, false, false, false, false, false, false, false])
        #expect(log.lines() == ["1:27.0  beep", "1:28.0  beep", "1:29.0  beep", "1:30.0  beep"])
    }

    @Test func cuesShowWhatIsSaid() {
        var log = TerminalEventLog()
        log.sound("set-3", at: Self.s(5))
        log.sound(nil, at: Self.s(6))
        log.sound("alarm", at: Self.s(7))
        #expect(log.lines() == ["0:05.0  ♪ \"Set 3 completing in 3, 2, 1\"", "0:07.0  ♪ alarm"])
    }

    @Test func theScreenShowsTheNewestEventsThatFit() {
        let screen = KioskScreen(colour: false)
        screen.events = (1...5).map { "0:0\($0).0  event \($0)" }
        screen.size = TerminalSize(columns: 100, rows: 40)
        #expect(Array(screen.lines().suffix(6).map { $0.trimmingPrefixSpaces() }) == [""] + screen.events)
        // 80×24: the panel and as many of the newest as the rows left allow.
        screen.size = .standard
        let lines = screen.lines()
        #expect(lines.count <= 24)
        let room = 24 - screen.panel(scale: 1).count - 1
        #expect(room >= 1)
        #expect(Array(lines.suffix(room).map { $0.trimmingPrefixSpaces() }) == Array(screen.events.suffix(room)))
        screen.sound = "complete"
        #expect(screen.lines().contains { $0.hasSuffix("sound  ♪ \"Workout complete\"") })
    }
}
