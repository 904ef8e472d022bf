import Testing
@testable import GymTimerCore

/// One test per row of the rest-mode table in behaviour.md, on the pure state machine.
@Suite struct RestModeTableTests {
    let settings = RestSettings()

    func at(_ seconds: Double) -> Moment { Moment(nanoseconds: Int64(seconds * 1e9)) }

    /// Drives the mode through its deadlines up to `end`, collecting every effect with its moment.
    func run(_ mode: inout RestMode, from start: Moment, to end: Moment) -> [(Moment, Effect)] {
        var log: [(Moment, Effect)] = []
        var now = start
        while let due = mode.nextDeadline(after: now), due <= end {
            now = due
            log += mode.handle(.deadline, at: now).map { (now, $0) }
        }
        return log
    }

    @Test func idleShowsTheDurationWithOnlyReadyLit() {
        let mode = RestMode(settings: settings)
        #expect(mode.currentOutputs(at: .origin) == [
            .display(.time(seconds: 90)), .leds([.ready]), .buzzer(.off), .sound(nil),
        ])
        #expect(mode.nextDeadline(after: .origin) == nil, "idle needs no wake-ups")
    }

    @Test(arguments: [(2, 120), (-1, 75), (-20, 15), (100, 300), (0, 90)])
    func knobInIdleStepsAndClamps(detents: Int, expected: Int) {
        var mode = RestMode(settings: settings)
        #expect(mode.handle(.turned(detents), at: at(1)) == [.display(.time(seconds: expected))])
        #expect(mode.durationSeconds == expected)
    }

    @Test func startBeginsTheRestWithTheRestLED() {
        var mode = RestMode(settings: settings)
        let effects = mode.handle(.pressed(.start), at: at(1))
        #expect(effects == [.display(.time(seconds: 90)), .leds([.rest]), .buzzer(.off), .sound(nil)])
        #expect(mode.phase == .resting(Countdown(from: at(1), lasting: .seconds(90)), beepsLeft: 3))
    }

    @Test func restingCountsDownRoundedUpOnEachSecondBoundary() {
        var mode = RestMode(settings: settings)
        _ = mode.handle(.pressed(.start), at: at(1))
        let shown = run(&mode, from: at(1), to: at(3.5)).compactMap { moment, effect -> String? in
            if case .display(let content) = effect { return "\(moment) \(content)" }
            return nil
        }
        #expect(shown == ["2.0 seconds 01:29", "3.0 seconds 01:28"])
    }

    @Test func knobWhileRestingChangesOnlyTheNextRest() {
        var mode = RestMode(settings: settings)
        _ = mode.handle(.pressed(.start), at: at(1))
        #expect(mode.handle(.turned(3), at: at(2.5)) == [])
        #expect(mode.durationSeconds == 135)
        #expect(mode.handle(.deadline, at: at(3)) == [.display(.time(seconds: 88))])
    }

    @Test(arguments: [ControlButton.start, .dismiss])
    func startOrDismissCancelsTheRest(button: ControlButton) {
        var mode = RestMode(settings: settings)
        _ = mode.handle(.pressed(.start), at: at(1))
        #expect(mode.handle(.pressed(button), at: at(10)) == [
            .display(.time(seconds: 90)), .leds([.ready]), .buzzer(.off), .sound(nil),
        ])
        #expect(mode.phase == .idle)
        #expect(mode.sets == 0, "a cancelled rest is not a set")
    }

    @Test func warningBeepsAtThreeTwoAndOneSecondsLeft() {
        var mode = RestMode(settings: settings)
        _ = mode.handle(.pressed(.start), at: at(1))
        let beeps = run(&mode, from: at(1), to: at(90.9)).filter { $0.1 == .buzzer(.warningBeep) }.map(\.0)
        #expect(beeps == [at(88), at(89), at(90)])
    }

    @Test func zeroWarningSecondsMeansNoBeeps() {
        var mode = RestMode(settings: RestSettings(warningSeconds: 0))
        _ = mode.handle(.pressed(.start), at: at(0))
        #expect(!run(&mode, from: at(0), to: at(95)).contains { $0.1 == .buzzer(.warningBeep) })
    }

    @Test func alarmAtTheDeadlineNeverBefore() {
        var mode = RestMode(settings: settings)
        _ = mode.handle(.pressed(.start), at: at(1))
        let log = run(&mode, from: at(1), to: at(91))
        let alarm = log.filter { $0.1 == .sound(.alarm) }
        #expect(alarm.map(\.0) == [at(91)])
        #expect(log.filter { $0.0 == at(91) }.map(\.1) == [
            .display(.time(seconds: 0, blink: .all)), .leds([.alarm]), .buzzer(.alarm), .sound(.alarm),
        ])
    }

    @Test func dismissInAlarmSilencesCountsASetAndGoesIdle() {
        var mode = RestMode(settings: settings)
        _ = mode.handle(.pressed(.start), at: at(1))
        _ = run(&mode, from: at(1), to: at(91))
        #expect(mode.handle(.pressed(.dismiss), at: at(100)) == [
            .display(.time(seconds: 90)), .leds([.ready]), .buzzer(.off), .sound(nil),
        ])
        #expect(mode.sets == 1)
    }

    @Test func startInAlarmCountsASetAndStartsTheNextRestAtOnce() {
        var mode = RestMode(settings: settings)
        _ = mode.handle(.pressed(.start), at: at(1))
        _ = run(&mode, from: at(1), to: at(91))
        #expect(mode.handle(.pressed(.start), at: at(95)) == [
            .display(.time(seconds: 90)), .leds([.rest]), .buzzer(.off), .sound(nil),
        ])
        #expect(mode.sets == 1)
        #expect(mode.phase == .resting(Countdown(from: at(95), lasting: .seconds(90)), beepsLeft: 3))
    }

    @Test func unansweredAlarmStopsByItselfAfterTheTimeout() {
        var mode = RestMode(settings: settings)
        _ = mode.handle(.pressed(.start), at: at(1))
        let log = run(&mode, from: at(1), to: at(200))
        #expect(log.last.map { $0.0 } == at(121))
        #expect(log.filter { $0.0 == at(121) }.map(\.1) == [
            .display(.time(seconds: 90)), .leds([.ready]), .buzzer(.off), .sound(nil),
        ])
        #expect(mode.phase == .idle)
    }

    @Test func holdingDismissEndsTheWorkoutAndRecordsItsSets() {
        var mode = RestMode(settings: RestSettings(defaultSeconds: 15))
        for round in 0..<2 {
            let start = at(Double(round) * 100)
            _ = mode.handle(.pressed(.start), at: start)
            _ = run(&mode, from: start, to: start + .seconds(16))
            _ = mode.handle(.pressed(.dismiss), at: start + .seconds(17))
        }
        let effects = mode.handle(.held(.dismiss), at: at(119))
        #expect(effects.first == .record(WorkoutRecord(kind: .rest, sets: 2, duration: .seconds(119), endedAt: at(119))))
        #expect(mode.sets == 0)
        #expect(mode.handle(.held(.dismiss), at: at(130)).allSatisfy { if case .record = $0 { false } else { true } },
                "a workout with no sets records nothing")
    }
}
