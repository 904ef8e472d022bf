import Foundation
import GymTimerCore
import GymTimerFleet
import GymTimerMQTT
import Testing

/// A station refuses a class whose program's definition names it with a control or format
/// character (`NameText`): an `error` answer that names the character and shows none, and
/// nothing changed on the station; a `select` of such a name quotes it escaped, and an
/// athlete put on the station with such a short name is refused.
extension StationCommandTests {
    func start(named name: String, id: String) -> String {
        let at = String(format: "%.3f", station.wall.now + 3)
        let definition = try! JSONSerialization.data(withJSONObject: ["name": name, "label": "FrAn", "kind": "for-time"])
        return #"{"do":"start","at":"# + at + #","program":"# + String(decoding: definition, as: UTF8.self) + #","id":""# + id + #""}"#
    }

    @Test(arguments: [
        ("\u{202E}Fran", "has a right-to-left override (U+202E) at character 1"),
        ("Fran\nRow", "has a line break (U+000A) at character 5"),
        ("Fr\u{200B}an", "has a zero-width space (U+200B) at character 3"),
    ])
    func aClassProgramNamedWithAControlCharacterIsRefused(name: String, words: String) throws {
        try run { !states.isEmpty }
        let before = states.last ?? [:]
        let got = try answer(start(named: name, id: "n-1"), id: "n-1")
        guard case .refused(let reason)? = got.answer else { Issue.record("\(got)"); return }
        #expect(reason == "\"program.name\" \(words): names may not hold control or format characters", "\(reason)")
        #expect(!reason.unicodeScalars.contains(where: NameText.isRefused))
        try station.run(for: .seconds(5))
        #expect(states.last?["mode"]?.string == before["mode"]?.string && states.last?["phase"]?.string == "idle", "\(states.last ?? [:])")
        #expect(!published().contains { $0.object["program"]?.string == name }, "the station never showed it")
    }

    @Test func aClassProgramNamedInAnyScriptRuns() throws {
        let got = try answer(start(named: "Zoë 北京 💪", id: "n-2"), id: "n-2")
        #expect(got.answer == .done, "\(got)")
        #expect(states.last?["mode"]?.string == "program")
    }

    @Test func aSelectOfSuchANameQuotesItEscaped() throws {
        let got = try answer(#"{"do":"select","mode":"program","name":"\u202EFran","id":"n-3"}"#, id: "n-3")
        guard case .refused(let reason)? = got.answer else { Issue.record("\(got)"); return }
        #expect(reason.contains(#"no program named "\u{202E}Fran""#), "\(reason)")
        #expect(!reason.unicodeScalars.contains(where: NameText.isRefused))
    }

    @Test func anAthletesShortNameWithAControlCharacterIsRefused() {
        let parsed = FleetCommand.parse(Array(#"{"do":"athlete","card":"04A1B2C3","short":"A\u202e"}"#.utf8))
        #expect(parsed == .failure(.badName(
            field: "short", problem: "has a right-to-left override (U+202E) at character 2: names may not hold control or format characters")))
        guard case .success = FleetCommand.parse(Array(#"{"do":"athlete","card":"04A1B2C3","short":"AnnA"}"#.utf8)) else {
            Issue.record("an ordinary short name was refused")
            return
        }
    }
}
