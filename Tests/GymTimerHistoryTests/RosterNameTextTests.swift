import Foundation
import GymTimerCore
import Testing
@testable import GymTimerHistory

/// The roster's store refuses an athlete's name or short name holding a control or format
/// character (`NameText`, through `RosterNames`) with a one-line reason that names the
/// character and never shows it — on an add and on a rename — and keeps nothing of the
/// refused edit; names in any script still go in.
@Suite struct RosterNameTextTests {
    static let card = CardID(hex: "04A1B2C3")!
    static let other = CardID(hex: "04B2C3D4")!

    func roster(_ dir: TemporaryDirectory) throws -> AthleteRoster {
        let path = dir.file("gym.sqlite")
        _ = try Fixture.store(path, clock: HandClock(Fixture.date(2026, 3, 9, 9, 0)))
        return try AthleteRoster.open(path: path)
    }

    /// The one-line reason a refused roster edit gives.
    func reason(_ body: () throws -> Void) -> String? {
        do {
            try body()
            return nil
        } catch {
            return "\(error)"
        }
    }

    @Test func anAddWithARightToLeftOverrideOrANewlineIsRefusedNamingIt() throws {
        let dir = try TemporaryDirectory()
        let roster = try roster(dir)
        #expect(reason { _ = try roster.add(name: "\u{202E}Anna Berg", card: Self.card) }
            == #"bad athlete name "\u{202E}Anna Berg": has a right-to-left override (U+202E) at character 1: names may not hold control or format characters"#)
        #expect(reason { _ = try roster.add(name: "Anna\nBerg", card: Self.card) }
            == #"bad athlete name "Anna\u{000A}Berg": has a line break (U+000A) at character 5: names may not hold control or format characters"#)
        #expect(reason { _ = try roster.add(name: "Anna", card: Self.card, shortName: "A\u{200B}") }
            == #"bad short name "A\u{200B}": has a zero-width space (U+200B) at character 2: names may not hold control or format characters"#)
        #expect(try roster.athletes().isEmpty, "nothing of a refused add is kept")
    }

    @Test func aRenameToSuchANameIsRefusedAndTheOldNameStays() throws {
        let dir = try TemporaryDirectory()
        let roster = try roster(dir)
        _ = try roster.add(name: "Anna Berg", card: Self.card)
        #expect(reason { _ = try roster.rename("Anna Berg", to: "Anna\u{2066}Berg") }
            == #"bad athlete name "Anna\u{2066}Berg": has a left-to-right isolate (U+2066) at character 5: names may not hold control or format characters"#)
        #expect(reason { _ = try roster.rename("Anna Berg", to: "Anna Berg\r\nx") }?.contains("a line break (U+000D) at character 10") == true)
        #expect(try roster.athletes().map(\.name) == ["Anna Berg"])
    }

    @Test func theReasonIsOneLineAndShowsNoRefusedCharacter() {
        for name in ["\u{202E}x", "a\nb", "\u{1B}[2J", "\u{FEFF}x", "x\u{2028}y", "x\u{E0041}"] {
            let said = "\(RosterError.badName(name: name))"
            #expect(!said.unicodeScalars.contains(where: NameText.isRefused), "\(said.debugDescription)")
            #expect(said.contains(": names may not hold control or format characters"), "\(said)")
        }
        #expect("\(RosterError.badName(name: ""))" == #"bad athlete name "": must be 1 to 64 printable characters, not empty"#)
    }

    @Test func namesInAnyScriptGoIn() throws {
        let dir = try TemporaryDirectory()
        let roster = try roster(dir)
        _ = try roster.add(name: "Ångström", card: Self.card)
        _ = try roster.add(name: "Zoë 北京 💪", card: Self.other)
        #expect(Set(try roster.athletes().map(\.name)) == ["Ångström", "Zoë 北京 💪"])
    }
}
