import GymTimerCore
import Testing
@testable import GymTimerSimulator

/// When the terminal kiosk says `workout ended: nothing recorded`: a guided session, a program
/// or an interval workout thrown away by a second dismiss while paused used to vanish without
/// a word (issue 25); a run that finishes and is recorded says nothing of the kind.
@Suite struct TerminalRunEndTests {
    /// A kiosk driven the way the terminal kiosk draws it: after every event, `threwAwayARun`
    /// decides whether the list gets the line. Returns the moments it did.
    struct Panel {
        var kiosk: Kiosk
        var now = Moment(nanoseconds: 0)
        var wasRunning = false
        var records: [WorkoutRecord] = []
        var notes: [Moment] = []

        init(_ settings: KioskSettings) { kiosk = Kiosk(settings: settings) }

        mutating func send(_ event: ControlEvent, at seconds: Double) {
            advance(to: Moment(.milliseconds(Int(seconds * 1000))))
            step(event)
        }

        /// Every deadline up to `moment`, each drawn.
        mutating func advance(to moment: Moment) {
            while let next = kiosk.nextDeadline(after: now), next <= moment {
                now = next
                step(.deadline)
            }
            now = moment
        }

        private mutating func step(_ event: ControlEvent) {
            let effects = kiosk.handle(event, at: now)
            let recorded = effects.compactMap { if case .record(let record) = $0 { record } else { nil } }
            records += recorded
            if TerminalSimulation.threwAwayARun(before: wasRunning, after: kiosk, recorded: !recorded.isEmpty) {
                notes.append(now)
            }
            wasRunning = kiosk.runInProgress
        }

        mutating func click(_ button: ControlButton, at seconds: Double) {
            send(.pressed(button), at: seconds)
            send(.released(button), at: seconds + 0.1)
        }
    }

    static let short = WorkoutPreset(name: "short", exerciseSeconds: 3, restSeconds: 2, calories: 10, exercises: ["a", "b"])

    @Test(arguments: [StartMode.workout, .program, .interval])
    func aSecondDismissWhilePausedSaysNothingWasRecorded(mode: StartMode) {
        var panel = Panel(KioskSettings(startMode: mode, workout: WorkoutSettings(presets: [Self.short], presetName: "short")))
        panel.click(.start, at: 1)
        #expect(panel.kiosk.runInProgress)
        // Past a program's 10 s lead-in, in the first exercise / work interval / low phase.
        panel.click(.dismiss, at: mode == .program ? 12 : 2)
        #expect(panel.kiosk.runInProgress, "the first dismiss pauses (\(panel.kiosk.statusLine))")
        #expect(panel.notes.isEmpty)
        panel.click(.dismiss, at: 30)
        #expect(panel.kiosk.isIdle && !panel.kiosk.runInProgress)
        #expect(panel.records.isEmpty)
        #expect(panel.notes == [Moment(.seconds(30))], "the second dismiss throws the run away, and says so")
    }

    @Test func recordsAreNamedByWhatTheyWere() {
        #expect(TerminalSimulation.recordedText(WorkoutRecord(kind: .rest, sets: 1, duration: .seconds(60), endedAt: Moment(.seconds(60))))
            == "recorded: rest workout, 1 set")
        #expect(TerminalSimulation.recordedText(WorkoutRecord(kind: .interval, sets: 2, duration: .seconds(20), endedAt: Moment(.seconds(60))))
            == "recorded: interval workout, 2 sets")
        #expect(TerminalSimulation.recordedText(WorkoutRecord(
            kind: .program, sets: 8, duration: .seconds(240), preset: "Tabata", score: ProgramScore(rounds: 8), endedAt: Moment(.seconds(300))))
            == "recorded: program Tabata, 8 rounds")
    }

    @Test func aHoldOfDismissSaysItOnce() {
        var panel = Panel(KioskSettings(startMode: .program))
        panel.click(.start, at: 1)
        panel.send(.pressed(.dismiss), at: 3)
        panel.send(.held(.dismiss), at: 5)
        panel.send(.released(.dismiss), at: 6)
        #expect(panel.kiosk.isIdle && panel.records.isEmpty)
        #expect(panel.notes == [Moment(.seconds(5))])
    }

    @Test func aSessionRunToItsEndIsRecordedNotThrownAway() {
        var panel = Panel(KioskSettings(startMode: .workout, workout: WorkoutSettings(presets: [Self.short], presetName: "short")))
        panel.click(.start, at: 1)
        panel.advance(to: Moment(.seconds(20)))
        #expect(panel.records.count == 1)
        // It used to say "recorded: workout workout, 2 sets".
        #expect(panel.records.map(TerminalSimulation.recordedText) == ["recorded: guided workout short, 2 exercises"])
        panel.click(.start, at: 21)
        #expect(panel.kiosk.isIdle)
        #expect(panel.notes.isEmpty)
    }
}
