import Foundation
import GymTimerCore
import GymTimerFleet
import GymTimerHistory
import Testing

/// The collector's desk, which an MQTT client can ask without the console: a naming or a
/// rename whose name holds a control or format character (`NameText`) is answered not done,
/// with the roster's one-line reason naming the character and showing none, and the roster
/// keeps nothing of it.
extension CollectorDeskTests {
    @Test func aNameWithARightToLeftOverrideOrANewlineIsRefusedByTheDesk() throws {
        defer { try? FileManager.default.removeItem(atPath: directory) }
        let (_, console) = try gym()
        let named = try #require(try answer(ask(.name, id: "n-1") { ($0.card, $0.name) = ("0DDC0FFE", "\u{202E}Cara Dune") }, from: console))
        #expect(!named.done, "\(named)")
        #expect(named.said?.contains(
            #"bad athlete name "\u{202E}Cara Dune": has a right-to-left override (U+202E) at character 1: names may not hold control or format characters"#)
            == true, "\(named)")
        let anna = try #require(try AthleteRoster.reading(path: path).athletes().first)
        let renamed = try #require(try answer(ask(.rename, id: "n-2") { ($0.athlete, $0.name) = (anna.id, "Anna\nBerg") }, from: console))
        #expect(!renamed.done && renamed.said?.contains("has a line break (U+000A) at character 5") == true, "\(renamed)")
        for said in [named.said, renamed.said] {
            #expect(said?.unicodeScalars.contains(where: NameText.isRefused) == false, "\(said.debugDescription)")
        }
        #expect(try AthleteRoster.reading(path: path).athletes().map(\.name) == ["Anna Berg"])
    }
}
