import Foundation
import Testing
@testable import GymTimerCore

/// The mode menu, mode switching and the press-then-hold undo, on the whole kiosk.
@Suite struct KioskMenuTests {
    let twoPresets = KioskSettings(workout: WorkoutSettings(presets: [
        .fullBody, WorkoutPreset(name: "core", exerciseSeconds: 20, restSeconds: 10, calories: 80, exercises: ["Plank", "Crunch"]),
    ]))

    func kiosk(_ settings: KioskSettings = KioskSettings()) -> Driver<Kiosk> {
        var kiosk = Kiosk(settings: settings)
        var driver = Driver(kiosk)
        driver.log = kiosk.start(at: .origin).map { (.origin, $0) }
        driver.machine = kiosk
        return driver
    }

    /// A long press of start at `t`: its debounced press, then the hold 2 s later.
    func longPress(_ driver: inout Driver<Kiosk>, at t: Double) {
        driver.send(.pressed(.start), at: at(t))
        driver.send(.held(.start), at: at(t + 2))
    }

    func menuSelection(_ kiosk: Kiosk) -> ModeMenu.Entry? {
        if case .menu(let menu, _) = kiosk.mode { return menu.selection }
        return nil
    }

    @Test(arguments: [StartMode.rest, .interval, .workout])
    func startsInTheConfiguredMode(start: StartMode) {
        let kiosk = Kiosk(settings: KioskSettings(startMode: start))
        switch (start, kiosk.mode) {
        case (.rest, .rest), (.interval, .interval), (.workout, .workout): break
        default: Issue.record("started in \(kiosk.mode)")
        }
    }

    @Test func workoutStartsWithTheConfiguredPreset() {
        var settings = twoPresets
        settings.startMode = .workout
        settings.workout.presetName = "core"
        guard case .workout(let workout) = Kiosk(settings: settings).mode else { Issue.record("not workout"); return }
        #expect(workout.preset.name == "core")
    }

    @Test func aLongPressInRestIdleUndoesTheRestItStartedAndOpensTheMenu() {
        var driver = kiosk()
        driver.send(.pressed(.start), at: at(1))
        driver.run(to: at(3))
        #expect(driver.display(at: at(3)) == .time(seconds: 88), "the press started a rest at once")
        let effects = driver.send(.held(.start), at: at(3))
        #expect(effects == [.display(DisplayContent(text: "rESt")), .leds([]), .buzzer(.off), .sound(nil)])
        guard case .menu(_, let previous) = driver.machine.mode, case .rest(let rest) = previous else {
            Issue.record("menu not open over rest"); return
        }
        #expect(rest.phase == .idle && rest.sets == 0 && rest.workoutStartedAt == nil, "no trace of the undone rest")
        #expect(driver.machine.nextDeadline(after: at(3)) == at(33), "only the menu's own timeout")
    }

    @Test(arguments: [StartMode.interval, .workout])
    func aLongPressInOtherIdlesUndoesWhatThePressStarted(start: StartMode) {
        var settings = twoPresets
        settings.startMode = start
        var driver = kiosk(settings)
        longPress(&driver, at: 1)
        #expect(menuSelection(driver.machine) == (start == .interval ? .interval : .workout(preset: 0)))
        driver.run(to: at(60))
        #expect(driver.cues.isEmpty && driver.records.isEmpty)
    }

    @Test func anInputBetweenThePressAndTheHoldKeepsWhatThePressStarted() {
        var driver = kiosk()
        driver.send(.pressed(.start), at: at(1))
        driver.send(.turned(1), at: at(2))
        driver.send(.held(.start), at: at(3))
        guard case .rest(let rest) = driver.machine.mode, case .resting = rest.phase else {
            Issue.record("the rest should still run: \(driver.machine.mode)"); return
        }
    }

    @Test func aLongPressOutsideIdleDoesNotOpenTheMenu() {
        var driver = kiosk()
        driver.send(.pressed(.start), at: at(1))
        driver.send(.released(.start), at: at(1.1))
        longPress(&driver, at: 5)  // this press cancels the rest: it began in resting, not idle
        guard case .rest(let rest) = driver.machine.mode else { Issue.record("left rest mode"); return }
        #expect(rest.phase == .idle)
    }

    @Test func theKnobScrollsTheEntriesAndStopsAtTheEnds() {
        var driver = kiosk(twoPresets)
        longPress(&driver, at: 1)
        #expect(driver.send(.turned(1), at: at(4)) == [.display(DisplayContent(text: "Int "))])
        #expect(driver.send(.turned(1), at: at(5)) == [.display(DisplayContent(text: "P  1"))])
        #expect(driver.send(.turned(1), at: at(6)) == [.display(DisplayContent(text: "P  2"))])
        // Then the built-in programs by their labels.
        #expect(driver.send(.turned(1), at: at(6.5)) == [.display(DisplayContent(text: "tAbA"))])
        #expect(driver.send(.turned(3), at: at(6.8)) == [.display(DisplayContent(text: "Ft  "))])
        #expect(driver.send(.turned(1), at: at(7)) == [], "already at the end: nothing changes")
        #expect(driver.send(.turned(-20), at: at(8)) == [.display(DisplayContent(text: "rESt"))])
    }

    @Test func startPicksTheModeAndShowsItsIdle() {
        var driver = kiosk(twoPresets)
        longPress(&driver, at: 1)
        driver.send(.turned(1), at: at(4))
        #expect(driver.send(.pressed(.start), at: at(5)) == [.display(.time(seconds: 30)), .leds([.ready]), .buzzer(.off), .sound(nil)])
        guard case .interval = driver.machine.mode else { Issue.record("not interval"); return }
        driver.send(.released(.start), at: at(5.1))
        driver.send(.pressed(.start), at: at(6))
        #expect(driver.leds(at: at(6)) == [.low], "the picked mode runs")
    }

    @Test func pickingAPresetSelectsIt() {
        var driver = kiosk(twoPresets)
        longPress(&driver, at: 1)
        driver.send(.turned(3), at: at(4))
        #expect(driver.send(.pressed(.start), at: at(5)) == [.leds([.ready]), .buzzer(.off), .sound(nil)],
                "the menu already shows P  2: only the LED changes")
        guard case .workout(let workout) = driver.machine.mode else { Issue.record("not workout"); return }
        #expect(workout.preset.name == "core")
    }

    @Test func dismissLeavesTheMenuForThePreviousIdle() {
        var driver = kiosk()
        driver.send(.turned(2), at: at(0.5))  // rest 120 s
        longPress(&driver, at: 1)
        driver.send(.turned(1), at: at(4))
        #expect(driver.send(.pressed(.dismiss), at: at(5)) == [.display(.time(seconds: 120)), .leds([.ready]), .buzzer(.off), .sound(nil)])
        guard case .rest(let rest) = driver.machine.mode else { Issue.record("not rest"); return }
        #expect(rest.durationSeconds == 120)
    }

    @Test func anUntouchedMenuClosesByItself() {
        var driver = kiosk()
        longPress(&driver, at: 1)
        driver.send(.turned(1), at: at(10))
        driver.run(to: at(39.9))
        #expect(menuSelection(driver.machine) == .interval)
        driver.run(to: at(40))
        guard case .rest = driver.machine.mode else { Issue.record("still \(driver.machine.mode)"); return }
        #expect(driver.display(at: at(40)) == .time(seconds: 90))
    }

    @Test func leavingRestModeRecordsItsSets() {
        var driver = kiosk(KioskSettings(rest: RestSettings(defaultSeconds: 15)))
        driver.send(.pressed(.start), at: at(0))
        driver.run(to: at(16))
        driver.send(.pressed(.dismiss), at: at(16))  // one set
        longPress(&driver, at: 20)
        driver.send(.turned(1), at: at(23))
        driver.send(.pressed(.start), at: at(24))
        #expect(driver.records == [WorkoutRecord(kind: .rest, sets: 1, duration: .seconds(24), endedAt: at(24))])
    }

    @Test func theChoiceSurvivesARestart() throws {
        var driver = kiosk(twoPresets)
        longPress(&driver, at: 1)
        driver.send(.turned(3), at: at(4))
        driver.send(.pressed(.start), at: at(5))
        let stored = try JSONEncoder().encode(driver.machine)
        var rebuilt = try JSONDecoder().decode(Kiosk.self, from: stored)
        #expect(rebuilt == driver.machine)
        #expect(rebuilt.start(at: at(100)).first == .display(DisplayContent(text: "P  2")))
    }

    @Test func holdingDismissOutsideRestModeResets() {
        var driver = kiosk(KioskSettings(startMode: .interval))
        driver.send(.pressed(.start), at: at(0))
        driver.send(.pressed(.dismiss), at: at(5))
        driver.send(.held(.dismiss), at: at(7))
        guard case .interval(let interval) = driver.machine.mode else { Issue.record("not interval"); return }
        #expect(interval.state == .idle)
        #expect(driver.records.isEmpty)
    }
}
