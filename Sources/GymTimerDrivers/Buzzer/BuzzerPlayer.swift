import GymTimerCore
import GymTimerHAL
import GymTimerSystem

/// Plays `BuzzerPattern`s on the buzzer's output line: each step at its exact moment, looping
/// patterns until replaced. A failing line is logged once and the pattern keeps its timing.
public final class BuzzerPlayer: TimedDriver {
    private let line: any DigitalOutput
    private let faults: FaultLog
    private var pattern = BuzzerPattern.off
    private var startedAt = Moment.origin
    /// Index of the step now playing, counted across loops.
    private var step = 0
    private var stepEndsAt: Moment?
    /// The level last written (nil: unknown, so the first write always happens).
    private var written: Bool?

    public init(line: any DigitalOutput, faults: FaultLog) {
        self.line = line
        self.faults = faults
    }

    /// Whether the buzzer is sounding now.
    public var isOn: Bool { written ?? false }

    /// Starts `pattern` at `now`, replacing the current one (`.off` silences).
    public func play(_ pattern: BuzzerPattern, at now: Moment) {
        self.pattern = pattern
        startedAt = now
        step = 0
        if pattern.steps.isEmpty {
            stepEndsAt = nil
            set(false)
        } else {
            stepEndsAt = now + pattern.steps[0]
            set(true)
        }
    }

    public var nextDeadline: Moment? { stepEndsAt }

    public func fire(at now: Moment) {
        while let end = stepEndsAt, now >= end {
            step += 1
            let count = pattern.steps.count
            if step >= count && !pattern.loops {
                stepEndsAt = nil
                set(false)
                return
            }
            stepEndsAt = end + pattern.steps[step % count]
            set(step % 2 == 0)
        }
    }

    private func set(_ on: Bool) {
        guard written != on || faults.isFailing(line.name) else { return }
        if faults.attempt(line.name, { try line.write(on) }) != nil { written = on }
    }
}
