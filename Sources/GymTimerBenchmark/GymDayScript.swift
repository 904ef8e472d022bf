import GymTimerCore
import GymTimerRuntime
import GymTimerSimulation
import GymTimerSimulator

/// Scripted days of gym use for the simulator: lifters arrive, set the knob, rest between
/// sets (answering the alarm late, early or not at all), and end their workout with a long
/// press of dismiss; the station stands idle overnight. Actions never overlap on one control,
/// so every press is a press the kiosk must act on. Optional extras stress the controller:
/// contact bounce, controller restarts.
public struct GymDayScript: Sendable {
    /// Hours the gym is open each day (lifters come only then).
    public var openHours: ClosedRange<Double> = 6...22
    /// Also chattering clicks.
    public var bounces = true
    /// Also controller restarts (crash, power cut, update) at random moments between actions.
    public var restarts = false

    public init(openHours: ClosedRange<Double> = 6...22, bounces: Bool = true, restarts: Bool = false) {
        self.openHours = openHours
        self.bounces = bounces
        self.restarts = restarts
    }

    /// `days` days from t = 0, the same for the same seed.
    public func make(days: Int, seed: UInt64) -> SimulationScript {
        var rng = SeededGenerator(seed: seed)
        var steps: [SimulationScript.Step] = []
        let day = 86_400.0
        for d in 0..<days {
            var t = Double(d) * day + openHours.lowerBound * 3600 + .random(in: 0...600, using: &rng)
            let close = Double(d) * day + openHours.upperBound * 3600
            while t < close {
                t = workout(from: t, into: &steps, rng: &rng)
                t += .random(in: 30...1800, using: &rng) // the station stands free
            }
        }
        for i in steps.indices { steps[i].line = i + 1 }
        return SimulationScript(steps: steps, end: .seconds(days * 86_400))
    }

    /// One lifter's workout from `start`; returns when the controls are free again.
    private func workout(from start: Double, into steps: inout [SimulationScript.Step], rng: inout SeededGenerator) -> Double {
        var t = start
        func add(_ action: SimulationScript.Action, lasting length: Double) {
            steps.append(.init(time: Self.duration(t), action: action, line: 0))
            t += length + .random(in: 0.15...3, using: &rng)
        }
        if Bool.random(using: &rng) {
            let detents = Int.random(in: -6...6, using: &rng)
            add(.turn(detents), lasting: 0.02 * Double(abs(detents)))
        }
        let sets = Int.random(in: 1...8, using: &rng)
        for _ in 0..<sets {
            // Start the rest, sometimes with a chattering contact.
            if bounces && Int.random(in: 0..<5, using: &rng) == 0 {
                add(.bounce("start"), lasting: 0.1)
            } else {
                add(.click("start"), lasting: 0.08)
            }
            if restarts && Int.random(in: 0..<12, using: &rng) == 0 { add(.restart, lasting: 0) }
            if Int.random(in: 0..<8, using: &rng) == 0 {
                // Turning the knob mid-rest changes only the next rest.
                add(.turn(Int.random(in: -2...2, using: &rng)), lasting: 0.1)
            }
            // Rest plays out (the default 90 s, or what the knob chose); the alarm is answered
            // late, early (a cancelled rest) or not at all (it times out).
            let wait = Double.random(in: 20...160, using: &rng)
            t += wait
            switch Int.random(in: 0..<10, using: &rng) {
            case 0..<5: add(.click("dismiss"), lasting: 0.08)
            case 5..<7: add(.hold("start", Self.duration(.random(in: 0.1...1.5, using: &rng))), lasting: 1.5)
            case 7: add(.hold("dismiss", Self.duration(.random(in: 0.1...1.5, using: &rng))), lasting: 1.5)
            default: t += 40 // nobody answers: the alarm times out
            }
            if restarts && Int.random(in: 0..<12, using: &rng) == 0 { add(.restart, lasting: 0) }
        }
        // End of workout: a long press of dismiss (sometimes forgotten).
        if Int.random(in: 0..<6, using: &rng) != 0 {
            let length = Double.random(in: 2.2...3.5, using: &rng)
            add(.hold("dismiss", Self.duration(length)), lasting: length)
        }
        return t
    }

    /// Seconds as a `Duration`, to the millisecond, as a script line would give it.
    private static func duration(_ seconds: Double) -> Duration {
        .milliseconds(Int64((seconds * 1000).rounded()))
    }
}
