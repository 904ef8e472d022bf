import Foundation
import Testing
@testable import GymTimerCore

/// A class's program sent by the coach (`KioskCommand.selectProgram`): the configured program
/// when it is one, else the class's own after the configured ones — in the menu until the mode
/// is left, replaced by the next class's, refused while something runs or when out of limits.
@Suite struct ClassProgramKioskTests {
    let sent = Program(name: "Row 3 x 40", label: "ro 3", leadInSeconds: 5, format: .intervals(rounds: 3, workSeconds: 40, restSeconds: 20))

    func kiosk() -> Driver<Kiosk> { .startedKiosk() }

    func program(_ kiosk: Kiosk) -> ProgramMode? {
        if case .program(let program) = kiosk.mode { return program }
        return nil
    }

    @Test func aProgramTheConfigLacksIsOfferedAfterTheConfiguredOnes() {
        var driver = kiosk()
        let effects = driver.send(.command(.selectProgram(sent)), at: at(1))
        #expect(effects.contains(.display(DisplayContent(text: "ro 3"))), "\(effects)")
        let mode = program(driver.machine)
        #expect(mode?.programs == Program.builtIns + [sent] && mode?.selected == 4 && mode?.classProgram == sent)
        #expect(driver.machine.menu(at: at(2))?.programLabels == Program.builtIns.map(\.label) + ["ro 3"])
        // Started as a press would: its lead-in, then round 1 of its 3.
        driver.send(.pressed(.start), at: at(2))
        driver.send(.released(.start), at: at(2.1))
        driver.run(to: at(10))
        #expect(program(driver.machine)?.run?.round == 1 && driver.cues.contains("go"), "\(driver.cues)")
    }

    @Test func aConfiguredDefinitionSelectsTheConfiguredProgramAndANewClassReplacesTheOld() {
        var driver = kiosk()
        driver.send(.command(.selectProgram(sent)), at: at(1))
        driver.send(.command(.selectProgram(Program.builtIns[2])), at: at(2))
        #expect(program(driver.machine)?.programs == Program.builtIns && program(driver.machine)?.selected == 2)
        let other = Program(name: "Cap 5", label: "C 5", leadInSeconds: 0, format: .forTime(capSeconds: 300))
        driver.send(.command(.selectProgram(sent)), at: at(3))
        driver.send(.command(.selectProgram(other)), at: at(4))
        #expect(program(driver.machine)?.programs == Program.builtIns + [other])
    }

    @Test func whileSomethingRunsOrOutOfLimitsItIsRefusedAndChangesNothing() {
        var driver = kiosk()
        let bad = Program(name: "X", label: "A", format: .amrap(timeSeconds: 6000))
        let refused = driver.send(.command(.selectProgram(bad)), at: at(1))
        #expect(refused.contains(.refused(KioskRefusal("select", "the program's time_seconds must be within 1...5999"))), "\(refused)")
        driver.send(.pressed(.start), at: at(2))
        let busy = driver.send(.command(.selectProgram(sent)), at: at(3))
        #expect(busy.contains { if case .refused(let refusal) = $0 { refusal.reason.hasPrefix("only while the station is idle") } else { false } })
        guard case .rest = driver.machine.mode else { Issue.record("\(driver.machine.mode)"); return }
    }

    /// A class's instant is when the work begins: the program's own lead-in is placed to end then
    /// — begun earlier, or (when the class's lead was shorter) shortened, its past beeps not given.
    @Test func aClassesLeadInEndsAtTheClassesInstant() {
        var driver = kiosk()
        driver.send(.command(.selectProgram(sent)), at: at(1))
        let started = driver.send(.command(.classStart(expecting: nil, workBegins: at(5))), at: at(2))
        #expect(started.contains(.display(.time(seconds: 3))), "3 s of its 5 s lead-in left: \(started)")
        #expect(program(driver.machine)?.run?.inLeadIn == true)
        driver.run(to: at(6))
        let go = driver.log.filter { if case .sound(.go?) = $0.effect { true } else { false } }.map(\.at)
        #expect(go == [at(5)], "go at the class's instant: \(go)")
        #expect(!driver.log.contains { $0.at < at(2) && $0.effect != .display(DisplayContent(text: "ro 3")) && $0.at > at(1.5) })
        driver.run(to: at(5 + 40 + 20 + 40 + 20 + 40 + 1))
        let record = driver.log.compactMap { if case .record(let record) = $0.effect { record } else { nil } }.first
        #expect(record?.duration == .seconds(160), "the work, from the instant: \(String(describing: record))")
    }
}
