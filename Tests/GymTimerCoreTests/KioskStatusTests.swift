import Testing
@testable import GymTimerCore

/// The status line in words, as `systemctl status` and the terminal kiosk show it.
@Suite struct KioskStatusTests {
    func driver(_ settings: KioskSettings) -> Driver<Kiosk> {
        var kiosk = Kiosk(settings: settings)
        var driver = Driver(kiosk)
        _ = kiosk.start(at: .origin)
        driver.machine = kiosk
        return driver
    }

    @Test func restSaysItsDurationSetsAndWhatDismissDoes() {
        var d = driver(KioskSettings())
        #expect(d.machine.statusLine == "rest mode: idle, 90 s, 0 sets")
        d.send(.pressed(.start), at: at(1))
        #expect(d.machine.statusLine == "rest mode: resting, 0 sets done")
        d.run(to: at(92))
        #expect(d.machine.statusLine == "rest mode: alarm — dismiss stops it")
        d.send(.pressed(.dismiss), at: at(93))
        #expect(d.machine.statusLine == "rest mode: idle, 90 s, 1 set")
    }

    @Test func intervalSaysTheSetAndTheIntensity() {
        var settings = KioskSettings(startMode: .interval)
        settings.interval = IntervalSettings(phaseSeconds: 30, sets: 8, startWith: .low)
        var d = driver(settings)
        #expect(d.machine.statusLine == "interval mode: idle, 8 sets of 30 s + 30 s")
        d.send(.pressed(.start), at: at(1))
        #expect(d.machine.statusLine == "interval mode: set 1 of 8, low")
        d.run(to: at(1 + 30 * 5 + 1))
        #expect(d.machine.statusLine == "interval mode: set 3 of 8, high")
        d.send(.pressed(.dismiss), at: at(160))
        #expect(d.machine.statusLine == "interval mode: set 3 of 8, high, paused")
    }

    @Test func workoutSaysTheExerciseAndWhatComesNext() {
        var settings = KioskSettings(startMode: .workout)
        settings.workout = WorkoutSettings(presets: [
            WorkoutPreset(name: "core", exerciseSeconds: 20, restSeconds: 10, calories: 80, exercises: ["Plank", "Crunch"]),
        ])
        var d = driver(settings)
        #expect(d.machine.statusLine == "workout mode: idle, core")
        d.send(.pressed(.start), at: at(1))
        #expect(d.machine.statusLine == "workout mode: core, exercise 1 of 2: Plank")
        d.run(to: at(22))
        #expect(d.machine.statusLine == "workout mode: core, rest, next: Crunch")
        d.run(to: at(32))
        #expect(d.machine.statusLine == "workout mode: core, exercise 2 of 2: Crunch")
        d.run(to: at(53))
        #expect(d.machine.statusLine == "workout mode: core complete, 2 exercises")
    }

    @Test func theMenuNamesWhatStartWouldPick() {
        var d = driver(KioskSettings())
        d.send(.pressed(.start), at: at(1))
        d.send(.held(.start), at: at(3))
        #expect(d.machine.statusLine == "mode menu: rest")
        d.send(.turned(1), at: at(4))
        #expect(d.machine.statusLine == "mode menu: interval")
        d.send(.turned(1), at: at(5))
        #expect(d.machine.statusLine == "mode menu: workout full-body")
        d.send(.turned(1), at: at(6))
        #expect(d.machine.statusLine == "mode menu: program Tabata")
    }
}
