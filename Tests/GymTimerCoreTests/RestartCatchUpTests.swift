import Foundation
import Testing
@testable import GymTimerCore

/// After a restart the runtime rebuilds the kiosk from what it stored and calls `start(at:)`, then
/// `handle(.deadline, at:)`, with `now` possibly far past the stored deadlines. Every state must
/// land where the clock says, with only the cues that still make sense, and records kept once.
@Suite struct RestartCatchUpTests {
    /// The stored state, rebuilt at `now` as the runtime does; the effects as the drivers carry
    /// them out (a display or LED effect repeating the one before it writes nothing).
    func restart(_ kiosk: Kiosk, at now: Moment) throws -> (kiosk: Kiosk, effects: [Effect]) {
        var rebuilt = try JSONDecoder().decode(Kiosk.self, from: JSONEncoder().encode(kiosk))
        var effects = rebuilt.start(at: now)
        effects += rebuilt.handle(.deadline, at: now)
        effects = written(effects)
        #expect((rebuilt.nextDeadline(after: now) ?? .init(nanoseconds: .max)) > now, "nothing left overdue")
        return (rebuilt, effects)
    }

    func running(_ settings: KioskSettings, startedAt start: Moment, storedAt stored: Moment) -> Kiosk {
        var driver = Driver(Kiosk(settings: settings))
        driver.send(.pressed(.start), at: start)
        driver.run(to: stored)
        return driver.machine
    }

    func sounds(_ effects: [Effect]) -> [Sound] {
        effects.compactMap { if case .sound(let sound?) = $0 { sound } else { nil } }
    }

    func records(_ effects: [Effect]) -> [WorkoutRecord] {
        effects.compactMap { if case .record(let record) = $0 { record } else { nil } }
    }

    // Rest mode.

    @Test func aRestingKioskResumesItsCountdown() throws {
        let stored = running(KioskSettings(), startedAt: at(0), storedAt: at(10))
        let (_, effects) = try restart(stored, at: at(50.5))
        #expect(effects == [.display(.time(seconds: 40)), .leds([.rest]), .buzzer(.off), .sound(nil)])
    }

    @Test func aRestThatEndedWithinTheAlarmTimeoutSoundsTheAlarmOnce() throws {
        let stored = running(KioskSettings(), startedAt: at(0), storedAt: at(10))
        var (kiosk, effects) = try restart(stored, at: at(100))
        #expect(effects == [.display(.time(seconds: 0, blink: .all)), .leds([.alarm]), .buzzer(.alarm), .sound(.alarm)])
        // The timeout still counts from the rest's deadline (90 s).
        #expect(kiosk.nextDeadline(after: at(100)) == at(120))
        _ = kiosk.handle(.deadline, at: at(120))
        guard case .rest(let rest) = kiosk.mode else { Issue.record("not rest"); return }
        #expect(rest.phase == .idle && rest.sets == 1)
    }

    @Test func aRestThatEndedPastTheAlarmTimeoutGoesIdleSilentlyCountingTheSet() throws {
        let stored = running(KioskSettings(), startedAt: at(0), storedAt: at(10))
        let (kiosk, effects) = try restart(stored, at: at(500))
        #expect(effects == [.display(.time(seconds: 90)), .leds([.ready]), .buzzer(.off), .sound(nil)])
        guard case .rest(let rest) = kiosk.mode else { Issue.record("not rest"); return }
        #expect(rest.sets == 1)
    }

    @Test func anAlarmStillWithinItsTimeoutSoundsAgainAndOnePastItDoesNot() throws {
        let stored = running(KioskSettings(), startedAt: at(0), storedAt: at(95))
        #expect(sounds(try restart(stored, at: at(110)).effects) == [.alarm])
        let late = try restart(stored, at: at(121))
        #expect(sounds(late.effects).isEmpty)
        #expect(late.effects.contains(.leds([.ready])))
    }

    // Interval mode: 10 s phases, 2 sets, started at 1.01 (interval-basic).

    let interval = KioskSettings(startMode: .interval, interval: IntervalSettings(phaseSeconds: 10, sets: 2))

    @Test func anIntervalMidPhaseResumesInTheRightPhaseWithoutStaleCues() throws {
        let stored = running(interval, startedAt: at(1.01), storedAt: at(5))
        var (kiosk, effects) = try restart(stored, at: at(25.5))
        // Phase 3 (set 2, low) runs 21.01–31.01: 5.51 s left.
        #expect(effects == [.display(.time(seconds: 6)), .leds([.low]), .buzzer(.off), .sound(nil)])
        var driver = Driver(kiosk, at: at(25.5))
        driver.run(to: at(60))
        kiosk = driver.machine
        #expect(cueTimes(driver) == ["28.01 seconds warning", "38.01 seconds set-2", "41.01 seconds complete"])
        #expect(driver.records.count == 1)
    }

    @Test func aCueJustDueIsStillGivenButOneLongPastIsNot() throws {
        let stored = running(interval, startedAt: at(1.01), storedAt: at(5))
        #expect(sounds(try restart(stored, at: at(18.5)).effects) == [.setCompleting(1)], "0.49 s late: still useful")
        #expect(sounds(try restart(stored, at: at(19.5)).effects) == [], "1.49 s late: stale")
    }

    @Test func anIntervalWorkoutThatFinishedWhileDownIsRecordedOnceSilently() throws {
        let stored = running(interval, startedAt: at(1.01), storedAt: at(5))
        var (kiosk, effects) = try restart(stored, at: at(300))
        #expect(records(effects) == [WorkoutRecord(kind: .interval, sets: 2, duration: .seconds(40), endedAt: at(41.01))])
        #expect(sounds(effects).isEmpty && !effects.contains(.buzzer(.longBeep)))
        #expect(effects.first == .display(.time(seconds: 0)))
        #expect(kiosk.nextDeadline(after: at(300)) == nil)
        #expect(kiosk.handle(.deadline, at: at(301)) == [.display(.time(seconds: 0))], "no second record")
        // A second restart of the completed state records nothing again.
        #expect(records(try restart(kiosk, at: at(400)).effects).isEmpty)
    }

    @Test func anIntervalWorkoutThatJustFinishedGivesItsCompletionCue() throws {
        let stored = running(interval, startedAt: at(1.01), storedAt: at(5))
        let (_, effects) = try restart(stored, at: at(41.5))
        #expect(sounds(effects) == [.complete])
        #expect(effects.contains(.buzzer(.longBeep)))
        #expect(records(effects).count == 1)
    }

    @Test func aPausedIntervalStaysPausedWhereItWas() throws {
        var driver = Driver(Kiosk(settings: interval))
        driver.send(.pressed(.start), at: at(1.01))
        driver.send(.pressed(.start), at: at(4.5))
        let (kiosk, effects) = try restart(driver.machine, at: at(1000))
        #expect(effects == [.display(.time(seconds: 7, blink: .colon)), .leds([.low]), .buzzer(.off), .sound(nil)])
        #expect(kiosk.nextDeadline(after: at(1000)) == nil)
    }

    // Workout mode: full-body, 8 × 30 s with 15 s rests = 345 s.

    let workout = KioskSettings(startMode: .workout)

    @Test func aWorkoutMidRestResumesInThatRest() throws {
        let stored = running(workout, startedAt: at(0), storedAt: at(1))
        // Exercise 2 ends at 75 s; its rest runs to 90 s.
        let (_, effects) = try restart(stored, at: at(80.2))
        #expect(effects == [.display(.time(seconds: 10)), .leds([.low]), .buzzer(.off), .sound(nil)])
    }

    @Test func aWorkoutThatFinishedWhileDownIsCompletedAndRecordedOnce() throws {
        let stored = running(workout, startedAt: at(0), storedAt: at(1))
        var (kiosk, effects) = try restart(stored, at: at(1000))
        let preset = WorkoutPreset.fullBody
        #expect(records(effects) == [WorkoutRecord(
            kind: .workout, sets: 8, duration: .seconds(345), calories: 150, exercises: preset.exercises,
            preset: preset.name, endedAt: at(345))])
        #expect(sounds(effects).isEmpty)
        // 655 s after the end: page 327 of the cycle (327 % 3 == 0), the total-time page.
        #expect(effects.first == .display(.time(seconds: 345)))
        var driver = Driver(kiosk, at: at(1000))
        driver.run(to: at(1100))
        kiosk = driver.machine
        #expect(driver.records.isEmpty, "recorded once")
        #expect(records(try restart(kiosk, at: at(2000)).effects).isEmpty)
    }

    // The menu.

    @Test func aMenuLeftOpenPastItsTimeoutClosesOnRestart() throws {
        var driver = Driver(Kiosk(settings: KioskSettings()))
        driver.send(.pressed(.start), at: at(1))
        driver.send(.held(.start), at: at(3))
        let (kiosk, effects) = try restart(driver.machine, at: at(500))
        #expect(effects == [.display(.time(seconds: 90)), .leds([.ready]), .buzzer(.off), .sound(nil)])
        guard case .rest = kiosk.mode else { Issue.record("still in the menu"); return }
    }
}
