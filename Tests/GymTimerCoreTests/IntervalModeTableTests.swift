import Testing
@testable import GymTimerCore

/// One test per row of the interval-mode table in behaviour.md, on the pure state machine.
@Suite struct IntervalModeTableTests {
    /// 10 s phases, 2 sets, low first: the shared interval-basic scenario's config.
    let basic = IntervalSettings(phaseSeconds: 10, sets: 2, startWith: .low, warningSeconds: 3, announceSeconds: 3)

    func started(_ settings: IntervalSettings, at start: Moment) -> Driver<IntervalMode> {
        var driver = Driver(IntervalMode(settings: settings), at: start)
        driver.send(.pressed(.start), at: start)
        return driver
    }

    @Test func idleShowsThePhaseDurationWithReadyLit() {
        let mode = IntervalMode(settings: IntervalSettings())
        #expect(mode.currentOutputs(at: .origin) == [
            .display(.time(seconds: 30)), .leds([.ready]), .buzzer(.off), .sound(nil),
        ])
        #expect(mode.nextDeadline(after: .origin) == nil)
    }

    @Test func startBeginsPhaseOneOfSetOneWithItsLED() {
        var mode = IntervalMode(settings: IntervalSettings(startWith: .high))
        #expect(mode.handle(.pressed(.start), at: at(1)) == [
            .display(.time(seconds: 30)), .leds([.high]), .buzzer(.off), .sound(nil),
        ])
        guard case .running(let run) = mode.state else { Issue.record("not running"); return }
        #expect(run.segment == 0 && !run.isPaused)
        #expect(run.segmentCountdown == Countdown(from: at(1), lasting: .seconds(30)))
    }

    @Test func runningCountsThePhaseDownOnEachSecondBoundaryAndSwapsTheLED() {
        var driver = started(basic, at: at(1.01))
        driver.run(to: at(12.5))
        let displays = driver.log.compactMap { entry -> String? in
            if case .display(let content) = entry.effect { return "\(entry.at) \(content)" }
            return nil
        }
        #expect(Array(displays.prefix(3)) == ["1.01 seconds 00:10", "2.01 seconds 00:09", "3.01 seconds 00:08"])
        #expect(displays.contains("11.01 seconds 00:10"), "the next phase starts from its full duration")
        #expect(displays.contains("12.01 seconds 00:09"))
        #expect(driver.leds(at: at(11.0)) == [.low])
        #expect(driver.leds(at: at(11.01)) == [.high], "exactly one of low/high")
    }

    @Test func warningBeforeEachPhaseThatIsNotTheLastOfItsSet() {
        var driver = started(IntervalSettings(phaseSeconds: 10, sets: 3, warningSeconds: 3, announceSeconds: 0), at: at(0))
        driver.run(to: at(100))
        #expect(cueTimes(driver) == ["7.0 seconds warning", "27.0 seconds warning", "47.0 seconds warning", "60.0 seconds complete"])
    }

    @Test func setAnnouncementBeforeEachSetEnds() {
        var driver = started(IntervalSettings(phaseSeconds: 10, sets: 3, warningSeconds: 0, announceSeconds: 3), at: at(0))
        driver.run(to: at(100))
        #expect(cueTimes(driver) == ["17.0 seconds set-1", "37.0 seconds set-2", "57.0 seconds set-3", "60.0 seconds complete"])
    }

    @Test func theLastPhaseOfTheLastSetEndingCompletesAndRecords() {
        var driver = started(basic, at: at(1.01))
        driver.run(to: at(50))
        #expect(driver.effects(at: at(41.01)) == [
            .display(.time(seconds: 0)), .leds([]), .sound(.complete), .buzzer(.longBeep),
            .record(WorkoutRecord(kind: .interval, sets: 2, duration: .seconds(40), endedAt: at(41.01))),
        ])
        #expect(driver.machine.state == .complete)
        #expect(driver.machine.nextDeadline(after: at(41.01)) == nil, "complete waits for input")
        #expect(driver.records.count == 1)
    }

    @Test func startPausesWithTheDisplayFrozenAndColonBlinkingAndResumesExactly() {
        var driver = started(basic, at: at(1.01))
        // 4.49 s into phase 1: 5.51 s left, shown as 6.
        #expect(driver.send(.pressed(.start), at: at(5.5)) == [.display(.time(seconds: 6, blink: .colon)), .sound(nil)])
        #expect(driver.machine.nextDeadline(after: at(5.5)) == nil, "nothing happens while paused")
        #expect(driver.send(.pressed(.start), at: at(100)) == [.display(.time(seconds: 6))])
        driver.run(to: at(160))
        // The phase ends 5.51 s after the resume; everything else shifts by the 94.5 s pause.
        #expect(driver.display(at: at(100.5)) == .time(seconds: 6))
        #expect(driver.display(at: at(100.51)) == .time(seconds: 5))
        #expect(driver.leds(at: at(105.50)) == [.low])
        #expect(driver.leds(at: at(105.51)) == [.high])
        #expect(cueTimes(driver) == [
            "102.51 seconds warning", "112.51 seconds set-1", "122.51 seconds warning", "132.51 seconds set-2",
            "135.51 seconds complete",
        ])
        #expect(driver.records.map(\.duration) == [.milliseconds(134_500)], "the record spans the pause")
    }

    @Test func pausedDismissResetsToIdleWithoutARecord() {
        var driver = started(basic, at: at(0))
        driver.send(.pressed(.start), at: at(3))
        #expect(driver.send(.pressed(.dismiss), at: at(4)) == [
            .display(.time(seconds: 10)), .leds([.ready]), .buzzer(.off), .sound(nil),
        ])
        #expect(driver.machine.state == .idle)
        #expect(driver.records.isEmpty)
    }

    @Test(arguments: [ControlButton.start, .dismiss])
    func completeThenStartOrDismissGoesIdle(button: ControlButton) {
        var driver = started(basic, at: at(0))
        driver.run(to: at(45))
        #expect(driver.send(.pressed(button), at: at(46)) == [
            .display(.time(seconds: 10)), .leds([.ready]), .buzzer(.off), .sound(nil),
        ])
        #expect(driver.machine.state == .idle)
    }

    // Decisions where the table is silent.

    @Test func dismissWhileRunningPausesAndASecondDismissResets() {
        var driver = started(basic, at: at(0))
        #expect(driver.send(.pressed(.dismiss), at: at(2.5)) == [.display(.time(seconds: 8, blink: .colon)), .sound(nil)])
        driver.send(.pressed(.dismiss), at: at(3))
        #expect(driver.machine.state == .idle)
    }

    @Test func holdingDismissResetsWithoutARecord() {
        var driver = started(basic, at: at(0))
        driver.send(.pressed(.dismiss), at: at(2))
        driver.send(.held(.dismiss), at: at(4))
        #expect(driver.machine.state == .idle)
        #expect(driver.records.isEmpty)
    }

    @Test(arguments: [(1, 35), (-2, 20), (-10, 5), (200, 600), (0, 30)])
    func knobInIdleChangesThePhaseInFiveSecondSteps(detents: Int, expected: Int) {
        var mode = IntervalMode(settings: IntervalSettings())
        #expect(mode.handle(.turned(detents), at: at(1)) == [.display(.time(seconds: expected))])
        #expect(mode.phaseSeconds == expected)
    }

    @Test func knobWhileRunningDoesNothing() {
        var driver = started(basic, at: at(0))
        #expect(driver.send(.turned(3), at: at(0.5)) == [])
        #expect(driver.machine.phaseSeconds == 10)
    }

    @Test func cuesThatWouldFallOutsideTheirPhaseOrSetAreLeftOut() {
        let mode = IntervalMode(settings: IntervalSettings(phaseSeconds: 5, sets: 1, warningSeconds: 5, announceSeconds: 10))
        #expect(mode.schedule().cues.isEmpty)
    }
}

/// The shared acceptance scenario interval/interval-basic.scenario, on the kiosk core: start is
/// debounced at 1.01 s; every cue and phase change must land exactly where the scenario expects.
@Suite struct IntervalBasicScenarioTests {
    @Test func cuesAndPhasesLandWhereTheScenarioExpects() {
        let settings = KioskSettings(
            startMode: .interval,
            interval: IntervalSettings(phaseSeconds: 10, sets: 2, startWith: .low, warningSeconds: 3, announceSeconds: 3))
        var kiosk = Kiosk(settings: settings)
        var driver = Driver(kiosk, at: .origin)
        driver.log = kiosk.start(at: .origin).map { (.origin, $0) }
        driver.machine = kiosk
        #expect(driver.display(at: at(0.5)) == .time(seconds: 10))
        driver.send(.pressed(.start), at: at(1.01))
        driver.send(.released(.start), at: at(1.09))
        driver.run(to: at(50))
        #expect(driver.leds(at: at(5.5)) == [.low])
        #expect(driver.leds(at: at(11.005)) == [.low])
        #expect(driver.leds(at: at(11.01)) == [.high])
        #expect(driver.display(at: at(11.5)) == .time(seconds: 10))
        #expect(driver.leds(at: at(15.5)) == [.high])
        #expect(driver.leds(at: at(21.01)) == [.low])
        #expect(cueTimes(driver) == [
            "8.01 seconds warning", "18.01 seconds set-1", "28.01 seconds warning", "38.01 seconds set-2",
            "41.01 seconds complete",
        ])
        #expect(driver.display(at: at(45)) == .time(seconds: 0))
        #expect(driver.effects(at: at(41.01)).contains(.buzzer(.longBeep)))
        #expect(driver.records.count == 1)
    }
}
