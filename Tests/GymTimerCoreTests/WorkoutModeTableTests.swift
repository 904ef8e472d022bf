import Testing
@testable import GymTimerCore

/// One test per row of the workout-mode table in behaviour.md, on the pure state machine.
@Suite struct WorkoutModeTableTests {
    /// Three exercises of 10 s with 5 s rests: 10 + 5 + 10 + 5 + 10 = 40 s.
    let short = WorkoutPreset(name: "short", exerciseSeconds: 10, restSeconds: 5, calories: 42, exercises: ["A", "B", "C"])

    func mode(warning: Int = 3) -> WorkoutMode {
        WorkoutMode(presets: [short, .fullBody], presetIndex: 0, warningSeconds: warning)
    }

    func started(warning: Int = 3, at start: Moment = .origin) -> Driver<WorkoutMode> {
        var driver = Driver(mode(warning: warning), at: start)
        driver.send(.pressed(.start), at: start)
        return driver
    }

    @Test func idleShowsTheSelectedPresetWithReadyLit() {
        #expect(mode().currentOutputs(at: .origin) == [
            .display(DisplayContent(text: "P  1")), .leds([.ready]), .buzzer(.off), .sound(nil),
        ])
        #expect(WorkoutMode(settings: WorkoutSettings()).preset == .fullBody)
    }

    @Test func theKnobChoosesThePresetInIdleStoppingAtTheEnds() {
        var mode = mode()
        #expect(mode.handle(.turned(1), at: at(1)) == [.display(DisplayContent(text: "P  2"))])
        #expect(mode.preset == .fullBody)
        #expect(mode.handle(.turned(5), at: at(2)) == [.display(DisplayContent(text: "P  2"))])
        #expect(mode.handle(.turned(-9), at: at(3)) == [.display(DisplayContent(text: "P  1"))])
        #expect(mode.preset == short)
    }

    @Test func startBeginsExerciseOneWithHighLit() {
        var mode = mode()
        #expect(mode.handle(.pressed(.start), at: at(1)) == [
            .display(.time(seconds: 10)), .leds([.high]), .buzzer(.off), .sound(nil),
        ])
    }

    @Test func exerciseCountsDownThenARestFollowsThenTheNextExercise() {
        var driver = started()
        driver.run(to: at(16))
        #expect(driver.display(at: at(1)) == .time(seconds: 9))
        #expect(driver.leds(at: at(9.99)) == [.high])
        #expect(driver.effects(at: at(10)).prefix(2) == [.display(.time(seconds: 5)), .leds([.low])])
        #expect(driver.display(at: at(11)) == .time(seconds: 4))
        #expect(driver.effects(at: at(15)).prefix(2) == [.display(.time(seconds: 10)), .leds([.high])])
    }

    @Test func noRestAfterTheLastExerciseAndNoneWhenRestIsZero() {
        #expect(WorkoutMode.sessionParts(of: short) == [.exercise(0), .rest(after: 0), .exercise(1), .rest(after: 1), .exercise(2)])
        let noRest = WorkoutPreset(name: "x", exerciseSeconds: 10, restSeconds: 0, calories: 1, exercises: ["A", "B"])
        #expect(WorkoutMode.sessionParts(of: noRest) == [.exercise(0), .exercise(1)])
        var driver = Driver(WorkoutMode(presets: [noRest]))
        driver.send(.pressed(.start), at: .origin)
        driver.run(to: at(30))
        #expect(driver.records.map(\.duration) == [.seconds(20)])
    }

    @Test func dismissDuringARestSkipsIt() {
        var driver = started()
        driver.run(to: at(12))
        #expect(driver.send(.pressed(.dismiss), at: at(12)) == [.display(.time(seconds: 10)), .leds([.high]), .sound(nil)])
        driver.run(to: at(60))
        // 3 s of the first rest skipped: the session ends at 37 s.
        #expect(driver.records.map(\.endedAt) == [at(37)])
        #expect(driver.records.map(\.duration) == [.seconds(37)])
    }

    @Test func startPausesAndResumesWhereItWas() {
        var driver = started()
        #expect(driver.send(.pressed(.start), at: at(12.5)) == [.display(.time(seconds: 3, blink: .colon)), .sound(nil)])
        #expect(driver.machine.nextDeadline(after: at(12.5)) == nil)
        #expect(driver.send(.pressed(.start), at: at(50)) == [.display(.time(seconds: 3))])
        driver.run(to: at(100))
        #expect(driver.leds(at: at(52.49)) == [.low])
        #expect(driver.leds(at: at(52.5)) == [.high])
        #expect(driver.records.map(\.endedAt) == [at(77.5)])
    }

    @Test func theLastExerciseEndingCompletesCyclesTheSummaryAndRecordsOnce() {
        var driver = started()
        driver.run(to: at(47))
        #expect(driver.effects(at: at(40)) == [
            .display(.time(seconds: 40)), .leds([]), .sound(.complete), .buzzer(.longBeep),
            .record(WorkoutRecord(kind: .workout, sets: 3, duration: .seconds(40), calories: 42,
                                  exercises: ["A", "B", "C"], preset: "short", endedAt: at(40))),
        ])
        #expect(driver.display(at: at(42)) == DisplayContent(text: "E  3"))
        #expect(driver.display(at: at(44)) == DisplayContent(text: "C 42"))
        #expect(driver.display(at: at(46)) == .time(seconds: 40))
        #expect(driver.records.count == 1)
    }

    @Test(arguments: [ControlButton.start, .dismiss])
    func completeThenStartOrDismissGoesIdle(button: ControlButton) {
        var driver = started()
        driver.run(to: at(41))
        #expect(driver.send(.pressed(button), at: at(41)) == [
            .display(DisplayContent(text: "P  1")), .leds([.ready]), .buzzer(.off), .sound(nil),
        ])
    }

    @Test func pausedDismissAbandonsWithoutARecord() {
        var driver = started()
        driver.send(.pressed(.dismiss), at: at(3))  // during an exercise: pause
        #expect(driver.machine.nextDeadline(after: at(3)) == nil)
        driver.send(.pressed(.dismiss), at: at(4))
        #expect(driver.machine.state == .idle)
        driver.run(to: at(100))
        #expect(driver.records.isEmpty)
    }

    @Test func warningBeforeEachExerciseAndRestEnds() {
        var driver = started(warning: 3)
        driver.run(to: at(50))
        #expect(cueTimes(driver) == [
            "7.0 seconds warning", "12.0 seconds warning", "22.0 seconds warning", "27.0 seconds warning",
            "37.0 seconds warning", "40.0 seconds complete",
        ])
    }

    @Test func caloriesOfFourDigitsShowAlone() {
        let big = WorkoutPreset(name: "big", exerciseSeconds: 5, restSeconds: 0, calories: 1500, exercises: ["A"])
        var driver = Driver(WorkoutMode(presets: [big], warningSeconds: 0))
        driver.send(.pressed(.start), at: .origin)
        driver.run(to: at(9.5))
        #expect(driver.display(at: at(9.5)) == .number(1500))
    }
}
