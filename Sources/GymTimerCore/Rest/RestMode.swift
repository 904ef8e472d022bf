/// The rest timer between sets (behaviour.md, "Rest mode"): idle → resting → alarm → idle.
///
/// A pure state machine: `handle(_:at:)` takes an event and the current moment and returns the
/// effects; `nextDeadline(after:)` says when it next needs to be woken. Nothing counts ticks.
public struct RestMode: Hashable, Sendable, Codable {
    /// Where the rest timer is.
    public enum Phase: Hashable, Sendable, Codable {
        /// Waiting for start; the display shows the rest duration.
        case idle
        /// Counting down. `beepsLeft` is how many of the final warning beeps are still to come,
        /// so each is given exactly once: the k-th last beep sounds when k seconds are left.
        case resting(Countdown, beepsLeft: Int)
        /// The rest is over and the alarm sounds, since the rest's deadline.
        case alarm(since: Moment)
        /// A rest paused on command with `remaining` left (start resumes it, dismiss ends it).
        case paused(remaining: Duration, beepsLeft: Int)
    }

    public let settings: RestSettings
    public internal(set) var phase: Phase = .idle
    /// The duration of the next rest, set with the knob.
    public internal(set) var durationSeconds: Int
    /// Rests completed since the workout began.
    public internal(set) var sets = 0
    /// When the first rest of this workout started.
    public internal(set) var workoutStartedAt: Moment?

    public init(settings: RestSettings) {
        self.settings = settings
        self.durationSeconds = settings.clamp(settings.defaultSeconds)
    }

    public var isIdle: Bool { phase == .idle }

    /// The outputs of the current phase, for start-up and for returning to this mode.
    public func currentOutputs(at now: Moment) -> [Effect] {
        switch phase {
        case .idle:
            return [.display(.time(seconds: durationSeconds)), .leds([.ready]), .buzzer(.off), .sound(nil)]
        case .resting(let countdown, _):
            return [.display(.time(seconds: countdown.displayedSeconds(at: now))), .leds([.rest]), .buzzer(.off), .sound(nil)]
        case .alarm:
            return [.display(.time(seconds: 0, blink: .all)), .leds([.alarm]), .buzzer(.alarm), .sound(.alarm)]
        case .paused(let remaining, _):
            let seconds = Countdown(from: now, lasting: remaining).displayedSeconds(at: now)
            return [.display(.time(seconds: seconds, blink: .colon)), .leds([.rest]), .buzzer(.off), .sound(nil)]
        }
    }

    /// The next moment this mode must be woken at, or nil when it waits for input only.
    public func nextDeadline(after now: Moment) -> Moment? {
        switch phase {
        case .idle, .paused:
            return nil
        case .resting(let countdown, let beepsLeft):
            var next = countdown.deadline
            if let boundary = countdown.nextSecondBoundary(after: now) { next = min(next, boundary) }
            if beepsLeft > 0 { next = min(next, countdown.deadline - .seconds(beepsLeft)) }
            return next
        case .alarm(let since):
            return since + .seconds(settings.alarmTimeoutSeconds)
        }
    }

    /// Reacts to one event at `now`.
    public mutating func handle(_ event: ControlEvent, at now: Moment) -> [Effect] {
        switch (event, phase) {
        case (.deadline, _):
            return advance(to: now)
        case (.pressed(.start), .idle):
            return startRest(at: now)
        case (.pressed(_), .resting):
            phase = .idle
            return currentOutputs(at: now)
        case (.pressed(.start), .alarm):
            sets += 1
            return startRest(at: now)
        case (.pressed(.start), .paused):
            return (try? resume(at: now).get()) ?? []
        case (.pressed(.dismiss), .paused):
            phase = .idle
            return currentOutputs(at: now)
        case (.pressed(.dismiss), .alarm):
            sets += 1
            phase = .idle
            return currentOutputs(at: now)
        case (.held(.dismiss), _):
            return endWorkout(at: now)
        case (.turned(let detents), _):
            durationSeconds = settings.clamp(durationSeconds + detents * settings.stepSeconds)
            return phase == .idle ? [.display(.time(seconds: durationSeconds))] : []
        default:
            return []
        }
    }

    /// Ends the workout: the sets so far go to the history, the counter starts again, idle.
    public mutating func endWorkout(at now: Moment) -> [Effect] {
        var effects: [Effect] = []
        if sets > 0, let started = workoutStartedAt {
            effects.append(.record(WorkoutRecord(kind: .rest, sets: sets, duration: now - started, endedAt: now)))
        }
        sets = 0
        workoutStartedAt = nil
        phase = .idle
        return effects + currentOutputs(at: now)
    }

    /// Closes the workout for the athlete leaving the station (another card tapped, a tap out,
    /// the station idle too long): the sets so far are recorded as theirs and the count starts
    /// again; a rest under way runs on, as the first of the next athlete's workout.
    public mutating func handOver(at now: Moment) -> WorkoutRecord? {
        var record: WorkoutRecord?
        if sets > 0, let started = workoutStartedAt {
            record = WorkoutRecord(kind: .rest, sets: sets, duration: now - started, endedAt: now)
        }
        sets = 0
        workoutStartedAt = phase == .idle ? nil : now
        return record
    }

    private mutating func startRest(at now: Moment) -> [Effect] {
        if workoutStartedAt == nil { workoutStartedAt = now }
        let countdown = Countdown(from: now, lasting: .seconds(durationSeconds))
        phase = .resting(countdown, beepsLeft: max(0, min(settings.warningSeconds, durationSeconds - 1)))
        return currentOutputs(at: now)
    }

    private mutating func advance(to now: Moment) -> [Effect] {
        switch phase {
        case .idle, .paused:
            return []
        case .resting(let countdown, var beepsLeft):
            if now >= countdown.deadline {
                // Woken after the alarm would already have timed out (the controller was down):
                // the rest still counts as a set, but nobody is there to call back to the bar.
                if now >= countdown.deadline + .seconds(settings.alarmTimeoutSeconds) {
                    sets += 1
                    phase = .idle
                } else {
                    phase = .alarm(since: countdown.deadline)
                }
                return currentOutputs(at: now)
            }
            var effects: [Effect] = [.display(.time(seconds: countdown.displayedSeconds(at: now)))]
            // Every beep that has fallen due is consumed; a loop that woke late gives one beep, not a burst.
            var beepDue = false
            while beepsLeft > 0 && now >= countdown.deadline - .seconds(beepsLeft) {
                beepsLeft -= 1
                beepDue = true
            }
            if beepDue { effects.append(.buzzer(.warningBeep)) }
            phase = .resting(countdown, beepsLeft: beepsLeft)
            return effects
        case .alarm(let since):
            guard now >= since + .seconds(settings.alarmTimeoutSeconds) else { return [] }
            sets += 1
            phase = .idle
            return currentOutputs(at: now)
        }
    }
}

extension RestMode {
    /// Sets the next rest's length on command, in idle: `seconds` must lie in the knob's range
    /// and on its step (counted from the current length, as the knob turns, or from the range's
    /// start, as Home Assistant's slider does), or be an end of the range; anything else is
    /// refused, never clamped.
    public mutating func setDuration(seconds: Int, at now: Moment) -> Result<[Effect], KioskRefusal> {
        guard phase == .idle else { return .failure(KioskRefusal("set", "only while the rest timer is idle")) }
        let step = max(1, settings.stepSeconds)
        let inRange = (settings.minSeconds...max(settings.minSeconds, settings.maxSeconds)).contains(seconds)
        let onKnob = seconds == settings.minSeconds || seconds == settings.maxSeconds
            || inRange && ((seconds - durationSeconds) % step == 0 || (seconds - settings.minSeconds) % step == 0)
        guard onKnob else {
            return .failure(KioskRefusal(
                "set", "\(seconds) s is not on the knob: \(settings.minSeconds)–\(settings.maxSeconds) s, "
                    + "in steps of \(step) s from \(durationSeconds) s"))
        }
        durationSeconds = seconds
        return .success([.display(.time(seconds: durationSeconds))])
    }
}

extension RestMode: RunControllable {
    /// Pauses a rest under way (the countdown keeps what is left); nothing else runs to pause.
    public mutating func pause(at now: Moment) -> Result<[Effect], KioskRefusal> {
        guard case .resting(let countdown, let beepsLeft) = phase, now < countdown.deadline else {
            return .failure(KioskRefusal("pause", phase == .idle ? "no rest is running" : "the rest is not counting down"))
        }
        phase = .paused(remaining: countdown.remaining(at: now), beepsLeft: beepsLeft)
        return .success(currentOutputs(at: now))
    }

    /// Resumes a paused rest: what was left ends that long after `now`.
    public mutating func resume(at now: Moment) -> Result<[Effect], KioskRefusal> {
        guard case .paused(let remaining, let beepsLeft) = phase else {
            return .failure(KioskRefusal("resume", "no rest is paused"))
        }
        phase = .resting(Countdown(from: now, lasting: remaining), beepsLeft: beepsLeft)
        return .success(currentOutputs(at: now))
    }

    /// Ends the rest and the workout's count without recording them: idle, as at start-up.
    public mutating func reset(at now: Moment) -> [Effect] {
        sets = 0
        workoutStartedAt = nil
        phase = .idle
        return currentOutputs(at: now)
    }
}
