import Foundation
import Testing
@testable import GymTimerCore

/// Commands from outside (`KioskCommand`): one meaning whatever the mode, and a refusal that
/// changes nothing. (Before them, the fleet replayed presses: a scheduled start on a station
/// whose athlete had started a rest cancelled the rest, and in a Tabata paused it.)
@Suite struct KioskCommandTests {
    func kiosk(_ settings: KioskSettings = KioskSettings()) -> Driver<Kiosk> {
        var kiosk = Kiosk(settings: settings)
        _ = kiosk.start(at: .origin)
        return Driver(kiosk)
    }

    func refusals(_ effects: [Effect]) -> [KioskRefusal] {
        effects.compactMap { if case .refused(let refusal) = $0 { refusal } else { nil } }
    }

    func restDeadline(_ kiosk: Kiosk) -> Moment? {
        if case .rest(let rest) = kiosk.mode, case .resting(let countdown, _) = rest.phase { return countdown.deadline }
        return nil
    }

    @Test func aPausedRestKeepsItsTimeLeftAndResumesWhereItWas() {
        var driver = kiosk()
        driver.send(.pressed(.start), at: at(0))
        driver.send(.released(.start), at: at(0.1))
        let paused = driver.send(.command(.pause), at: at(10))
        #expect(refusals(paused).isEmpty)
        #expect(paused.contains(.display(.time(seconds: 80, blink: .colon))))
        #expect(driver.machine.nextDeadline(after: at(10)) == nil, "a paused rest asks for no wake-up")
        driver.run(to: at(500))
        let resumed = driver.send(.command(.resume), at: at(500))
        #expect(resumed.contains(.display(.time(seconds: 80))))
        #expect(restDeadline(driver.machine) == at(580))
        driver.run(to: at(580))
        #expect(driver.cues.last == "alarm")
    }

    @Test func pausingWhatDoesNotRunIsRefusedAndChangesNothing() {
        var driver = kiosk()
        let before = driver.machine
        for command in [KioskCommand.pause, .resume] {
            let effects = driver.send(.command(command), at: at(1))
            #expect(effects.count == 1 && refusals(effects).count == 1, "\(command): \(effects)")
            #expect(driver.machine == before)
        }
    }

    @Test(arguments: [StartMode.interval, .workout, .program])
    func anyRunPausesResumesAndResetsWithoutARecord(mode: StartMode) {
        var driver = kiosk(KioskSettings(startMode: mode))
        driver.send(.command(.press(.start)), at: at(0))
        #expect(!driver.machine.isIdle)
        let paused = driver.send(.command(.pause), at: at(30))
        #expect(refusals(paused).isEmpty, "\(paused)")
        #expect(FleetPhase.of(driver.machine) == "paused")
        #expect(!refusals(driver.send(.command(.pause), at: at(31))).isEmpty, "pausing twice is refused")
        #expect(refusals(driver.send(.command(.resume), at: at(40))).isEmpty)
        #expect(FleetPhase.of(driver.machine) == "running")
        driver.send(.command(.reset), at: at(45))
        #expect(driver.machine.isIdle)
        #expect(!driver.log.contains { if case .record = $0.effect { true } else { false } }, "reset records nothing")
    }

    @Test func aResetRestForgetsItsSetsUnrecorded() {
        var driver = kiosk()
        driver.send(.pressed(.start), at: at(0))
        driver.run(to: at(91))
        driver.send(.pressed(.start), at: at(91))  // the alarm answered: one set, the next rest
        let effects = driver.send(.command(.reset), at: at(100))
        #expect(!effects.contains { if case .record = $0 { true } else { false } })
        guard case .rest(let rest) = driver.machine.mode else { Issue.record("left rest mode"); return }
        #expect(rest.isIdle && rest.sets == 0)
    }

    @Test func aClassStartOnAStationWhoseAthleteStartedARestLeavesTheRestAlone() {
        var driver = kiosk()
        driver.send(.pressed(.start), at: at(5))
        driver.send(.released(.start), at: at(5.1))
        let before = driver.machine
        let effects = driver.send(.command(.classStart(expecting: .rest)), at: at(10))
        #expect(refusals(effects).count == 1)
        #expect(refusals(effects).first?.reason.contains("no longer idle") == true)
        #expect(driver.machine == before, "the rest is neither cancelled nor paused")
        #expect(restDeadline(driver.machine) == at(95))
    }

    @Test func aClassStartDuringATabataLeavesItRunning() {
        var driver = kiosk(KioskSettings(startMode: .program))
        driver.send(.pressed(.start), at: at(0))
        driver.send(.released(.start), at: at(0.1))
        driver.run(to: at(15))
        let effects = driver.send(.command(.classStart(expecting: .program(0))), at: at(15))
        #expect(refusals(effects).count == 1)
        #expect(FleetPhase.of(driver.machine) == "running", "the Tabata is not paused")
    }

    @Test func aClassStartChecksWhatIsSelected() {
        var driver = kiosk()
        #expect(refusals(driver.send(.command(.classStart(expecting: .interval)), at: at(1))).count == 1)
        #expect(driver.machine.isIdle)
        #expect(refusals(driver.send(.command(.classStart(expecting: .rest)), at: at(2))).isEmpty)
        #expect(restDeadline(driver.machine) == at(92))
    }

    @Test func aClassStartWithoutExpectationStartsWhateverIsIdle() {
        var driver = kiosk(KioskSettings(startMode: .interval))
        #expect(refusals(driver.send(.command(.classStart(expecting: nil)), at: at(1))).isEmpty)
        #expect(FleetPhase.of(driver.machine) == "running")
    }

    @Test func setRestTakesOnlyWhatTheKnobCanReach() {
        var driver = kiosk()  // 15…300 s in steps of 15, 90 s
        func duration() -> Int? { if case .rest(let rest) = driver.machine.mode { rest.durationSeconds } else { nil } }
        for refused in [7, 100, 301, 3600] {
            #expect(refusals(driver.send(.command(.setRest(seconds: refused)), at: at(1))).count == 1, "\(refused)")
            #expect(duration() == 90, "\(refused) s changed the rest (was silently clamped before)")
        }
        #expect(refusals(driver.send(.command(.setRest(seconds: 120)), at: at(2))).isEmpty)
        #expect(duration() == 120)
        #expect(refusals(driver.send(.command(.setRest(seconds: 300)), at: at(3))).isEmpty)
        #expect(duration() == 300)
        driver.send(.pressed(.start), at: at(4))
        #expect(refusals(driver.send(.command(.setRest(seconds: 60)), at: at(5))).count == 1, "not while resting")
    }

    @Test func setRestTakesTheSlidersGridFromTheRangesStartToo() {
        var driver = kiosk(KioskSettings(rest: RestSettings(defaultSeconds: 100)))  // off the 15 s grid from 15
        #expect(refusals(driver.send(.command(.setRest(seconds: 105)), at: at(1))).isEmpty, "on the grid from 15 s")
        #expect(refusals(driver.send(.command(.setRest(seconds: 107)), at: at(2))).count == 1)
        #expect(refusals(driver.send(.command(.setRest(seconds: 135)), at: at(3))).isEmpty, "105 + 2 detents")
    }

    @Test func selectNamesAreResolvedByTheKiosk() {
        let kiosk = Kiosk(settings: KioskSettings())
        #expect(kiosk.menuEntry(for: .program, named: "AMRAP 12") == .success(.program(2)))
        #expect(kiosk.menuEntry(for: .program, named: nil) == .success(.program(0)))
        #expect(kiosk.menuEntry(for: .workout, named: "full-body") == .success(.workout(preset: 0)))
        #expect((try? kiosk.menuEntry(for: .program, named: "Yoga").get()) == nil)
        #expect((try? kiosk.menuEntry(for: .rest, named: "x").get()) == nil)
    }

    @Test func selectPicksAnEntryOnlyWhileIdle() {
        var driver = kiosk()
        #expect(refusals(driver.send(.command(.select(.program(0))), at: at(1))).isEmpty)
        guard case .program = driver.machine.mode else { Issue.record("not in program mode"); return }
        #expect(refusals(driver.send(.command(.select(.program(99))), at: at(2))).count == 1)
        driver.send(.command(.press(.start)), at: at(3))
        #expect(refusals(driver.send(.command(.select(.rest)), at: at(4))).count == 1)
        guard case .program = driver.machine.mode else { Issue.record("a busy station changed mode"); return }
    }
}

/// The phase as the fleet reports it, for these tests (running, paused, idle…).
enum FleetPhase {
    static func of(_ kiosk: Kiosk) -> String {
        switch kiosk.mode {
        case .rest(let rest):
            switch rest.phase {
            case .idle: return "idle"
            case .resting: return "running"
            case .paused: return "paused"
            case .alarm: return "alarm"
            }
        case .interval(let mode): return phase(mode.run)
        case .workout(let mode): return phase(mode.run)
        case .program(let mode): return phase(mode.run)
        case .menu: return "menu"
        }
    }

    static func phase(_ run: ProgramRun?) -> String {
        guard let run else { return "idle" }
        if run.isFinished { return "complete" }
        return run.isPaused ? "paused" : "running"
    }
}

/// A rest paused on command is stored like any state, and trusted when read back.
@Suite struct PausedRestStorageTests {
    @Test func aPausedRestIsPlausibleAndAHostileOneIsNot() throws {
        var kiosk = Kiosk(settings: KioskSettings())
        _ = kiosk.handle(.pressed(.start), at: at(0))
        _ = kiosk.handle(.command(.pause), at: at(10))
        #expect(kiosk.isPlausible(around: at(11), within: .seconds(60)))
        let data = try JSONEncoder().encode(kiosk)
        #expect(try JSONDecoder().decode(Kiosk.self, from: data) == kiosk)
        // The same kiosk with a paused remainder longer than any rest the settings allow.
        var text = String(decoding: data, as: UTF8.self)
        let remaining = try #require(text.range(of: #""remaining":\[[^\]]*\]"#, options: .regularExpression))
        text.replaceSubrange(remaining, with: #""remaining":[9000000000,0]"#)  // seconds, attoseconds
        let hostile = try JSONDecoder().decode(Kiosk.self, from: Data(text.utf8))
        #expect(!hostile.isPlausible(around: at(11), within: .seconds(60)))
    }

    @Test func aPausedRestSurvivesARestartThroughTheJournalsProgress() throws {
        var kiosk = Kiosk(settings: KioskSettings())
        _ = kiosk.handle(.pressed(.start), at: at(0))
        _ = kiosk.handle(.command(.pause), at: at(10))
        let progress = try JSONDecoder().decode(KioskProgress.self, from: JSONEncoder().encode(KioskProgress(kiosk)))
        let restored = KioskRestore(progress: progress, savedAt: at(11), settings: KioskSettings())
        #expect(!restored.implausible && restored.notes.isEmpty, "\(restored.notes)")
        #expect(restored.kiosk == kiosk, "the paused rest, its time left and its beeps come back as they were")
    }
}
