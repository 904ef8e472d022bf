import Foundation
import GymTimerCore
import GymTimerFleet
import GymTimerMQTT
import Testing

/// A class that carries its program's definition (`FleetClassProgram.defined`): the station
/// runs a program its config never had, and a hostile definition is an `error` answer with
/// nothing changed.
extension StationCommandTests {
    @Test func aClassRunsAProgramTheStationsConfigNeverHad() throws {
        try run { !states.isEmpty }
        let program = Program(name: "Row 3 x 4", label: "ro 3", leadInSeconds: 2, format: .intervals(rounds: 3, workSeconds: 4, restSeconds: 2))
        let at = station.wall.now + 3
        let scheduled = try answer(FleetRequest(.classStart(at: at, runs: .defined(program)), id: "p-1").json, id: "p-1")
        #expect(scheduled.answer == .done, "scheduled: \(scheduled)")
        #expect(states.last?["mode"]?.string == "program", "picked at once: \(states.last ?? [:])")
        // Its state says when the class starts, for the coach's tiles to count down to.
        try run { states.last?["starts_at"]?.number != nil }
        #expect(states.last?["starts_at"]?.number.map { abs($0 - at) < 0.002 } == true, "\(states.last ?? [:])")
        let count = broker.published.count
        try station.run(for: .seconds(12))
        let after = published(from: count).map(\.object)
        #expect(after.contains { $0["event"]?.string == "started" && $0["id"]?.string == "p-1" }, "\(after)")
        #expect(states.last?["starts_at"] == nil, "started: nothing left to count down to")
        // Its own lead-in (2 s) after the instant, then round 2 of its 3 (4 s work, 2 s rest).
        let running = after.filter { $0["program"]?.string == "Row 3 x 4" }
        #expect(running.contains { $0["round"]?.number == 2 }, "\(running)")
    }

    @Test func aHostileDefinitionIsAnErrorAnswerAndChangesNothing() throws {
        try run { !states.isEmpty }
        let before = states.last ?? [:]
        let at = String(format: "%.3f", station.wall.now + 3)
        let hostile = #"{"do":"start","at":"# + at + #","program":{"name":"X","label":"A","kind":"emom","rounds":1e300},"id":"h-1"}"#
        let got = try answer(hostile, id: "h-1")
        guard case .refused(let reason)? = got.answer else { Issue.record("\(got)"); return }
        #expect(reason.contains("\"program.rounds\" must be whole seconds or rounds, 1 to 99"), "\(reason)")
        try station.run(for: .seconds(5))
        #expect(states.last?["mode"]?.string == before["mode"]?.string && states.last?["phase"]?.string == "idle", "\(states.last ?? [:])")
    }
}
