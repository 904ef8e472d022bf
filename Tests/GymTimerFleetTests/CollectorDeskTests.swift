import Foundation
import Glibc
import GymTimerCore
import GymTimerFleet
import GymTimerCollector
import GymTimerFleetCommands
import GymTimerFleetLink
import GymTimerStationLink
import GymTimerUpgrade
import GymTimerHistory
import GymTimerMQTT
import GymTimerSimulation
import GymTimerSystem
import Testing
import GymTimerTestSupport

/// The collector's desk over the broker (in virtual time, a real SQLite file): the console's
/// asks answered from the gym's database (the roster, an athlete's page, the edits, each
/// answer's payload and the rows it changed), today's scores retained, and hostile asks
/// refused with a sentence.
@Suite(.serialized) struct CollectorDeskTests {
    static let now = Date(timeIntervalSince1970: 1_795_000_000)
    let directory: String
    let loop = VirtualLoop()
    let broker: InMemoryBroker
    var path: String { directory + "/gym.sqlite" }

    init() throws {
        directory = testDirectory("collector-desk")
        let loop = loop
        broker = InMemoryBroker(now: { loop.now.sinceOrigin })
        // Anna's two results and a new card's one, then Anna in the roster.
        let store = try HistoryStore(path: directory + "/gym.sqlite", faults: FaultLog(sink: { _ in }), busyTimeout: .zero, wall: .fixed(Self.now))
        let rows: [(String, String, String?, Double)] = [
            ("rack-1", "8 rounds", "04A1B2C3", -86_400), ("rack-1", "9 rounds", "04A1B2C3", -60), ("rack-2", "5 rounds", "0DDC0FFE", -30),
        ]
        try store.store(rows.enumerated().map { index, row in
            let at = Self.now.addingTimeInterval(row.3)
            return StoredWorkout(
                id: "\(row.0)/program@\(index)", kind: .program, sets: 0, durationMilliseconds: 720_000, calories: 0, exercises: [],
                preset: "AMRAP 12", completedAt: at, localDay: LocalDay(at, in: .current), score: row.1, station: row.0,
                athlete: row.2.flatMap(CardID.init(hex:)))
        })
        _ = try AthleteRoster.open(path: directory + "/gym.sqlite").add(name: "Anna Berg", card: CardID(hex: "04A1B2C3")!)
    }

    /// The collector, and the console's side: a client that reads its answers and the scores.
    func gym(
        wall: WallClock = .fixed(Self.now), log: @escaping (String) -> Void = { print($0) }
    ) throws -> (FleetCollector, any MQTTTransport) {
        let loop = loop
        let collector = try FleetCollector(
            options: .init(clientID: "collector-desk", host: "gym.local", port: 1883, cleanSession: false),
            prefix: "gymtimer", database: path, transport: broker.factory, now: { loop.now }, wall: wall, log: log)
        loop.drivers = [collector]
        #expect(loop.run(upTo: .seconds(30)) { collector.isSubscribed })
        let console = try broker.factory(.init(clientID: "console-1", host: "gym.local", port: 1883))
        try console.connect()
        try console.subscribe(FleetTopics.gymAnswer(prefix: "gymtimer", to: "console-1"), qos: 1)
        loop.run(for: .seconds(1))
        return (collector, console)
    }

    /// The answer to `payload` (published as the console does), within 5 s of virtual time.
    func answer(_ payload: [UInt8], from console: any MQTTTransport) throws -> GymDeskAnswer? {
        try console.publish(MQTTMessage(topic: FleetTopics.gymAsk(prefix: "gymtimer"), payload: payload, qos: 1))
        var answer: GymDeskAnswer?
        loop.run(upTo: .seconds(5)) {
            for case .message(let message) in console.takeEvents() { answer = GymDeskAnswer.read(message.payload) }
            return answer != nil
        }
        return answer
    }

    func ask(_ kind: GymDeskAsk.Kind, id: String = "ask-1", _ fill: (inout GymDeskAsk) -> Void = { _ in }) -> [UInt8] {
        var ask = GymDeskAsk(id: id, reply: "console-1", ask: kind)
        fill(&ask)
        return ask.payload
    }

    @Test func theConsolesAsksAreAnsweredFromTheGymsDatabase() throws {
        defer { try? FileManager.default.removeItem(atPath: directory) }
        let (_, console) = try gym()
        let roster = try #require(try answer(ask(.roster) { $0.onStations = ["rack-3": "04A1B2C3", "bad/name": "C0FFEE"] }, from: console))
        #expect(roster.id == "ask-1" && roster.done)
        #expect(roster.roster?.athletes.map(\.name) == ["Anna Berg"] && roster.roster?.athletes.first?.cards == ["04A1B2C3"])
        #expect(roster.roster?.newCards == [.init(card: "0DDC0FFE", station: "rack-2")], "Anna's card on rack-3 is known; a bad station name is passed over")
        let named = try #require(try answer(ask(.name, id: "ask-2") { ($0.card, $0.name, $0.short) = ("0DDC0FFE", "Cara Dune", "CArA") }, from: console))
        #expect(named == GymDeskAnswer(id: "ask-2", done: true, said: "Card 0DDC0FFE is Cara Dune (CArA on the wall)"))
        #expect(try AthleteRoster.reading(path: path).athletes().map(\.name) == ["Anna Berg", "Cara Dune"])
        let athletes = try #require(try answer(ask(.athletes), from: console))
        let anna = try #require(athletes.roster?.athletes.first)
        #expect(athletes.roster?.athletes.map(\.short) == ["AnnA", "CArA"] && athletes.roster?.newCards == [])
        let summary = try #require(try answer(ask(.summary) { $0.athlete = anna.id }, from: console)?.summary)
        #expect(summary.name == "Anna Berg" && summary.workouts == 2 && summary.points == 100 && summary.currentStreak == 2)
        #expect(summary.records == [.init(program: "AMRAP 12", division: .rx, score: "9 rounds", station: "rack-1")])
        #expect(try answer(ask(.summary) { $0.athlete = 999 }, from: console) == GymDeskAnswer(id: "ask-1", done: true))
        let scaled = try answer(ask(.division) { ($0.record, $0.division) = ("rack-1/program@1", .scaled) }, from: console)
        #expect(scaled == GymDeskAnswer(id: "ask-1", done: true, said: "Anna Berg's AMRAP 12 (9 rounds) is Scaled now"))
        let stored = try HistoryStore.reading(path: path, wall: .fixed(Self.now)).workouts().first { $0.id == "rack-1/program@1" }
        #expect(stored?.division == .scaled)
        let renamed = try answer(ask(.rename) { ($0.athlete, $0.name) = (999, "Nobody") }, from: console)
        #expect(renamed == GymDeskAnswer(id: "ask-1", done: false, said: "Not renamed: no such athlete in the roster (reload the page)"))
    }

    @Test func todaysScoresAreRetainedForTheConsole() throws {
        defer { try? FileManager.default.removeItem(atPath: directory) }
        let (_, console) = try gym()
        let topic = FleetTopics.gymScores(prefix: "gymtimer")
        let first = try #require(broker.retained[topic].flatMap { try? JSONDecoder().decode(GymScores.self, from: Data($0.payload)) })
        #expect(first.day == LocalDay(Self.now, in: .current).description && first.chart == nil)
        #expect(first.boards.map { $0.entries.map(\.athlete) } == [["Anna Berg", "new card 0FFE"]])
        // An edit changes them: published again, retained.
        _ = try answer(ask(.name) { ($0.card, $0.name) = ("0DDC0FFE", "Cara Dune") }, from: console)
        loop.run(for: .seconds(3))
        let after = try #require(broker.retained[topic].flatMap { try? JSONDecoder().decode(GymScores.self, from: Data($0.payload)) })
        #expect(after.boards.map { $0.entries.map(\.athlete) } == [["Anna Berg", "Cara Dune"]])
        // Another process's edit (`gymtimer athletes`) too, seen by `PRAGMA data_version`.
        _ = try AthleteRoster.open(path: path).rename("Anna Berg", to: "Anna Lind", shortName: nil)
        loop.run(for: .seconds(3))
        let renamed = try #require(broker.retained[topic].flatMap { try? JSONDecoder().decode(GymScores.self, from: Data($0.payload)) })
        #expect(renamed.boards.map { $0.entries.map(\.athlete) } == [["Anna Lind", "Cara Dune"]])
    }

    @Test func atMidnightTheScoresTurnToTheNewDayAndNotBefore() throws {
        defer { try? FileManager.default.removeItem(atPath: directory) }
        // The wall clock runs with the loop's virtual time (the loop is the test's alone).
        nonisolated(unsafe) let loop = loop
        let start = loop.now
        let wall = WallClock(epoch: Self.now.timeIntervalSince1970) { loop.now - start }
        let (_, console) = try gym(wall: wall)
        let topic = FleetTopics.gymScores(prefix: "gymtimer")
        try console.subscribe(topic, qos: 1)
        loop.run(for: .seconds(1))
        _ = console.takeEvents()
        func scores() throws -> GymScores {
            try #require(broker.retained[topic].flatMap { try? JSONDecoder().decode(GymScores.self, from: Data($0.payload)) })
        }
        let today = LocalDay(Self.now, in: .current)
        #expect(try scores().day == today.description && !scores().boards.isEmpty)
        // Nothing changes until midnight: nothing is published (no look every few seconds).
        let midnight = Calendar.current.date(byAdding: .day, value: 1, to: Calendar.current.startOfDay(for: wall.date))!
        loop.run(for: .seconds(midnight.timeIntervalSince(wall.date) - 5))
        let published = console.takeEvents().filter { if case .message(let m) = $0 { m.topic == topic } else { false } }
        #expect(published.isEmpty, "idle before midnight: the scores were published \(published.count) time(s)")
        #expect(try scores().day == today.description)
        loop.run(for: .seconds(10))
        let next = LocalDay(wall.date, in: .current)
        #expect(next != today)
        #expect(try scores().day == next.description && scores().boards.isEmpty, "the new day's scores: none yet")
    }

    @Test func hostileAsksAreRefusedWithASentence() throws {
        defer { try? FileManager.default.removeItem(atPath: directory) }
        var lines: [String] = []
        let (_, console) = try gym(log: { lines.append($0) })
        let refusals: [(String, String)] = [
            (#"{"id":"x1","reply":"console-1","ask":"drop-table"}"#, "Refused: not an ask the collector knows"),
            (#"{"id":"x2","reply":"console-1"}"#, "Refused: not an ask the collector knows"),
            (#"{"id":"x3","reply":"console-1","ask":"summary"}"#, "say which athlete"),
            (#"{"id":"x4","reply":"console-1","ask":"name","card":"not hex","name":"A"}"#, "not a card's UID (1 to 10 bytes of hex)"),
            (#"{"id":"x5","reply":"console-1","ask":"division","record":"rack-1/program@1","division":"easy"}"#, "Refused: not an ask the collector knows"),
            (#"{"id":"x6","reply":"console-1","ask":"rename","athlete":1}"#, "write a new name or short name"),
        ]
        for (payload, said) in refusals {
            let got = try answer(Array(payload.utf8), from: console)
            #expect(got?.done == false && got?.said?.hasPrefix(said) == true, "\(payload): \(String(describing: got))")
        }
        let big = #"{"id":"x7","reply":"console-1","ask":"roster","name":""# + String(repeating: "a", count: GymDeskAsk.maximumBytes) + #""}"#
        #expect(try answer(Array(big.utf8), from: console) == GymDeskAnswer(id: "x7", done: false, said: "Refused: the ask is over 16384 bytes"))
        var stations: [String: String] = [:]
        for n in 0...GymDeskAsk.maximumStations { stations["rack-\(n)"] = "04A1B2C3" }
        #expect(try answer(ask(.roster) { $0.onStations = stations }, from: console)?.said == "Refused: at most 256 stations")
        // Nowhere to answer: not answered, said once in the log; the desk carries on.
        for payload in [#"{"id":"y","ask":"roster"}"#, #"{"id":"y","reply":"a/b","ask":"roster"}"#, "not json"] {
            #expect(try answer(Array(payload.utf8), from: console) == nil)
        }
        #expect(lines.filter { $0.contains("names no reply topic") }.count == 1)
        #expect(try answer(ask(.athletes), from: console)?.done == true)
    }
}
