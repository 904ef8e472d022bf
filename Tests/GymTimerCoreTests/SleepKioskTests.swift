import Foundation
import Testing
@testable import GymTimerCore

/// The kiosk at night (`Kiosk+Sleep`): an idle, untouched display goes dark; a touch only wakes
/// it; a run or a coach's command keeps it lit; the window survives a restart.
@Suite struct SleepKioskTests {
    let window = try! SleepWindow.parse(from: "22:00", until: "06:00").get()
    let awake = Double(Kiosk.awakeAfterUse.components.seconds)

    func nightKiosk() -> Driver<Kiosk> {
        var kiosk = Kiosk(settings: KioskSettings())
        _ = kiosk.start(at: .origin)
        var driver = Driver(kiosk)
        #expect(driver.send(.command(.setSleepWindow(window)), at: at(1)) == [])
        return driver
    }

    func click(_ driver: inout Driver<Kiosk>, _ button: ControlButton, at seconds: Double) {
        driver.send(.pressed(button), at: at(seconds))
        driver.send(.released(button), at: at(seconds + 0.08))
    }

    @Test func theEdgeDarkensAnIdleDisplayAndATouchOnlyWakesIt() {
        var driver = nightKiosk()
        let idle = driver.machine
        #expect(driver.send(.command(.sleep), at: at(10)) == [.display(.blank), .leds([])])
        #expect(driver.machine.isAsleep)
        // A press in the dark lights the display and starts nothing, nor does its hold open the menu.
        let woken = driver.send(.pressed(.start), at: at(20))
        #expect(woken.contains(.display(.time(seconds: 90))))
        driver.send(.held(.start), at: at(22))
        driver.send(.released(.start), at: at(22.5))
        #expect(driver.machine.mode == idle.mode, "the waking press started nothing")
        #expect(!driver.machine.isAsleep)
        // Untouched, it goes dark again `awakeAfterUse` after the touch.
        #expect(driver.machine.nextDeadline(after: at(23)) == at(22.5 + awake))
        driver.run(to: at(22.5 + awake))
        #expect(driver.display(at: at(22.5 + awake)) == .blank)
        #expect(driver.machine.isAsleep)
        // The knob wakes it too, and the rest of that spin (detent after detent) does not turn the rest.
        driver.send(.turned(1), at: at(1000))
        #expect(driver.display(at: at(1000)) == .time(seconds: 90))
        for step in 1...4 { #expect(driver.send(.turned(1), at: at(1000 + 0.2 * Double(step))) == []) }
        #expect(driver.machine.mode == idle.mode, "the waking spin changed nothing")
        // A turn after a pause acts: 15 s more.
        #expect(driver.send(.turned(1), at: at(1003)).contains(.display(.time(seconds: 105))))
        driver.send(.turned(-1), at: at(1003.5))
        // Untouched, dark again; the window's end lights it for good.
        driver.run(to: at(1003.5 + awake))
        #expect(driver.display(at: at(1003.5 + awake)) == .blank)
        #expect(driver.send(.command(.wake), at: at(2000)).contains(.display(.time(seconds: 90))))
        #expect(driver.machine.nextDeadline(after: at(2000)) == nil, "lit by day, nothing to wait for")
    }

    @Test func aPressOnTheLitDisplayAtNightStartsAndARunStaysLitUntilItEndsPlusTheGrace() {
        var driver = nightKiosk()
        driver.send(.command(.sleep), at: at(10))
        click(&driver, .start, at: 20)  // wakes
        click(&driver, .start, at: 21)  // starts the 90 s rest
        #expect(!driver.machine.isIdle)
        driver.run(to: at(2000))
        // The rest ran to 111, its alarm to 141, then idle: dark `awakeAfterUse` after that, not before.
        let darkAt = driver.log.first { $0.at > at(21) && $0.effect == .display(.blank) }?.at
        #expect(darkAt == at(141 + awake))
        #expect(driver.effects(at: at(141 + awake)) == [.display(.blank), .leds([])])
    }

    @Test func aCoachsStartActsInTheDarkAndAMessageShows() {
        var driver = nightKiosk()
        driver.send(.command(.sleep), at: at(10))
        let started = driver.send(.command(.classStart(expecting: nil)), at: at(20))
        #expect(!driver.machine.isIdle, "a class start is obeyed, not swallowed")
        #expect(started.contains { if case .display(let shown) = $0 { shown != .blank } else { false } })
        driver.send(.command(.reset), at: at(30))
        driver.run(to: at(30 + awake))
        #expect(driver.machine.isAsleep)
        #expect(driver.send(.command(.showMessage(text: "GO", seconds: 5)), at: at(1000)).contains(.display(DisplayContent(text: " GO "))))
        driver.run(to: at(1005))
        #expect(driver.display(at: at(1005)) == .time(seconds: 90), "the message counts as a use: lit after it")
        driver.run(to: at(1000 + awake))
        #expect(driver.display(at: at(1000 + awake)) == .blank)
    }

    @Test func aLockedDarkKioskWakesOnATouchThenSaysLoc() {
        var driver = nightKiosk()
        driver.send(.command(.lockButtons(true)), at: at(2))
        driver.send(.command(.sleep), at: at(400))
        #expect(driver.machine.isAsleep)
        click(&driver, .start, at: 500)
        #expect(driver.display(at: at(500.1)) == .time(seconds: 90))
        click(&driver, .start, at: 501)
        #expect(driver.display(at: at(501.1)) == DisplayContent(text: "Loc"))
    }

    @Test func theWindowSurvivesARestartAndTurningItOffWakes() throws {
        var driver = nightKiosk()
        driver.send(.command(.sleep), at: at(10))
        let encoder = JSONEncoder()
        encoder.outputFormatting = .sortedKeys
        let stored = try encoder.encode(KioskProgress(driver.machine))
        #expect(String(decoding: stored, as: UTF8.self).contains(#""sleepWindow":{"from":1320,"until":360}"#))
        let progress = try JSONDecoder().decode(KioskProgress.self, from: stored)
        var restored = KioskRestore(progress: progress, savedAt: at(11), settings: KioskSettings()).kiosk
        #expect(restored.sleepWindow == window)
        #expect(!restored.isNight, "whether it is night is the runtime's to say again")
        _ = restored.start(at: at(12))
        #expect(restored.handle(.command(.sleep), at: at(12)) == [.display(.blank), .leds([])])
        #expect(restored.handle(.command(.setSleepWindow(nil)), at: at(13)).contains(.display(.time(seconds: 90))))
        #expect(!restored.isAsleep && restored.sleepWindow == nil)
        // A journal with a window that is not one reads as none, and the rest of it stands.
        let hostile = #"{"mode":{"kind":"rest"},"brightness":40,"sleepWindow":{"from":5,"until":5}}"#
        let read = try JSONDecoder().decode(KioskProgress.self, from: Data(hostile.utf8))
        #expect(read.sleepWindow == nil && read.brightness == 40)
    }

    @Test func withoutAWindowTheRuntimesWordChangesNothing() {
        var kiosk = Kiosk(settings: KioskSettings())
        _ = kiosk.start(at: .origin)
        #expect(kiosk.handle(.command(.sleep), at: at(1)) == [])
        #expect(!kiosk.isAsleep)
        #expect(kiosk.handle(.pressed(.start), at: at(2)).contains { if case .display = $0 { true } else { false } })
    }
}
