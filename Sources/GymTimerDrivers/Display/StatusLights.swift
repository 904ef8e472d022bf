import GymTimerCore
import GymTimerHAL
import GymTimerSystem

/// The status LEDs, one output line each: lights exactly the set it is given, writing only
/// the lines that change (each line once at first, a failing one until it works). LEDs
/// without a line (not fitted) are skipped.
public final class StatusLights {
    private let lines: [StatusLED: any DigitalOutput]
    private let faults: FaultLog
    private var lit: [StatusLED: Bool] = [:]

    public init(lines: [StatusLED: any DigitalOutput], faults: FaultLog) {
        self.lines = lines
        self.faults = faults
    }

    /// Lights `on` and darkens every other LED.
    public func show(_ on: Set<StatusLED>) {
        for led in StatusLED.allCases {
            guard let line = lines[led] else { continue }
            let want = on.contains(led)
            guard lit[led] != want || faults.isFailing(line.name) else { continue }
            if faults.attempt(line.name, { try line.write(want) }) != nil { lit[led] = want }
        }
    }
}
