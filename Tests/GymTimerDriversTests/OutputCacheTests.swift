import GymTimerCore
import GymTimerHAL
import GymTimerSimulation
import Testing
@testable import GymTimerDrivers
import GymTimerSystem

/// What the outputs show is known where it is written: the core says what it wants shown every
/// time, and the renderer, the lights and the buzzer put on the bus or line only what changes.
/// A fresh driver (after a restart) knows nothing, so its first write always happens. (A
/// repeated blinking display keeps its phase: `SevenSegmentRendererTests`.)
@Suite struct OutputCacheTests {
    /// An output line that counts its writes.
    final class CountingLine: DigitalOutput {
        let name: String
        var writes: [Bool] = []
        init(name: String) { self.name = name }
        func write(_ active: Bool) throws(HALError) { writes.append(active) }
    }

    @Test func aRepeatedDisplayPutsNothingOnTheBusAChangedOneDoes() throws {
        let display = SimulatedChipDisplay(chip: .tm1637)
        let chip = try #require(display.device as? SimulatedTM1637)
        let renderer = SevenSegmentRenderer(display: display, faults: FaultLog { _ in })
        renderer.show(.time(seconds: 90), at: .origin)
        let perFrame = chip.transactions.count
        #expect(perFrame > 0 && chip.frame.description == "01:30")
        renderer.show(.time(seconds: 90), at: Moment(.seconds(1)))
        renderer.show(.time(seconds: 90), at: Moment(.seconds(2)))
        #expect(chip.transactions.count == perFrame, "the same content again is no bus traffic")
        renderer.show(.time(seconds: 89), at: Moment(.seconds(3)))
        #expect(chip.transactions.count == 2 * perFrame && chip.frame.description == "01:29")
        // A new renderer on the same chip (a restarted controller) writes its first frame,
        // though the chip already shows it: it cannot know that.
        let restarted = SevenSegmentRenderer(display: display, faults: FaultLog { _ in })
        restarted.show(.time(seconds: 89), at: Moment(.seconds(4)))
        #expect(chip.transactions.count == 3 * perFrame)
    }

    @Test func repeatedLEDsWriteNoLineChangedOnesOnlyTheirs() {
        var lines: [StatusLED: CountingLine] = [:]
        for led in StatusLED.allCases { lines[led] = CountingLine(name: "led-\(led.rawValue)") }
        let lights = StatusLights(lines: lines.mapValues { $0 as any DigitalOutput }, faults: FaultLog { _ in })
        func writes() -> Int { lines.values.map(\.writes.count).reduce(0, +) }
        lights.show([.rest])
        #expect(writes() == StatusLED.allCases.count, "the first show sets every line")
        lights.show([.rest])
        lights.show([.rest])
        #expect(writes() == StatusLED.allCases.count)
        lights.show([.alarm])
        #expect(writes() == StatusLED.allCases.count + 2)
        #expect(lines[.rest]?.writes.last == false && lines[.alarm]?.writes.last == true)
        // Fresh lights on the same lines (a restarted controller) set every line again.
        let restarted = StatusLights(lines: lines.mapValues { $0 as any DigitalOutput }, faults: FaultLog { _ in })
        restarted.show([.alarm])
        #expect(writes() == 2 * StatusLED.allCases.count + 2)
    }

    @Test func aRepeatedSilenceWritesTheBuzzerLineOnce() {
        let line = CountingLine(name: "buzzer")
        let buzzer = BuzzerPlayer(line: line, faults: FaultLog { _ in })
        buzzer.play(.off, at: .origin)
        buzzer.play(.off, at: Moment(.seconds(1)))
        #expect(line.writes == [false])
        buzzer.play(BuzzerPattern(steps: [.milliseconds(100)], loops: false), at: Moment(.seconds(2)))
        buzzer.fire(at: Moment(.milliseconds(2100)))
        #expect(line.writes == [false, true, false])
    }
}
