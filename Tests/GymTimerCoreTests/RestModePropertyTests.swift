import Testing
@testable import GymTimerCore

/// Thousands of random event sequences at random instants, checking what must always hold.
@Suite struct RestModePropertyTests {
    @Test func invariantsHoldForThousandsOfRandomSequences() {
        for seed in 0..<2000 as Range<UInt64> { check(seed: seed) }
    }

    func check(seed: UInt64) {
        var rng = SeededGenerator(seed: seed)
        let settings = RestSettings(
            defaultSeconds: 15 + Int(rng.next() % 20) * 5, stepSeconds: 5 + Int(rng.next() % 3) * 5,
            warningSeconds: Int(rng.next() % 5), alarmTimeoutSeconds: 5 + Int(rng.next() % 30))
        var mode = RestMode(settings: settings)
        var now = Moment.origin
        var shownDuringRest: Int?
        var buzzer = BuzzerPattern.off
        for _ in 0..<150 {
            // Either the next deadline, or an input at a random instant before it.
            let gap = Duration.milliseconds(Int64(rng.next() % 40_000))
            let event: ControlEvent
            if let due = mode.nextDeadline(after: now), due <= now + gap {
                #expect(due >= now, "deadlines are never in the past (seed \(seed))")
                now = due
                event = .deadline
            } else {
                now = now + gap
                event = [.pressed(.start), .pressed(.dismiss), .held(.dismiss), .turned(Int(rng.next() % 7) - 3),
                         .released(.start)][Int(rng.next() % 5)]
            }
            let before = mode.phase
            let effects = mode.handle(event, at: now)
            for effect in effects {
                if case .buzzer(let pattern) = effect { buzzer = pattern }
                guard case .display(let content) = effect, case .resting = mode.phase, case .resting = before else { continue }
                let seconds = Int(content.text.prefix(2))! * 60 + Int(content.text.suffix(2))!
                #expect(seconds >= 0)
                if let previous = shownDuringRest { #expect(seconds <= previous, "the countdown never goes up (seed \(seed))") }
                shownDuringRest = seconds
            }
            if case .resting = mode.phase, case .resting = before {} else { shownDuringRest = nil }
            if case .alarm(let since) = mode.phase, case .resting(let countdown, _) = before {
                #expect(since == countdown.deadline)
                #expect(now >= countdown.deadline, "the alarm never starts early (seed \(seed))")
            }
            if mode.phase == .idle { #expect(buzzer == .off, "the buzzer is off whenever idle (seed \(seed))") }
            #expect((settings.minSeconds...settings.maxSeconds).contains(mode.durationSeconds))
        }
    }
}
