import Foundation
import GymTimerConsole
import GymTimerFleet
import Testing

/// A class that repeats: its starts fall every so many minutes, each sent its lead-in ahead
/// with its own `at`, until the last one; a start whose instant passed is skipped, not sent late.
@Suite struct ConsoleScheduleTests {
    func schedule(first: Double = 1000, every: Double = 900, until: Double = 1000 + 3600, lead: Double = 10) -> ConsoleSchedule {
        ConsoleSchedule(stations: ["rack-1", "rack-2"], program: "EMOM 10", first: first, every: every, until: until, lead: lead)
    }

    @Test func everyStartGoesOutItsLeadInAheadUntilTheLast() {
        var repeating = schedule()
        var sent: [(at: Double, start: Double)] = []
        // The console's thread looks every 0.2 s.
        var now = 980.0
        while now <= 5000 {
            for start in repeating.due(now: now) { sent.append((now, start)) }
            now += 0.2
        }
        #expect(sent.map(\.start) == [1000, 1900, 2800, 3700, 4600])
        #expect(sent.allSatisfy { $0.start - $0.at > 9.8 - 1e-6 && $0.start - $0.at <= 10 + 1e-6 }, "at most the lead-in ahead, within one look: \(sent)")
        #expect(repeating.isOver)
        #expect(repeating.commands(at: 1900) == [.classStart(at: 1900, runs: .named(mode: "program", name: "EMOM 10"))])
    }

    @Test func startsThatPassedWhileTheConsoleWasAwayAreSkipped() {
        var repeating = schedule()
        // Nothing looked between 990 and 2895: the starts at 1000 and 1900 are gone, 2800 too
        // (its instant passed); 3700 is not due yet.
        #expect(repeating.due(now: 2895).isEmpty)
        #expect(repeating.due(now: 3690) == [3700])
    }

    @Test func theRepeatActionIsCheckedAndMakesItsSchedule() throws {
        func parse(_ body: String) -> Result<ConsoleAction, ConsolePIN.Problem> { ConsoleAction.parse(.repeat, body: Array(body.utf8)) }
        let action = try parse(#"{"stations":["rack-1"],"program":"EMOM 10","lead":10,"every":15,"until":5000}"#).get()
        let made = try #require(action.schedule(now: 1000))
        #expect(made.next == 1010 && made.every == 900 && made.until == 5000 && made.program == "EMOM 10")
        #expect(action.schedule(now: 4995) == nil, "the repeats end before the first start")
        #expect(action.schedule(now: 4100) == nil, "the end comes before the second start: nothing would repeat")
        #expect(action.schedule(now: 4090) != nil, "the second start at 5000 is the last")
        #expect(action.schedule(now: -90_000) == nil, "more than a day ahead")
        for bad in [#"{"stations":["a"],"every":0,"until":5000}"#, #"{"stations":["a"],"every":241,"until":5000}"#,
                    #"{"stations":["a"],"every":1.5,"until":5000}"#, #"{"stations":["a"],"every":15}"#,
                    #"{"stations":["a"],"every":15,"until":1e400}"#] {
            #expect(throws: ConsolePIN.Problem.self, "\(bad)") { try parse(bad).get() }
        }
        #expect((try? ConsoleAction.parse(.stopRepeating, body: Array(#"{"stations":[]}"#.utf8)).get()) != nil)
    }
}
