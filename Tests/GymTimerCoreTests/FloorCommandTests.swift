import Foundation
import Testing
@testable import GymTimerCore

/// What a coach lays over a kiosk from the console or `gymtimer fleet`: a message on the
/// display over whatever runs, and the lock of the wall's buttons. Neither touches the mode.
@Suite struct FloorCommandTests {
    func kiosk(_ settings: KioskSettings = KioskSettings()) -> Driver<Kiosk> {
        var kiosk = Kiosk(settings: settings)
        _ = kiosk.start(at: .origin)
        return Driver(kiosk)
    }

    func click(_ driver: inout Driver<Kiosk>, _ button: ControlButton, at seconds: Double) {
        driver.send(.pressed(button), at: at(seconds))
        driver.send(.released(button), at: at(seconds + 0.08))
    }

    func restDeadline(_ kiosk: Kiosk) -> Moment? {
        if case .rest(let rest) = kiosk.mode, case .resting(let countdown, _) = rest.phase { return countdown.deadline }
        return nil
    }

    @Test func aLongMessageScrollsOverARunningRestWhichGoesOnUnderneath() {
        var driver = kiosk()
        click(&driver, .start, at: 0)
        let effects = driver.send(.command(.showMessage(text: "GO GO", seconds: 5)), at: at(10))
        #expect(effects == [.display(DisplayContent(text: "    "))])
        #expect(driver.machine.nextDeadline(after: at(10)) == at(10.35), "the next scroll step")
        driver.run(to: at(14.99))
        // Scrolling in from the right, one character every 0.35 s.
        #expect(driver.display(at: at(10.35)) == DisplayContent(text: "   G"))
        #expect(driver.display(at: at(11.4)) == DisplayContent(text: "GO G"))
        // The rest's seconds ticked underneath but were not shown.
        #expect(!driver.log.contains { $0.at > at(10) && $0.at < at(15) && $0.effect == .display(.time(seconds: 77)) })
        driver.run(to: at(15))
        // At the end the rest's own display is back, on the rest's own time.
        #expect(driver.display(at: at(15)) == .time(seconds: 75))
        #expect(restDeadline(driver.machine) == at(90))
        #expect(driver.machine.message == nil)
        driver.run(to: at(90))
        #expect(driver.cues.contains("alarm"))
    }

    @Test func aShortMessageStandsCentredAndUndrawableTextIsRefused() {
        var driver = kiosk()
        #expect(driver.send(.command(.showMessage(text: "GO", seconds: 3)), at: at(1)) == [.display(DisplayContent(text: " GO "))])
        #expect(driver.machine.nextDeadline(after: at(1)) == at(4), "a text that fits asks for no scroll steps")
        let before = driver.machine
        for (text, seconds) in [("KILL", 5), ("", 5), (String(repeating: "8", count: 65), 5), ("GO", 0), ("GO", 61), ("A\u{1B}[2J", 5)] {
            let effects = driver.send(.command(.showMessage(text: text, seconds: seconds)), at: at(2))
            guard case .refused(let refusal)? = effects.last, effects.count == 1 else {
                Issue.record("\(text.debugDescription) for \(seconds) s was not refused: \(effects)")
                continue
            }
            #expect(!refusal.reason.contains("\u{1B}"), "the refusal quotes no control character")
        }
        #expect(driver.machine == before)
    }

    @Test func aLockedKioskIgnoresHandsSaysLocAndObeysTheCoach() {
        var driver = kiosk()
        driver.send(.command(.lockButtons(true)), at: at(1))
        let before = driver.machine.mode
        click(&driver, .start, at: 2)
        driver.send(.turned(3), at: at(2.5))
        driver.send(.held(.start), at: at(4))
        #expect(driver.machine.mode == before, "no rest started, no knob change, no menu")
        #expect(driver.display(at: at(2)) == DisplayContent(text: "Loc "))
        driver.run(to: at(3.6))
        #expect(driver.display(at: at(3.6)) == .time(seconds: 90), "Loc for 1.5 s, then the kiosk's display")
        // The coach's start still works.
        driver.send(.command(.press(.start)), at: at(5))
        #expect(restDeadline(driver.machine) == at(95))
        driver.send(.command(.lockButtons(false)), at: at(6))
        click(&driver, .dismiss, at: 7)
        #expect(restDeadline(driver.machine) == nil, "unlocked: dismiss cancels the rest")
    }

    /// Locked wall buttons in a class's AMRAP: athletes still count their rounds (start), and
    /// nothing else a hand does gets through (no pause, no knob, no menu).
    @Test func aLockedAMRAPStillCountsRoundsAndNothingElse() {
        let amrap = Program(name: "AMRAP 1", label: "A 1", leadInSeconds: 0, format: .amrap(timeSeconds: 60))
        var driver = kiosk()
        driver.send(.command(.selectProgram(amrap)), at: at(0.5))
        driver.send(.command(.press(.start)), at: at(1))
        driver.send(.command(.lockButtons(true)), at: at(2))
        click(&driver, .start, at: 3)
        click(&driver, .start, at: 5)
        click(&driver, .dismiss, at: 6)
        driver.send(.held(.start), at: at(8))
        guard case .program(let program) = driver.machine.mode, let run = program.run else { Issue.record("\(driver.machine.mode)"); return }
        #expect(run.rounds == 2 && !run.isPaused && !run.isFinished, "two rounds counted, dismiss neither paused nor ended it")
        #expect(driver.display(at: at(6)) == DisplayContent(text: "Loc "), "dismiss is locked out")
    }

    @Test func theLockSurvivesARestartAndAnOldJournalHasNone() throws {
        var driver = kiosk()
        driver.send(.command(.lockButtons(true)), at: at(1))
        let stored = try JSONEncoder().encode(KioskProgress(driver.machine))
        let progress = try JSONDecoder().decode(KioskProgress.self, from: stored)
        let restored = KioskRestore(progress: progress, savedAt: at(2), settings: KioskSettings()).kiosk
        #expect(restored.lockedSince == at(1))
        // A journal written before the lock existed has no such field: unlocked.
        var old = try #require(JSONSerialization.jsonObject(with: stored) as? [String: Any])
        old["lockedSince"] = nil
        let oldProgress = try JSONDecoder().decode(KioskProgress.self, from: JSONSerialization.data(withJSONObject: old))
        #expect(KioskRestore(progress: oldProgress, savedAt: at(2), settings: KioskSettings()).kiosk.lockedSince == nil)
    }

    @Test func aCoachsBrightnessIsAnEffectKeptAcrossARestartAndRangeChecked() throws {
        var driver = kiosk()
        #expect(driver.send(.command(.setBrightness(percent: 30)), at: at(1)) == [.brightness(percent: 30)])
        let before = driver.machine
        for percent in [-1, 101, Int.max] {
            let effects = driver.send(.command(.setBrightness(percent: percent)), at: at(2))
            #expect(effects.count == 1 && { if case .refused = effects[0] { true } else { false } }(), "\(percent): \(effects)")
        }
        #expect(driver.machine == before)
        let progress = try JSONDecoder().decode(KioskProgress.self, from: JSONEncoder().encode(KioskProgress(driver.machine)))
        var restored = KioskRestore(progress: progress, savedAt: at(3), settings: KioskSettings()).kiosk
        #expect(restored.brightness == 30)
        #expect(restored.start(at: at(4)).contains(.brightness(percent: 30)), "a restarted kiosk sets it again")
        var fresh = Kiosk(settings: KioskSettings())
        #expect(!fresh.start(at: at(0)).contains { if case .brightness = $0 { true } else { false } }, "else the config's stays")
    }
}
