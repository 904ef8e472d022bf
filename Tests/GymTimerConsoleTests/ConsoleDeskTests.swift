import Foundation
import GymTimerBenchSupport
import GymTimerFleet
import GymTimerMQTT
import Synchronization
import Testing
@testable import GymTimerConsole

/// The console's side of the collector's desk: the retained scores checked before a page sees
/// them (never drawn from a table that does not fit, never yesterday's as today's, the chart
/// the console's own), and an ask nobody answers refused with what the coach should do.
@Suite struct ConsoleDeskTests {
    let week = GymScores.Week(days: ["2026-11-24"], stations: ["rack-1"], counts: [[2]])

    func payload(_ scores: GymScores) throws -> [UInt8] { Array(try JSONEncoder().encode(scores)) }

    @Test func theScoresAreShownOnlyWhenTheyAreTodaysAndWellFormed() throws {
        #expect(ConsoleScoresEvent.json(nil, today: "2026-11-24").contains("waiting for the collector's scores"))
        #expect(ConsoleScoresEvent.json(Array("garbage".utf8), today: "2026-11-24") == #"{"problem":"the collector's scores cannot be read"}"#)
        let crooked = GymScores(day: "2026-11-24", boards: [], week: .init(days: ["2026-11-24"], stations: ["rack-1", "rack-2"], counts: [[1]]))
        #expect(ConsoleScoresEvent.json(try payload(crooked), today: "2026-11-24") == #"{"problem":"the collector's scores cannot be read"}"#)
        let today = GymScores(day: "2026-11-24", boards: [], week: week, chart: "<script>alert(1)</script>")
        #expect(ConsoleScoresEvent.json(try payload(today), today: "2026-11-25").contains("latest scores are of 2026-11-24"))
        let shown = try JSONDecoder().decode(GymScores.self, from: Data(ConsoleScoresEvent.json(try payload(today), today: "2026-11-24").utf8))
        #expect(shown.chart == ConsoleChart.svg(week) && shown.chart?.contains("rack-1") == true, "the chart is drawn here, not taken")
        #expect(ConsoleScoresEvent.day(1_795_000_000, in: TimeZone(identifier: "UTC")!) == "2026-11-18")
    }

    @Test func anAskIsRefusedWhenTheConsoleIsNotConnected() async {
        let link = ConsoleLink(options: .init(clientID: "console-t", host: "127.0.0.1", port: 1), prefix: "gymtimer", broadcast: ConsoleBroadcast())
        guard case .failure(.notConnected) = await link.askDesk(.roster) else {
            Issue.record("an ask went out with no broker")
            return
        }
        let odd = ConsoleLink(options: .init(clientID: "a/b", host: "127.0.0.1", port: 1), prefix: "gymtimer", broadcast: ConsoleBroadcast())
        guard case .failure(.desk(let why)) = await odd.askDesk(.roster) else {
            Issue.record("an answer topic with a / was asked for")
            return
        }
        #expect(why.contains("--client-id a/b"))
    }

    @Test func anAskNobodyAnswersIsRefusedSayingWhatToDo() async throws {
        let broker = try LocalBroker()
        let link = ConsoleLink(
            options: .init(clientID: "console-t", host: "127.0.0.1", port: broker.port), prefix: "gymtimer", broadcast: ConsoleBroadcast(),
            log: { _ in })
        try link.start()
        defer { link.stop() }
        let end = Date().addingTimeInterval(10)
        while !link.snapshot().connected, Date() < end { try await Task.sleep(for: .milliseconds(20)) }
        #expect(link.snapshot().connected)
        guard case .failure(let refusal) = await link.askDesk(.roster, within: 0.3) else {
            Issue.record("answered with no collector")
            return
        }
        #expect("\(refusal)" == "the collector did not answer within 5 s: is `gymtimer collect` running on the gym's server?")
    }

    /// A console started before its broker connects once the broker is up, and says each loss
    /// once, not once an attempt (it used to put its next attempt off at every turn of its loop
    /// and never connected, saying "lost" five times a second).
    @Test func aConsoleStartedBeforeItsBrokerConnectsOnceItIsUpAndSaysALossOnce() async throws {
        let broker = try LocalBroker()
        broker.stop()
        let lines = Mutex<[String]>([])
        // Retries 50 ms apart, so several happen while the broker is down without a wait of
        // seconds; each phase waits for the attempts themselves, not for a time.
        let link = ConsoleLink(
            options: .init(clientID: "console-early", host: "127.0.0.1", port: broker.port), prefix: "gymtimer",
            broadcast: ConsoleBroadcast(), retry: .init(afterFailure: .milliseconds(50), afterRefusal: .milliseconds(50)),
            log: { line in lines.withLock { $0.append(line) } })
        try link.start()
        defer { link.stop() }
        func until(_ seconds: Double, _ condition: () -> Bool) async throws -> Bool {
            let end = ContinuousClock.now + .seconds(seconds)
            while !condition(), ContinuousClock.now < end { try await Task.sleep(for: .milliseconds(20)) }
            return condition()
        }
        #expect(try await until(20) { link.attempts >= 5 }, "it keeps trying while the broker is down")
        #expect(!link.snapshot().connected)
        try broker.start()
        #expect(try await until(20) { link.snapshot().connected }, "connected once the broker came up")
        broker.stop()
        #expect(try await until(20) { !link.snapshot().connected })
        let lost = link.attempts
        #expect(try await until(20) { link.attempts >= lost + 5 }, "and again after the loss")
        try broker.start()
        #expect(try await until(20) { link.snapshot().connected }, "connected again after the loss")
        let said = lines.withLock { $0 }
        #expect(said.filter { $0.contains("cannot connect") }.count == 1, "\(said)")
        #expect(said.first { $0.contains("cannot connect") }?.hasSuffix("trying again every 0.05 s") == true, "\(said)")
        // (A publish cut short by the loss is its own line, "could not publish …: The connection was lost.")
        #expect(said.filter { $0.hasPrefix("console: lost ") }.count == 1, "\(said)")
        #expect(said.filter { $0.contains("connected to") }.count == 2, "\(said)")
    }
}
