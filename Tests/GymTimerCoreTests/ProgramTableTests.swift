import Foundation
import Testing
@testable import GymTimerCore

extension ProgramMode: DrivenMachine {}

/// One test per row of programs.md (common rules, then each kind), on the pure program mode.
@Suite struct ProgramTableTests {
    func driver(_ program: Program, warningSeconds: Int = 3) -> Driver<ProgramMode> {
        Driver(ProgramMode(settings: ProgramSettings(programs: [program]), warningSeconds: warningSeconds))
    }

    let tabata = Program(name: "Tabata", label: "tAbA", leadInSeconds: 10, format: .intervals(rounds: 8, workSeconds: 20, restSeconds: 10))
    let emom = Program(name: "E", label: "E  3", leadInSeconds: 0, format: .emom(rounds: 3, everySeconds: 20))
    let amrap = Program(name: "A", label: "A  3", leadInSeconds: 0, format: .amrap(timeSeconds: 180))
    let forTime = Program(name: "F", label: "F  1", leadInSeconds: 3, format: .forTime(capSeconds: 60))

    /// The moments of the 100 ms beeps.
    func beeps(_ driver: Driver<ProgramMode>) -> [Moment] {
        driver.log.filter { $0.effect == .buzzer(.warningBeep) }.map(\.at)
    }

    // MARK: - Common rules

    @Test func idleShowsTheLabelWithReadyLit() {
        let mode = ProgramMode(settings: ProgramSettings(programs: [tabata]), warningSeconds: 3)
        #expect(mode.currentOutputs(at: at(0)) == [
            .display(DisplayContent(text: "tAbA")), .leds([.ready]), .buzzer(.off), .sound(nil),
        ])
    }

    @Test func theLeadInCountsDownBeepsAt321AndGoStartsTheFirstInterval() {
        var driver = driver(tabata)
        let effects = driver.send(.pressed(.start), at: at(1))
        #expect(effects == [.display(.time(seconds: 10)), .leds([]), .buzzer(.off), .sound(nil)])
        driver.run(to: at(12))
        #expect(driver.display(at: at(1.5)) == .time(seconds: 10))
        #expect(driver.display(at: at(2.5)) == .time(seconds: 9))
        #expect(driver.leds(at: at(10.9)) == [])
        #expect(beeps(driver).filter { $0 <= at(11) } == [at(8), at(9), at(10)])
        #expect(cueTimes(driver).first == "11.0 seconds go")
        #expect(driver.leds(at: at(11)) == [.high])
        #expect(driver.display(at: at(11)) == .time(seconds: 20))
    }

    @Test func aShortLeadInBeepsOnlyInsideIt() {
        var program = forTime
        program.leadInSeconds = 2
        var driver = driver(program)
        driver.send(.pressed(.start), at: at(0))
        driver.run(to: at(2.5))
        #expect(beeps(driver) == [at(0), at(1)], "3 s before the end falls before the start: left out")
    }

    @Test func withoutALeadInTheFirstIntervalStartsOnThePress() {
        var driver = driver(emom)
        let effects = driver.send(.pressed(.start), at: at(1))
        #expect(effects == [.display(.time(seconds: 20)), .leds([.high]), .buzzer(.off), .sound(nil), .sound(.go)])
    }

    @Test func aCountdownIsRoundedUpAndACountUpDown() {
        var countdown = driver(amrap)
        countdown.send(.pressed(.start), at: at(0))
        countdown.run(to: at(2))
        #expect(countdown.display(at: at(0.5)) == .time(seconds: 180))
        #expect(countdown.display(at: at(1.0)) == .time(seconds: 179))
        var countUp = driver(forTime)
        countUp.send(.pressed(.start), at: at(0))
        countUp.run(to: at(6))
        #expect(countUp.display(at: at(3.0)) == .time(seconds: 0))
        #expect(countUp.display(at: at(3.99)) == .time(seconds: 0))
        #expect(countUp.display(at: at(4.0)) == .time(seconds: 1))
        #expect(countUp.display(at: at(5.5)) == .time(seconds: 2))
    }

    @Test(arguments: [0, 1, 3])
    func beepsBeforeEveryIntervalEndFollowWarningSeconds(warningSeconds: Int) {
        var driver = driver(emom, warningSeconds: warningSeconds)
        driver.send(.pressed(.start), at: at(0))
        driver.run(to: at(61))
        let expected = [20, 40, 60].flatMap { end in (1...max(1, warningSeconds)).reversed().map { at(Double(end - $0)) } }
        #expect(beeps(driver) == (warningSeconds == 0 ? [] : expected))
    }

    @Test func theEndCallsCompleteKeepsTheResultAndRecordsIt() {
        var driver = driver(emom)
        driver.send(.pressed(.start), at: at(1))
        driver.run(to: at(100))
        #expect(driver.effects(at: at(61)).contains(.sound(.complete)))
        #expect(driver.effects(at: at(61)).contains(.buzzer(.longBeep)))
        #expect(driver.display(at: at(100)) == .time(seconds: 0))
        #expect(driver.leds(at: at(100)) == [.ready])
        #expect(driver.records == [WorkoutRecord(
            kind: .program, sets: 3, duration: .seconds(60), preset: "E", score: ProgramScore(rounds: 3), endedAt: at(61))])
    }

    @Test(arguments: [ControlButton.start, .dismiss])
    func startOrDismissAfterTheEndGoesIdle(button: ControlButton) {
        var driver = driver(emom)
        driver.send(.pressed(.start), at: at(0))
        let effects = driver.send(.pressed(button), at: at(70))
        #expect(driver.machine.isIdle)
        #expect(effects.first == .display(DisplayContent(text: "E  3")))
        #expect(driver.records.count == 1)
    }

    @Test(arguments: [0.5, 5, 30])
    func holdingDismissAnywhereAbandonsWithoutARecord(seconds: Double) {
        for program in [tabata, emom, amrap, forTime] {
            var driver = driver(program)
            driver.send(.pressed(.start), at: at(0))
            driver.send(.held(.dismiss), at: at(seconds))
            #expect(driver.machine.isIdle, "\(program.name)")
            driver.run(to: at(2000))
            #expect(driver.records.isEmpty, "\(program.name)")
        }
    }

    @Test func aStoredProgramResumesWhereTheClockSays() throws {
        var driver = driver(tabata)
        driver.send(.pressed(.start), at: at(0))
        driver.run(to: at(25))
        // Stored, the controller down for a while, then rebuilt.
        let data = try JSONEncoder().encode(driver.machine)
        var rebuilt = try JSONDecoder().decode(ProgramMode.self, from: data)
        let effects = rebuilt.handle(.deadline, at: at(47))
        // 47 s: 10 s lead-in, round 1 work (20 s) ended at 30, rest to 40, round 2 work since 40.
        #expect(effects.contains(.leds([.high])))
        #expect(rebuilt.currentOutputs(at: at(47)).first == .display(.time(seconds: 13)))
        #expect(!effects.contains(.sound(.rest)), "a call long past is not given late")
        #expect(rebuilt.statusDetail == "round 2 of 8")
    }

    @Test func theLEDsShowWorkAndRestAndNothingInTheLeadIn() {
        var driver = driver(tabata)
        driver.send(.pressed(.start), at: at(0))
        driver.run(to: at(45))
        #expect(driver.leds(at: at(5)) == [])
        #expect(driver.leds(at: at(15)) == [.high])
        #expect(driver.leds(at: at(35)) == [.low])
        #expect(driver.leds(at: at(41)) == [.high])
    }

    // MARK: - intervals

    @Test func tabataIs3m50AfterTheLeadInWithWorkAndRestCalls() {
        var driver = driver(tabata)
        driver.send(.pressed(.start), at: at(0))
        driver.run(to: at(300))
        #expect(driver.records.first?.endedAt == at(240), "10 s lead-in + 8 × 20 s + 7 × 10 s")
        #expect(driver.records.first?.duration == .seconds(230))
        #expect(driver.records.first?.score == ProgramScore(rounds: 8))
        let calls = driver.cues
        #expect(calls.first == "go")
        #expect(calls.filter { $0 == "rest" }.count == 7)
        #expect(calls.filter { $0 == "work" }.count == 7)
        #expect(calls.last == "complete")
        #expect(cueTimes(driver).contains("30.0 seconds rest"))
        #expect(cueTimes(driver).contains("40.0 seconds work"))
    }

    @Test func eachRoundAfterTheFirstShowsItsNumberForASecond() {
        var driver = driver(tabata)
        driver.send(.pressed(.start), at: at(0))
        driver.run(to: at(72))
        #expect(driver.display(at: at(10.5)) == .time(seconds: 20), "round 1 shows its time")
        #expect(driver.display(at: at(40.5)) == DisplayContent(text: "r  2"))
        #expect(driver.display(at: at(41.0)) == .time(seconds: 19))
        #expect(driver.display(at: at(70.5)) == DisplayContent(text: "r  3"))
    }

    @Test func noRestMeansNoRestIntervalsAndNoWorkCall() {
        var driver = driver(Program(name: "x", label: "x", leadInSeconds: 0, format: .intervals(rounds: 3, workSeconds: 10, restSeconds: 0)))
        driver.send(.pressed(.start), at: at(0))
        driver.run(to: at(40))
        #expect(driver.records.first?.endedAt == at(30))
        #expect(driver.cues == ["go", "complete"])
        #expect(driver.leds(at: at(25)) == [.high])
    }

    @Test func startPausesAndResumesAndDismissWhilePausedResets() {
        var driver = driver(tabata)
        driver.send(.pressed(.start), at: at(0))
        let paused = driver.send(.pressed(.start), at: at(15.5))
        #expect(paused == [.display(.time(seconds: 15, blink: .colon)), .sound(nil)])
        driver.run(to: at(100))
        #expect(driver.display(at: at(100)) == .time(seconds: 15, blink: .colon), "frozen while paused")
        driver.send(.pressed(.start), at: at(100))
        driver.run(to: at(115))
        #expect(driver.leds(at: at(114.4)) == [.high])
        #expect(driver.leds(at: at(114.5)) == [.low], "the work ends 14.5 s after resuming")
        driver.send(.pressed(.start), at: at(116))
        driver.send(.pressed(.dismiss), at: at(117))
        #expect(driver.machine.isIdle)
        #expect(driver.records.isEmpty)
    }

    // MARK: - emom

    @Test func emomCallsEachRoundAndShowsItsNumber() {
        var driver = driver(emom)
        driver.send(.pressed(.start), at: at(1))
        driver.run(to: at(70))
        #expect(cueTimes(driver) == ["1.0 seconds go", "21.0 seconds round-2", "41.0 seconds round-3", "61.0 seconds complete"])
        #expect(driver.display(at: at(21.5)) == DisplayContent(text: "r  2"))
        #expect(driver.display(at: at(22.5)) == .time(seconds: 19))
        #expect(driver.leds(at: at(50)) == [.high])
    }

    // MARK: - amrap

    @Test func amrapStartCountsARoundAndTheKnobCorrects() {
        var driver = driver(amrap)
        driver.send(.pressed(.start), at: at(0))
        #expect(driver.send(.pressed(.start), at: at(30)) == [.display(DisplayContent(text: "r  1"))])
        driver.run(to: at(31.5))
        #expect(driver.display(at: at(31.5)) == .time(seconds: 149))
        driver.send(.pressed(.start), at: at(60))
        #expect(driver.send(.turned(-1), at: at(70)) == [.display(DisplayContent(text: "r  1"))])
        #expect(driver.send(.turned(-5), at: at(71)) == [.display(DisplayContent(text: "r  0"))], "never below 0")
        driver.send(.turned(2), at: at(72))
        driver.run(to: at(200))
        #expect(driver.records.first?.score == ProgramScore(rounds: 2))
        #expect(driver.records.first?.sets == 2)
    }

    @Test func amrapCallsHalfwayAndTheLastMinute() {
        var driver = driver(amrap)
        driver.send(.pressed(.start), at: at(1))
        driver.run(to: at(190))
        #expect(cueTimes(driver) == ["1.0 seconds go", "91.0 seconds halfway", "121.0 seconds last-minute", "181.0 seconds complete"])
    }

    @Test func aShortAmrapHasNoLastMinuteCall() {
        var driver = driver(Program(name: "a", label: "a", leadInSeconds: 0, format: .amrap(timeSeconds: 120)))
        driver.send(.pressed(.start), at: at(0))
        driver.run(to: at(130))
        #expect(driver.cues == ["go", "halfway", "complete"])
    }

    @Test func amrapsResultAlternatesTheTimeAndTheRounds() {
        var driver = driver(amrap)
        driver.send(.pressed(.start), at: at(0))
        driver.send(.pressed(.start), at: at(10))
        driver.run(to: at(184))
        #expect(driver.display(at: at(180.5)) == .time(seconds: 0))
        #expect(driver.display(at: at(181.5)) == DisplayContent(text: "r  1"))
        #expect(driver.display(at: at(182.5)) == .time(seconds: 0))
        #expect(driver.leds(at: at(184)) == [.ready])
    }

    @Test func dismissPausesAnAmrap() {
        var driver = driver(amrap)
        driver.send(.pressed(.start), at: at(0))
        #expect(driver.send(.pressed(.dismiss), at: at(10)) == [.display(.time(seconds: 170, blink: .colon)), .sound(nil)])
        #expect(driver.send(.pressed(.start), at: at(20)) == [.display(.time(seconds: 170))], "start resumes, no round")
        #expect(driver.machine.run?.rounds == 0)
    }

    // MARK: - for-time

    @Test func dismissIsDoneTheTimeStaysAndIsRecordedWithTheRounds() {
        var driver = driver(forTime)
        driver.send(.pressed(.start), at: at(1))
        driver.send(.pressed(.start), at: at(10))
        driver.send(.pressed(.start), at: at(20))
        let done = driver.send(.pressed(.dismiss), at: at(30.5))
        #expect(done.contains(.sound(.complete)))
        #expect(done.first == .display(.time(seconds: 26)))
        driver.run(to: at(50))
        #expect(driver.display(at: at(50)) == .time(seconds: 26))
        #expect(driver.machine.nextDeadline(after: at(50)) == nil, "the time holds still")
        // 26.5 s of work: the display and the score say 0:26, and so does the record's duration
        // (it used to keep 26.5 s, which the history shows rounded as 0:27 beside "0:26, 2 rounds").
        #expect(driver.records == [WorkoutRecord(
            kind: .program, sets: 2, duration: .seconds(26), preset: "F",
            score: ProgramScore(rounds: 2, time: .seconds(26)), endedAt: at(30.5))])
        #expect(driver.records.first?.score?.description == "0:26, 2 rounds")
        #expect(driver.records.first.map { $0.duration == $0.score?.time } == true)
    }

    @Test func doneIsRecordedOnTheReleaseAndAHoldOfDismissAbandonsIt() {
        var click = driver(forTime)
        click.send(.pressed(.start), at: at(0))
        #expect(!click.send(.pressed(.dismiss), at: at(20)).contains { if case .record = $0 { true } else { false } })
        #expect(click.send(.released(.dismiss), at: at(20.08)).count == 1)
        #expect(click.records.map(\.score) == [ProgramScore(rounds: 0, time: .seconds(17))])

        var hold = driver(forTime)
        hold.send(.pressed(.start), at: at(0))
        hold.send(.pressed(.dismiss), at: at(20))
        hold.send(.held(.dismiss), at: at(22))
        #expect(hold.machine.isIdle)
        hold.run(to: at(100))
        #expect(hold.records.isEmpty, "abandoned: nothing recorded")
    }

    @Test func aDoneWhoseReleaseNeverComesIsRecordedAfterTheHoldTime() throws {
        var driver = driver(forTime)
        driver.send(.pressed(.start), at: at(0))
        driver.send(.pressed(.dismiss), at: at(20))
        // The controller restarts before the release arrives.
        var rebuilt = try JSONDecoder().decode(ProgramMode.self, from: JSONEncoder().encode(driver.machine))
        #expect(rebuilt.nextDeadline(after: at(21)) == at(22.5))
        let effects = rebuilt.handle(.deadline, at: at(40))
        #expect(effects.contains { if case .record = $0 { true } else { false } })
        #expect(rebuilt.handle(.pressed(.start), at: at(41)).allSatisfy { if case .record = $0 { false } else { true } })
    }

    @Test func reachingTheCapCallsTimeCapAndShowsCapThenTheRounds() {
        var driver = driver(forTime)
        driver.send(.pressed(.start), at: at(0))
        driver.send(.pressed(.start), at: at(30))
        driver.run(to: at(66))
        #expect(cueTimes(driver) == ["3.0 seconds go", "63.0 seconds time-cap"])
        #expect(driver.display(at: at(63.5)) == DisplayContent(text: "CAP "))
        #expect(driver.display(at: at(64.5)) == DisplayContent(text: "r  1"))
        #expect(driver.records.first?.score == ProgramScore(rounds: 1, capped: true))
        #expect(driver.records.first?.score?.description == "capped, 1 round")
    }

    @Test func noCapStopsAt9959() {
        var driver = driver(Program(name: "f", label: "f", leadInSeconds: 0, format: .forTime(capSeconds: 0)))
        driver.send(.pressed(.start), at: at(0))
        driver.run(to: at(5998.5))
        #expect(driver.display(at: at(5998.5)) == .time(seconds: 5998))
        driver.run(to: at(6001))
        #expect(driver.cues.last == "time-cap")
        #expect(driver.records.first?.endedAt == at(5999))
    }

    @Test func theStatusNamesTheRoundAndTheScoreSoFar() {
        var intervals = driver(tabata)
        #expect(intervals.machine.statusDetail == "idle")
        intervals.send(.pressed(.start), at: at(0))
        #expect(intervals.machine.statusDetail == "lead-in")
        intervals.run(to: at(35))
        #expect(intervals.machine.statusDetail == "round 1 of 8", "a rest belongs to the round before it")
        intervals.send(.pressed(.start), at: at(36))
        #expect(intervals.machine.statusDetail == "round 1 of 8, paused")
        var counted = driver(amrap)
        counted.send(.pressed(.start), at: at(0))
        counted.send(.pressed(.start), at: at(5))
        #expect(counted.machine.statusDetail == "1 round")
        counted.send(.turned(2), at: at(6))
        #expect(counted.machine.statusDetail == "3 rounds")
        var kiosk = Kiosk(settings: KioskSettings(startMode: .program))
        #expect(kiosk.statusLine == "program Tabata: idle")
        _ = kiosk.handle(.pressed(.start), at: at(0))
        _ = kiosk.handle(.deadline, at: at(41))
        #expect(kiosk.statusLine == "program Tabata: round 2 of 8")
    }

    @Test func theBuiltInsAreTheFourFormats() {
        #expect(Program.builtIns.map(\.name) == ["Tabata", "EMOM 10", "AMRAP 12", "For Time"])
        #expect(Program.builtIns.allSatisfy { DisplayContent.canDraw($0.label) })
        let tabataPlan = ProgramPlan(program: Program.builtIns[0], warningSeconds: 3)
        #expect(tabataPlan.intervalEnds.last == .seconds(240))
    }
}

@Suite struct ProgramStorageTests {
    /// A rest in progress stored before programs existed (no `programs` in its settings) is
    /// restored, not thrown away, after the upgrade.
    @Test func aStateStoredBeforeProgramsExistedStillRestores() throws {
        var kiosk = Kiosk(settings: KioskSettings())
        _ = kiosk.start(at: at(0))
        _ = kiosk.handle(.pressed(.start), at: at(1))
        var json = try JSONSerialization.jsonObject(with: JSONEncoder().encode(kiosk)) as! [String: Any]
        var settings = json["settings"] as! [String: Any]
        settings.removeValue(forKey: "programs")
        json["settings"] = settings
        let old = try JSONDecoder().decode(Kiosk.self, from: JSONSerialization.data(withJSONObject: json))
        #expect(KioskRestore(old, savedAt: at(1), settings: KioskSettings()).kiosk == kiosk)
    }
}
