import GymTimerCore
import GymTimerSimulation
import Testing
@testable import GymTimerDrivers
import GymTimerSystem

@Suite struct BuzzerPlayerTests {
    /// Plays `pattern` at 0 and returns the line's changes as (ms, level) up to `end` ms.
    func changes(_ pattern: BuzzerPattern, until end: Int64) -> [String] {
        var now = Moment.origin
        var log: [String] = []
        let line = SimulatedLine(name: "buzzer")
        line.onChange = { log.append("\(now.nanoseconds / 1_000_000):\($0 ? "on" : "off")") }
        let player = BuzzerPlayer(line: line, faults: FaultLog { _ in })
        player.play(pattern, at: now)
        while let due = player.nextDeadline, due.nanoseconds <= end * 1_000_000 {
            now = due
            player.fire(at: now)
        }
        return log
    }

    @Test func warningBeepIsOneHundredMilliseconds() {
        #expect(changes(.warningBeep, until: 1000) == ["0:on", "100:off"])
    }

    @Test func alarmPulsesUntilReplaced() {
        #expect(changes(.alarm, until: 1000) == ["0:on", "250:off", "500:on", "750:off", "1000:on"])
    }

    @Test func aFailingLineIsLoggedOnceAndTheBeatGoesOn() {
        let line = SimulatedLine(name: "buzzer")
        line.failure = .io(device: "gpiochip0", operation: "set GPIO18", errno: 5)
        var logged: [String] = []
        let player = BuzzerPlayer(line: line, faults: FaultLog { logged.append($0) })
        var now = Moment.origin
        player.play(.alarm, at: now)
        for _ in 0..<3 {  // 250 off, 500 on, 750 off: all fail
            now = player.nextDeadline!
            player.fire(at: now)
        }
        #expect(logged.count == 1)
        line.failure = nil
        now = player.nextDeadline!
        player.fire(at: now)
        #expect(line.level == true, "the pattern kept its timing while the line was down")
        #expect(logged == ["fault: buzzer: set GPIO18 on gpiochip0 failed: input/output error (EIO)", "recovered: buzzer works again"])
    }
}
