import Foundation
import Glibc
import GymTimerConfig
import GymTimerCore
import GymTimerFleet
import GymTimerFleetLink
import GymTimerHistory
import GymTimerMQTT
import GymTimerSimulation
import GymTimerSystem
import Testing
import GymTimerTestSupport

/// The collector tells the stations who the gym's athletes are (retained `FleetAthleteCard`s,
/// republished only on a change, cleared when the roster drops a card), and carries a forget
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

    /// How many times the collector published on `card`'s topic.
    func publications(_ card: CardID) -> Int { broker.published.filter { $0.topic == topic(card) }.count }

    @Test func theCollectorRetainsEachRosterCardAndRepublishesOnlyOnAChange() throws {
        defer { try? FileManager.default.removeItem(atPath: directory) }
        let gym = try collector()
        try gym.history!.store([
            Self.result(1, "Fran", "4:10, 1 round", athlete: Self.anna), Self.result(2, "Fran", "3:45, 1 round", athlete: Self.anna),
            Self.result(3, "Cindy", "18 rounds", athlete: Self.anna), Self.result(4, "Fran", "3:00, 1 round", athlete: nil),
        ])
        let roster = try AthleteRoster.open(path: database)
        try roster.add(name: "Anna Berg", card: Self.anna)
        loop.drivers = [gym]
        #expect(loop.run(upTo: .seconds(30)) { broker.retained[topic(Self.anna)] != nil })
        let expected = #"{"bests":[{"division":"rx","program":"Cindy","score":"18 rounds"},"#
            + #"{"division":"rx","program":"Fran","score":"3:45, 1 round"}],"short":"AnnA"}"#
        #expect(broker.retained[topic(Self.anna)]?.text == expected)
        #expect(broker.retained.keys.filter { $0.contains("/athletes/") }.count == 1, "no card for the guest's or unknown cards")

        // Nothing changed: a minute of roster checks, and a restarted collector, publish nothing new.
        loop.run(for: .seconds(60))
        #expect(publications(Self.anna) == 1)
        gym.stop()
        let again = try collector()
        loop.drivers = [again]
        #expect(loop.run(upTo: .seconds(30)) { again.isSubscribed })
        loop.run(for: .seconds(10))
        #expect(publications(Self.anna) == 1, "the same bytes are retained already")

        // Another process edits the roster: noticed within a check, only that card republished.
        try roster.rename("Anna Berg", shortName: "AnA")
        try roster.addCard(Self.ben, to: "Anna Berg")
        loop.run(for: .seconds(5))
        #expect(publications(Self.anna) == 2)
        #expect(broker.retained[topic(Self.anna)].flatMap { FleetAthleteCard.parse($0.payload) }?.short == "AnA")
        #expect(broker.retained[topic(Self.ben)]?.payload == broker.retained[topic(Self.anna)]?.payload, "both cards, one athlete")

        // A record that beats a best, through the broker: republished once; one that does not: nothing.
        let sender = try broker.factory(.init(clientID: "rack-1-sender", host: "gym.local", port: 1883))
        try sender.connect()
        let faster = FleetWorkoutMessage.encode(Self.result(5, "Fran", "3:30, 1 round", athlete: Self.ben), station: "rack-1")
        try sender.publish(MQTTMessage(topic: "gymtimer/rack-1/workout", text: faster.payload, qos: 1))
        #expect(loop.run(upTo: .seconds(10)) { again.stored == 1 })
        loop.run(for: .seconds(1))
        #expect(FleetAthleteCard.parse(broker.retained[topic(Self.anna)]!.payload)?.bests.first { $0.program == "Fran" }?.score == "3:30, 1 round")
        #expect(publications(Self.anna) == 3)
        let slower = FleetWorkoutMessage.encode(Self.result(6, "Fran", "5:00, 1 round", athlete: Self.anna), station: "rack-1")
        try sender.publish(MQTTMessage(topic: "gymtimer/rack-1/workout", text: slower.payload, qos: 1))
        #expect(loop.run(upTo: .seconds(10)) { again.stored == 2 })
        loop.run(for: .seconds(5))
        #expect(publications(Self.anna) == 3)

        // Merged away: the card moves to the other athlete; a card removed with its athlete is cleared.
        try roster.add(name: "Ben Ohl", card: CardID(hex: "0A0B0C0D")!)
        try roster.merge("Anna Berg", into: "Ben Ohl")
        loop.run(for: .seconds(5))
        #expect(FleetAthleteCard.parse(broker.retained[topic(Self.anna)]!.payload)?.short == "bEno")
        _ = try roster.forget("Ben Ohl")
        loop.run(for: .seconds(5))
        #expect(broker.retained.keys.filter { $0.contains("/athletes/") }.isEmpty, "\(broker.retained.keys.sorted())")
        #expect(broker.published.last { $0.topic == topic(Self.anna) }?.payload == [], "cleared with an empty retained payload")
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
        #expect(loop.run(upTo: .seconds(60)) { gym.stored == 2 && broker.retained[topic(Self.ben)] != nil })

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
        #expect(try gym.history!.workouts().compactMap(\.athlete) == [Self.ben])

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
