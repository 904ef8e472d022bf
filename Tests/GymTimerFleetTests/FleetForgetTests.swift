import Foundation
import Glibc
import GymTimerConfig
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

/// The collector tells each station of the cards it asked for (`FleetCardAnswer`s on its own
/// topic, again only on a change, null when the roster drops a card), files a record of a card
/// its station never asked for as a guest's, and carries a forget
/// to every station (`{"do":"forget"}`), which deletes what it holds of the card and answers;
/// in virtual time over the in-memory broker.
@Suite(.serialized) struct FleetForgetTests {
    static let now = Date(timeIntervalSince1970: 1_767_700_000)
    static let anna = CardID(hex: "04A1B2C3")!
    static let ben = CardID(hex: "04B0B0B0")!
    let directory: String
    let loop = VirtualLoop()
    let broker: InMemoryBroker

    init() throws {
        directory = testDirectory("fleet-forget")
        let loop = loop
        broker = InMemoryBroker(now: { loop.now.sinceOrigin })
    }

    var database: String { directory + "/gym.sqlite" }

    func collector(log: @escaping (String) -> Void = { print($0) }) throws -> FleetCollector {
        let loop = loop
        return try FleetCollector(
            options: .init(clientID: "collector-forget", host: "gym.local", port: 1883, cleanSession: false),
            prefix: "gymtimer", database: database, transport: broker.factory, now: { loop.now },
            wall: .fixed(Self.now), log: log)
    }

    func station(_ name: String, outbox: FleetOutbox?) -> FleetStation {
        let settings = FleetSettings(broker: .init(host: "gym.local", port: 1883, tls: false), station: name, homeAssistant: false)
        let loop = loop
        return FleetStation(
            settings: settings, password: nil, outbox: outbox, now: { loop.now }, transport: broker.factory, startLead: .zero,
            log: { print($0) })
    }

    /// A program's result of `athlete` on `station`, as the collector stores it.
    static func result(_ n: Int, _ program: String, _ score: String, athlete: CardID?, station: String = "rack-1") -> StoredWorkout {
        var record = WorkoutRecord(
            kind: .program, sets: 1, duration: .seconds(300), calories: 10, endedAt: Moment(.seconds(1000 * n)), athlete: athlete)
        record.preset = program
        record.score = ProgramScore(text: score)
        var stored = StoredWorkout(
            record, completedAt: Date(timeIntervalSince1970: 1_767_600_000 + Double(n) * 600), timeZone: TimeZone(identifier: "UTC")!)
        stored.id = "\(station)/program@\(n)"
        stored.station = station
        return stored
    }

    func topic(_ card: CardID) -> String { FleetTopics.athleteCard(prefix: "gymtimer", card: card) }

    /// A station's account as a raw client: it reads its own answers (`P/{name}/card`).
    func rack(_ name: String) throws -> any MQTTTransport {
        let client = try broker.factory(.init(clientID: "\(name)-raw", host: "gym.local", port: 1883, keepAlive: 0))
        try client.connect()
        _ = try client.subscribe("gymtimer/\(name)/card", qos: 1)
        return client
    }

    /// The answers `client` was sent since the last call.
    func answers(_ client: any MQTTTransport) -> [FleetCardAnswer] {
        client.takeEvents().compactMap { if case .message(let message) = $0 { FleetCardAnswer.parse(message.payload) } else { nil } }
    }

    /// `client` asks for `card` as of `at` (a tap, or a record's start).
    func ask(_ client: any MQTTTransport, _ name: String, _ card: CardID, at: Date = Self.now) throws {
        _ = try client.publish(MQTTMessage(
            topic: "gymtimer/\(name)/card-ask", payload: FleetCardAsk(card: card, at: Int64(at.timeIntervalSince1970)).payload, qos: 1))
    }

    @Test func theCollectorAnswersEachAskAndTellsOnlyTheStationsThatAskedOfAChange() throws {
        defer { try? FileManager.default.removeItem(atPath: directory) }
        let lines = LogLines()
        let (anna, ben) = (TestCardKey.card("04A1B2C3"), TestCardKey.card("04B0B0B0"))
        let gym = try collector(log: lines.add)
        try gym.history!.store([
            Self.result(1, "Fran", "4:10, 1 round", athlete: anna), Self.result(2, "Fran", "3:45, 1 round", athlete: anna),
            Self.result(3, "Cindy", "18 rounds", athlete: anna), Self.result(4, "Fran", "3:00, 1 round", athlete: nil),
        ])
        let roster = try AthleteRoster.open(path: database)
        try roster.add(name: "Anna Berg", card: anna)
        // What a collector before card asks retained for every station: cleared once read.
        let old = try broker.factory(.init(clientID: "old-collector", host: "gym.local", port: 1883, keepAlive: 0))
        try old.connect()
        _ = try old.publish(MQTTMessage(topic: topic(anna), text: #"{"bests":[],"short":"AnnA"}"#, qos: 1, retain: true))
        let (rack1, rack2) = (try rack("rack-1"), try rack("rack-2"))
        loop.drivers = [gym]
        #expect(loop.run(upTo: .seconds(30)) { gym.isSubscribed && broker.retained[topic(anna)] == nil })

        // rack-1 asks for Anna's card: answered on its own topic, rack-2 hears nothing.
        try ask(rack1, "rack-1", anna)
        loop.run(for: .seconds(1))
        let expected = #"{"athlete":{"bests":[{"division":"rx","program":"Cindy","score":"18 rounds"},"#
            + #"{"division":"rx","program":"Fran","score":"3:45, 1 round"}],"short":"AnnA"},"card":"\#(anna.hex)"}"#
        #expect(answers(rack1).map { String(decoding: $0.payload, as: UTF8.self) } == [expected])
        // A card the gym does not know: null.
        try ask(rack1, "rack-1", ben)
        loop.run(for: .seconds(1))
        #expect(answers(rack1) == [FleetCardAnswer(card: ben, athlete: nil)])

        // Nothing changed: a minute of roster checks tells nobody anything.
        loop.run(for: .seconds(60))
        #expect(answers(rack1).isEmpty && answers(rack2).isEmpty)

        // Another process edits the roster: noticed within a check; rack-1, which asked, is told.
        try roster.rename("Anna Berg", shortName: "AnA")
        try roster.addCard(ben, to: "Anna Berg")
        loop.run(for: .seconds(5))
        let told = answers(rack1)
        #expect(Set(told.map(\.card)) == [anna, ben] && told.count == 2 && told.allSatisfy { $0.athlete?.short == "AnA" }, "\(told)")
        #expect(answers(rack2).isEmpty, "rack-2 never had either card")

        // rack-1's record that beats a best, its ask before it: stored as Anna's; rack-1 told.
        let faster = Self.result(5, "Fran", "3:30, 1 round", athlete: ben)
        try ask(rack1, "rack-1", ben, at: faster.completedAt.addingTimeInterval(-300))
        _ = try rack1.publish(MQTTMessage(topic: "gymtimer/rack-1/workout", text: FleetWorkoutMessage.encode(faster, station: "rack-1").payload, qos: 1))
        #expect(loop.run(upTo: .seconds(10)) { gym.stored == 1 })
        loop.run(for: .seconds(1))
        #expect(answers(rack1).compactMap { $0.athlete?.bests.first { $0.program == "Fran" }?.score } == ["3:45, 1 round", "3:30, 1 round", "3:30, 1 round"],
                "the ask's answer, then both cards of hers told of the new best")

        // rack-2 files a result under Anna's card it never asked for: kept, as a guest's, and said.
        let forged = Self.result(6, "Fran", "1:00, 1 round", athlete: anna, station: "rack-2")
        _ = try rack2.publish(MQTTMessage(topic: "gymtimer/rack-2/workout", text: FleetWorkoutMessage.encode(forged, station: "rack-2").payload, qos: 1))
        #expect(loop.run(upTo: .seconds(10)) { gym.stored == 2 })
        let stored = try gym.history!.workouts().first { $0.score == "1:00, 1 round" }
        #expect(stored != nil && stored?.athlete == nil && stored?.score == "1:00, 1 round")
        #expect(lines.all.contains("collect: rack-2 filed rack-2/rack-2/program@6 for a card it did not ask for around that run; stored as a guest's result"),
                "\(lines.all.suffix(3))")
        loop.run(for: .seconds(1))
        #expect(answers(rack1).isEmpty, "a guest's result is nobody's best")

        // Merged away, then forgotten: rack-1 is told the new short name, then that the gym no longer knows the cards.
        try roster.add(name: "Ben Ohl", card: CardID(hex: "0A0B0C0D")!)
        try roster.merge("Anna Berg", into: "Ben Ohl")
        loop.run(for: .seconds(5))
        #expect(answers(rack1).map { $0.athlete?.short } == ["bEno", "bEno"])
        _ = try roster.forget("Ben Ohl")
        loop.run(for: .seconds(5))
        #expect(Set(answers(rack1)) == [FleetCardAnswer(card: anna, athlete: nil), FleetCardAnswer(card: ben, athlete: nil)])
        #expect(broker.retained.keys.filter { $0.contains("/athletes/") }.isEmpty, "\(broker.retained.keys.sorted())")
    }

    /// The coach voids Anna's best from the console: rack-1, which asked for her card, is told
    /// her next best at once (the desk's edit, not a digest of the roster, says so; in a chain
    /// the digest never sees a void).
    @Test func aVoidedBestIsToldToTheStationsThatAskedForTheCard() throws {
        defer { try? FileManager.default.removeItem(atPath: directory) }
        let anna = TestCardKey.card("04A1B2C3")
        let gym = try collector()
        try gym.history!.store([Self.result(1, "Fran", "4:10, 1 round", athlete: anna), Self.result(2, "Fran", "3:45, 1 round", athlete: anna)])
        try AthleteRoster.open(path: database).add(name: "Anna Berg", card: anna)
        let (rack1, rack2) = (try rack("rack-1"), try rack("rack-2"))
        loop.drivers = [gym]
        #expect(loop.run(upTo: .seconds(30)) { gym.isSubscribed })
        try ask(rack1, "rack-1", anna)
        loop.run(for: .seconds(1))
        #expect(answers(rack1).compactMap { $0.athlete?.bests.first?.score } == ["3:45, 1 round"])
        let coach = try broker.factory(.init(clientID: "coach", host: "gym.local", port: 1883, keepAlive: 0))
        try coach.connect()
        _ = try coach.subscribe(FleetTopics.gymAnswer(prefix: "gymtimer", to: "page-1"), qos: 1)
        var void = GymDeskAsk(id: "v1", reply: "page-1", ask: .void)
        void.record = "rack-1/program@2"
        _ = try coach.publish(MQTTMessage(topic: FleetTopics.gymAsk(prefix: "gymtimer"), payload: void.payload, qos: 1))
        loop.run(for: .seconds(1))
        let said = coach.takeEvents().compactMap { if case .message(let message) = $0 { String(decoding: message.payload, as: UTF8.self) } else { nil } }
        #expect(said.count == 1 && said.allSatisfy { $0.contains(#""done":true"#) }, "\(said)")
        #expect(answers(rack1).compactMap { $0.athlete?.bests.first?.score } == ["4:10, 1 round"], "her next best, at once")
        #expect(answers(rack2).isEmpty, "rack-2 never asked")
    }

    @Test func aRecordQueuedBeforeTheCollectorReadAsksIsHeldBackThenFiledUnderItsAthlete() throws {
        defer { try? FileManager.default.removeItem(atPath: directory) }
        let lines = LogLines()
        let anna = TestCardKey.card("04A1B2C3")
        // The collector's session as a version from before card asks left it: records only.
        let old = try broker.factory(.init(clientID: "collector-forget", host: "gym.local", port: 1883, keepAlive: 0, cleanSession: false))
        try old.connect()
        _ = try old.subscribe("gymtimer/+/workout", qos: 1)
        broker.sever("collector-forget")
        // Meanwhile rack-1 records Anna's result: its ask goes to nobody, the record waits in that session.
        let rack = station("rack-1", outbox: try FleetOutbox(path: directory + "/outbox.sqlite"))
        rack.record(Self.result(1, "Fran", "4:10, 1 round", athlete: anna))
        loop.drivers = [rack]
        #expect(loop.run(upTo: .seconds(10)) { broker.waiting(for: "collector-forget") == 1 })
        // The new collector gets that record before any ask: held back, not a guest's; rack-1
        // sends it again, after its ask, when the collector announces itself.
        let gym = try collector(log: lines.add)
        loop.drivers = [gym, rack]
        #expect(loop.run(upTo: .seconds(30)) { gym.stored == 1 }, "\(lines.all)")
        #expect(gym.heldBack == 1 && lines.all.contains { $0.hasPrefix("collect: held back a record from rack-1") }, "\(lines.all)")
        #expect(try gym.history!.workouts().map(\.athlete) == [anna], "filed under her card")
    }

    @Test func aStationForgetsACardsRecordsAndAnswers() throws {
        defer { try? FileManager.default.removeItem(atPath: directory) }
        let outboxPath = directory + "/outbox.sqlite"
        let outbox = try FleetOutbox(path: outboxPath)
        let rack = station("rack-1", outbox: outbox)
        var held: [CardID] = []
        rack.forgetHeld = { held.append($0); return nil }
        // Kept while no collector acknowledges: Anna's two, Ben's one, a guest's.
        rack.record(Self.result(1, "Fran", "4:10, 1 round", athlete: Self.anna))
        rack.record(Self.result(2, "Fran", "4:00, 1 round", athlete: Self.ben))
        rack.record(Self.result(3, "Cindy", "18 rounds", athlete: Self.anna))
        rack.record(Self.result(4, "Cindy", "12 rounds", athlete: nil))
        #expect(try outbox.count() == 4)
        loop.drivers = [rack]
        let coach = try broker.factory(.init(clientID: "coach", host: "gym.local", port: 1883))
        try coach.connect()
        try coach.subscribe("gymtimer/rack-1/event", qos: 1)
        #expect(loop.run(upTo: .seconds(10)) { broker.retained["gymtimer/rack-1/status"]?.text == "online" })
        try coach.publish(MQTTMessage(topic: "gymtimer/rack-1/cmd", text: #"{"do":"forget","card":"04a1b2c3","id":"forget-7"}"#, qos: 1))
        var answers: [(String, FleetAnswer)] = []
        #expect(loop.run(upTo: .seconds(10)) {
            for case .message(let message) in coach.takeEvents() {
                if let answer = FleetAnswer.parse(event: message.payload) { answers.append(answer) }
            }
            return !answers.isEmpty
        })
        #expect(answers.first?.0 == "forget-7" && answers.first?.1 == .done)
        #expect(held == [Self.anna], "the history and journal are asked to forget the card")
        let left = try outbox.pending()
        #expect(left.count == 2 && left.allSatisfy { !$0.payload.contains(Self.anna.hex) })
        let bytes = try Data(contentsOf: URL(fileURLWithPath: outboxPath))
        #expect(bytes.range(of: Data(Self.anna.hex.utf8)) == nil, "the outbox's file keeps no trace of the card")
        #expect(bytes.range(of: Data(Self.ben.hex.utf8)) != nil)

        // What cannot be deleted is said in the refusal, under the id.
        rack.forgetHeld = { _ in "the history is locked" }
        try coach.publish(MQTTMessage(topic: "gymtimer/rack-1/cmd", text: #"{"do":"forget","card":"04B0B0B0","id":"forget-8"}"#, qos: 1))
        answers = []
        #expect(loop.run(upTo: .seconds(10)) {
            for case .message(let message) in coach.takeEvents() {
                if let answer = FleetAnswer.parse(event: message.payload) { answers.append(answer) }
            }
            return !answers.isEmpty
        })
        guard case .refused(let reason)? = answers.first?.1 else { Issue.record("\(answers)"); return }
        #expect(answers.first?.0 == "forget-8" && reason.contains("the history is locked"))
    }

    @Test func aForgetReachesEveryStationOnlineOrNotAndIsThenDeleted() throws {
        defer { try? FileManager.default.removeItem(atPath: directory) }
        let lines = LogLines()
        let gym = try collector(log: lines.add)
        let roster = try AthleteRoster.open(path: database)
        try roster.add(name: "Anna Berg", card: Self.anna)
        try roster.add(name: "Ben Ohl", card: Self.ben)
        let racks = try ["rack-1", "rack-2"].map { station($0, outbox: try FleetOutbox(path: directory + "/\($0)-outbox.sqlite")) }
        var forgotten: [String: [CardID]] = [:]
        for rack in racks { rack.forgetHeld = { forgotten[rack.settings.station, default: []].append($0); return nil } }
        racks[0].record(Self.result(1, "Fran", "4:10, 1 round", athlete: Self.anna, station: "rack-1"))
        racks[1].record(Self.result(2, "Fran", "3:10, 1 round", athlete: Self.ben, station: "rack-2"))
        loop.drivers = [gym] + racks
        #expect(loop.run(upTo: .seconds(60)) { gym.stored == 2 && gym.isSubscribed })
        // Every copy acknowledged (a station sends again when the collector announces itself).
        loop.run(for: .seconds(5))

        // rack-2 goes away (its will says offline); Anna is forgotten meanwhile.
        broker.sever("gymtimer-rack-2")
        loop.drivers = [gym, racks[0]]
        #expect(loop.run(upTo: .seconds(60)) { broker.retained["gymtimer/rack-2/status"]?.text == "offline" })
        _ = try roster.forget("Anna Berg")
        #expect(loop.run(upTo: .seconds(10)) { (try? gym.history!.forgetRequests().map(\.answered)) == [["rack-1"]] })
        #expect(forgotten["rack-1"] == [Self.anna])
        #expect(broker.retained[topic(Self.anna)] == nil, "her card is cleared")
        loop.run(for: .seconds(120))
        #expect(forgotten["rack-2"] == nil)

        // A record of hers that was still on its way: acknowledged, never stored.
        let late = FleetWorkoutMessage.encode(Self.result(9, "Fran", "2:00, 1 round", athlete: Self.anna, station: "rack-2"), station: "rack-2")
        let sender = try broker.factory(.init(clientID: "late", host: "gym.local", port: 1883))
        try sender.connect()
        try sender.subscribe("gymtimer/rack-2/ack", qos: 1)
        try sender.publish(MQTTMessage(topic: "gymtimer/rack-2/workout", text: late.payload, qos: 1))
        var acks: [FleetRecordAck] = []
        #expect(loop.run(upTo: .seconds(10)) {
            for case .message(let message) in sender.takeEvents() { if let ack = FleetRecordAck.parse(message.payload) { acks.append(ack) } }
            return !acks.isEmpty
        })
        #expect(acks.flatMap(\.stored) == [late.id])
        let kept = try gym.history!.workouts()
        #expect(kept.compactMap(\.athlete) == [Self.ben], "\(kept.map { ($0.id, $0.athlete) })")

        // rack-2 comes back: told, it answers, and the request is gone with the file rewritten.
        loop.drivers = [gym] + racks
        #expect(loop.run(upTo: .seconds(120)) { (try? gym.history!.forgetRequests().isEmpty) == true })
        #expect(forgotten["rack-2"] == [Self.anna])
        let bytes = try Data(contentsOf: URL(fileURLWithPath: database))
        for trace in [Self.anna.hex, "Anna Berg"] { #expect(bytes.range(of: Data(trace.utf8)) == nil, "\(trace) is in the database") }
        #expect(bytes.range(of: Data(Self.ben.hex.utf8)) != nil)
        #expect(lines.all.contains { $0.contains("forget-1 done") }, "\(lines.all)")
        #expect(!lines.all.contains { $0.contains(Self.anna.hex) }, "no log line names the card")
    }

    /// A station that never answers is waited for `ForgetRequest.patience`, then the request is
    /// completed without it, the station named in the log (the card not).
    @Test func aForgetGivesUpOnAStationThatNeverAnswersAfterItsPatience() throws {
        defer { try? FileManager.default.removeItem(atPath: directory) }
        let lines = LogLines()
        let roster = try AthleteRoster.open(path: try { _ = try collector(); return database }(),
                                            wall: .fixed(Self.now.addingTimeInterval(-ForgetRequest.patience - 60)))
        try roster.add(name: "Anna Berg", card: Self.anna)
        _ = try roster.forget("Anna Berg")
        // rack-9 is known (its retained status) and hears every command, but never answers.
        let silent = try broker.factory(.init(clientID: "gymtimer-rack-9", host: "gym.local", port: 1883))
        try silent.connect()
        try silent.subscribe("gymtimer/rack-9/cmd", qos: 1)
        try silent.publish(MQTTMessage(topic: "gymtimer/rack-9/status", text: "online", qos: 1, retain: true))
        let gym = try collector(log: lines.add)
        loop.drivers = [gym]
        #expect(loop.run(upTo: .seconds(120)) { (try? gym.history!.forgetRequests().isEmpty) == true })
        loop.run(for: .seconds(5))
        let heard = silent.takeEvents().compactMap { event -> String? in if case .message(let m) = event { m.text } else { nil } }
        #expect(heard.contains(#"{"do":"forget","card":"04A1B2C3","id":"forget-1"}"#), "\(heard)")
        #expect(lines.all.contains { $0.contains("forget-1 given up after 30 days: rack-9 never answered") }, "\(lines.all)")
        #expect(try Data(contentsOf: URL(fileURLWithPath: database)).range(of: Data(Self.anna.hex.utf8)) == nil)
    }
}
