import Foundation
import Testing
@testable import GymTimerCore

/// A stored kiosk read back after a hand edit or damage (issue #12, items 3 and 4): every
/// number an edit can change is either refused by `KioskRestore` or safe to run with.
@Suite struct KioskRestoreTests {
    static let settings = KioskSettings()

    /// Kiosks in every mode and phase a stored file can hold, saved at their moment.
    static var snapshots: [(Kiosk, Moment)] {
        var result: [(Kiosk, Moment)] = []
        func drive(_ events: [(ControlEvent, Double)], then seconds: Double) {
            var driver = Driver(Kiosk(settings: settings), at: at(1000))
            for (event, time) in events { driver.send(event, at: at(1000 + time)) }
            driver.run(to: at(1000 + seconds))
            result.append((driver.machine, driver.now))
        }
        drive([(.pressed(.start), 1)], then: 5)  // resting
        drive([(.pressed(.start), 1)], then: 100)  // alarm, a set counted
        drive([(.pressed(.start), 1), (.pressed(.dismiss), 100), (.pressed(.start), 101)], then: 110)  // second rest
        drive([(.pressed(.start), 1), (.held(.start), 3)], then: 4)  // the menu
        drive([(.pressed(.start), 1), (.held(.start), 3), (.turned(1), 4), (.pressed(.start), 5), (.pressed(.start), 6)], then: 20)  // interval
        drive([(.pressed(.start), 1), (.held(.start), 3), (.turned(2), 4), (.pressed(.start), 5), (.pressed(.start), 6)], then: 20)  // session
        drive([(.pressed(.start), 1), (.held(.start), 3), (.turned(2), 4), (.pressed(.start), 5), (.pressed(.start), 6), (.pressed(.dismiss), 8)], then: 20)  // paused
        // A class's program the config never had, sent by the coach, mid-run.
        drive([(.command(.selectProgram(classProgram)), 1), (.pressed(.start), 2)], then: 20)
        return result
    }

    static let classProgram = Program(
        name: "Row 3 x 40", label: "ro 3", leadInSeconds: 5, format: .intervals(rounds: 3, workSeconds: 40, restSeconds: 20))

    /// A station restarted during a class whose program only the class had carries on with it:
    /// the journal's progress holds the definition.
    @Test func aRestartDuringAClassProgramCarriesOnWithIt() throws {
        let (kiosk, savedAt) = Self.snapshots.last!
        let data = try JSONEncoder().encode(KioskProgress(kiosk))
        let restore = KioskRestore(progress: try JSONDecoder().decode(KioskProgress.self, from: data), savedAt: savedAt, settings: Self.settings)
        guard case .program(let program) = restore.kiosk.mode else { Issue.record("\(restore.kiosk.mode)"); return }
        #expect(!restore.implausible && restore.notes.isEmpty, "\(restore.notes)")
        #expect(program.program == Self.classProgram && program.run?.round == 1 && program.run?.isFinished == false)
        #expect(restore.kiosk == kiosk)
    }

    @Test func aPlausibleKioskIsRestoredAsItWas() {
        for (kiosk, savedAt) in Self.snapshots {
            let restore = KioskRestore(kiosk, savedAt: savedAt, settings: Self.settings)
            #expect(!restore.implausible)
            #expect(restore.kiosk == kiosk)
        }
    }

    /// Every integer in every snapshot's JSON, set in turn to extremes an edit could write:
    /// the kiosk is refused, or it runs (start, deadlines, every input) without trapping.
    @Test(arguments: [Int64.max, Int64.min, -1, 1 << 40])
    func everyEditedNumberIsRefusedOrSafe(value: Int64) throws {
        try expectEveryEdit(to: value, of: Kiosk.self, \.self) { KioskRestore($0, savedAt: $1, settings: Self.settings) }
    }

    /// The same for the journal's own format (the progress): every integer of every snapshot's
    /// progress set to an extreme is refused or runs without trapping.
    @Test(arguments: [Int64.max, Int64.min, -1, 1 << 40])
    func everyEditedNumberOfTheProgressIsRefusedOrSafe(value: Int64) throws {
        try expectEveryEdit(to: value, of: KioskProgress.self, { KioskProgress($0) }) {
            KioskRestore(progress: $0, savedAt: $1, settings: Self.settings)
        }
    }

    /// Stores each snapshot as `Stored` (`store`), sets each of its integers to `value` in
    /// turn and restores it (`restore`): refused, or run through every input without trapping.
    func expectEveryEdit<Stored: Codable>(
        to value: Int64, of _: Stored.Type, _ store: (Kiosk) -> Stored, restore: (Stored, Moment) -> KioskRestore
    ) throws {
        let encoder = JSONEncoder()
        encoder.outputFormatting = [.sortedKeys]
        let number = try NSRegularExpression(pattern: "(?<=[:\\[,])-?[0-9]+(?=[,\\]}])")
        var refused = 0, kept = 0
        for (kiosk, savedAt) in Self.snapshots {
            let json = String(decoding: try encoder.encode(store(kiosk)), as: UTF8.self)
            for match in number.matches(in: json, range: NSRange(json.startIndex..., in: json)) {
                let edited = (json as NSString).replacingCharacters(in: match.range, with: String(value))
                guard let decoded = try? JSONDecoder().decode(Stored.self, from: Data(edited.utf8)) else { continue }
                let restored = restore(decoded, savedAt)
                if restored.implausible {
                    refused += 1
                    continue
                }
                kept += 1
                var driver = Driver(restored.kiosk, at: savedAt)
                _ = driver.machine.start(at: savedAt)
                for event: ControlEvent in [.turned(3), .pressed(.start), .released(.start), .held(.start), .turned(-2),
                                            .pressed(.dismiss), .held(.dismiss), .pressed(.start)] {
                    driver.send(event, at: driver.now + .seconds(7))
                }
                driver.run(to: driver.now + .seconds(3600))
            }
        }
        #expect(refused > 0, "some edits are refused")
        #expect(kept + refused > 20)
    }

    /// A changed config keeps a mode whose own settings did not change, and records a rest
    /// workout's counted sets when they did.
    @Test func aConfigChangeKeepsOrRecordsTheWorkInProgress() throws {
        let (secondRest, savedAt) = Self.snapshots[2]
        var otherInterval = Self.settings
        otherInterval.interval.phaseSeconds += 5
        let kept = KioskRestore(secondRest, savedAt: savedAt, settings: otherInterval)
        #expect(kept.kiosk.mode == secondRest.mode)
        #expect(kept.records.isEmpty)
        // The journal holds progress, not the config: a change elsewhere in it is not seen, nor noted.
        #expect(kept.notes.isEmpty)

        var otherRest = Self.settings
        otherRest.rest.defaultSeconds = 60
        let recorded = KioskRestore(secondRest, savedAt: savedAt, settings: otherRest)
        #expect(recorded.kiosk == Kiosk(settings: otherRest))
        #expect(recorded.records.map(\.sets) == [1])
        #expect(recorded.notes == ["the config changed; the rest workout in progress (1 sets) was recorded and ended"])
    }
}
