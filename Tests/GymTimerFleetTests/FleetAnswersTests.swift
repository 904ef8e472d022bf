import Foundation
import GymTimerFleet
import GymTimerCollector
import GymTimerFleetCommands
import GymTimerFleetLink
import GymTimerStationLink
import GymTimerUpgrade
import Testing

/// `FleetAnswers`: what the console and `gymtimer fleet` report from the answers they got.
@Suite struct FleetAnswersTests {
    static func event(_ name: String, id: String, reason: String? = nil) -> [UInt8] {
        var text = #"{"t":1,"event":""# + name + #"","id":""# + id + "\""
        if let reason { text += #","reason":"# + String(decoding: try! JSONEncoder().encode(reason), as: UTF8.self) }
        return Array((text + "}").utf8)
    }

    @Test func aRefusalIsNeverDoneAndSilenceAndOfflineAreSaid() {
        var answers = FleetAnswers(id: "x", asked: ["rack-1", "rack-2", "rack-3", "rack-4"], offline: ["rack-5"])
        do { let took = answers.take(event: Self.event("command", id: "x"), from: "rack-1"); #expect(took) }
        do { let took = answers.take(event: Self.event("error", id: "x", reason: "busy (finished)"), from: "rack-2"); #expect(took) }
        do { let took = answers.take(event: Self.event("error", id: "x", reason: "busy (finished)"), from: "rack-3"); #expect(took) }
        do { let took = answers.take(event: Self.event("command", id: "y"), from: "rack-4"); #expect(!took, "another command's answer") }
        do { let took = answers.take(event: Self.event("command", id: "x"), from: "rack-9"); #expect(!took, "a station not asked") }
        do { let took = answers.take(event: Array(#"{"event":"phase","id":"x"}"#.utf8), from: "rack-4"); #expect(!took, "no answer") }
        #expect(!answers.isComplete && !answers.succeeded)
        #expect(answers.done == ["rack-1"] && answers.silent == ["rack-4"])
        #expect(answers.summary(done: "paused")
            == "paused on rack-1; refused on rack-2, rack-3: busy (finished); no answer from rack-4; offline: rack-5")
        do { let took = answers.take(event: Self.event("scheduled", id: "x"), from: "rack-4"); #expect(took) }
        #expect(answers.isComplete && !answers.succeeded, "complete, but two refused and one offline")
        var clean = FleetAnswers(id: "x", asked: ["rack-1"], offline: [])
        clean.take(event: Self.event("started", id: "x"), from: "rack-1")
        #expect(clean.succeeded && clean.summary() == "done on rack-1")
    }

    @Test func aHostileReasonIsMadeSafeAndBounded() {
        var answers = FleetAnswers(id: "x", asked: ["rack-1"], offline: [])
        answers.take(event: Self.event("error", id: "x", reason: "\u{1b}[2J" + String(repeating: "y", count: 5000)), from: "rack-1")
        let reason = answers.refused.first?.reason ?? ""
        #expect(!reason.unicodeScalars.contains { $0.value < 0x20 } && reason.count <= FleetAnswer.reasonWidth, "\(reason.prefix(20))")
    }

    @Test func anIdSurvivesTheRequestsJSONAndFreshIdsDiffer() {
        let request = FleetRequest(.start(at: 1_800_000_000.5), id: FleetRequest.newID())
        let (id, command) = FleetRequest.parse(Array(request.json.utf8))
        #expect(id == request.id && command == .success(.start(at: 1_800_000_000.5)), "\(request.json)")
        #expect(FleetRequest.isValidID(request.id ?? "") && FleetRequest.newID() != FleetRequest.newID())
        #expect(FleetRequest.parse(Array(#"{"do":"pause"}"#.utf8)).id == nil)
    }
}
