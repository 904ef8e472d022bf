import Foundation
import GymTimerConfig
import GymTimerCore
import GymTimerFleet
import GymTimerHistory
import GymTimerMQTT
import GymTimerSimulation
import GymTimerSimulator
import GymTimerTestSupport
import Testing
@testable import GymTimerCollector
@testable import GymTimerFleetCommands
@testable import GymTimerFleetLink
@testable import GymTimerStationLink
@testable import GymTimerUpgrade

/// Rx/Scaled and `Pr` over the fleet: the `athlete` command's `division`, a record message's
/// `division` checked at the collector (`bad-division`), the gym's answers about cards kept by a
/// station (bounded, dropped by an answer without an athlete, a bad one ignored) and, in virtual
/// time, a tap asked for and answered, so it shows its short name and a better result `Pr`.
@Suite struct FleetDivisionTests {
    static let anna = CardID(hex: "04A1B2C3")!
    static let now = Date(timeIntervalSince1970: 1_767_700_000)

    func parse(_ text: String) -> Result<FleetCommand, FleetCommandError> { FleetCommand.parse(Array(text.utf8)) }

    @Test func theAthleteCommandMaySayADivision() throws {
        let scaled = try parse(#"{"do":"athlete","card":"04a1b2c3","short":"AnnA","division":"scaled"}"#).get()
        #expect(scaled == .athlete(CardTap(card: Self.anna, shortName: "AnnA", division: .scaled)))
        #expect(try parse(#"{"do":"athlete","card":"04A1B2C3","division":"rx"}"#).get() == .athlete(CardTap(card: Self.anna, division: .rx)))
        #expect(try parse(#"{"do":"athlete","card":"04A1B2C3"}"#).get() == .athlete(CardTap(card: Self.anna)))
        for bad in [#""RX""#, #""""#, "1", "true", "null", #"["rx"]"#, #""scaled ""#] {
            guard case .failure(let error) = parse(#"{"do":"athlete","card":"04A1B2C3","division":"# + bad + "}") else {
                Issue.record("accepted division \(bad)")
                continue
            }
            #expect(error == .wrongType(field: "division", expected: "rx or scaled"), "\(bad)")
        }
        guard case .failure(let error) = parse(#"{"do":"athlete","card":null,"division":"scaled"}"#) else {
            Issue.record("a guest's division from the list")
            return
        }
        #expect(error == .unexpected(field: "division", command: "athlete"))
        // What the CLI and the console send reads back.
        #expect(try parse(scaled.json).get() == scaled)
    }

    static func payload(division: Any?, kind: String = "program") -> [UInt8] {
        let workout = StoredWorkout(
            id: "program@1000000000", kind: .program, sets: 3, durationMilliseconds: 60_000, calories: 0, exercises: [],
            preset: "Quick", completedAt: now, localDay: LocalDay(now, in: TimeZone(identifier: "UTC")!), score: "3 rounds",
            athlete: anna)
        let text = FleetWorkoutMessage.encode(workout, station: "rack-1").payload
        var fields = (try? JSONSerialization.jsonObject(with: Data(text.utf8))) as? [String: Any] ?? [:]
        fields["division"] = division
        fields["kind"] = kind
        return Array((try? JSONSerialization.data(withJSONObject: fields)) ?? Data())
    }

    @Test func theCollectorRefusesABadDivision() {
        for (name, value, kind) in [("upper case", "RX", "program"), ("a number", 1, "program"), ("long", String(repeating: "x", count: 500), "program"),
                                    ("an object", ["d": "rx"], "program"), ("on a rest", "scaled", "rest")] as [(String, Any, String)] {
            switch FleetWorkoutMessage.decode(Self.payload(division: value, kind: kind), station: "rack-1", receivedAt: Self.now) {
            case .success(let workout): Issue.record("\(name): accepted as \(String(describing: workout.division))")
            case .failure(let refusal):
                #expect(refusal.kind == "bad-division", "\(name): \(refusal.kind)")
                #expect(refusal.detail.hasPrefix("division ") && refusal.detail.utf8.count < 100, "\(name): \(refusal.detail)")
                #expect(refusal.id == "rack-1/program@1000000000", "\(name)")
            }
        }
        let scaled = FleetWorkoutMessage.decode(Self.payload(division: "scaled"), station: "rack-1", receivedAt: Self.now)
        #expect((try? scaled.get())?.division == .scaled)
        let none = FleetWorkoutMessage.decode(Self.payload(division: nil), station: "rack-1", receivedAt: Self.now)
        #expect((try? none.get()).map { $0.division == nil } == true)
        let null = FleetWorkoutMessage.decode(Self.payload(division: NSNull(), kind: "rest"), station: "rack-1", receivedAt: Self.now)
        #expect((try? null.get()) != nil, "null is not said, on any kind")
    }

    static func card(_ short: String, _ bests: [FleetAthleteCard.Best] = []) -> [UInt8] {
        FleetAthleteCard(short: short, bests: bests).payload
    }

    static func answer(_ card: CardID, _ athlete: FleetAthleteCard?) -> [UInt8] { FleetCardAnswer(card: card, athlete: athlete).payload }

    @Test func aStationKeepsTheAnswersItGetsBoundedAndForgetsOneWithoutAnAthlete() {
        var cards = FleetAthleteCards(maximumCount: 3)
        let anna = TestCardKey.card("04A1B2C3")
        let card = FleetAthleteCard(short: "AnnA", bests: [.init(program: "Quick", division: .rx, score: "3 rounds"), .init(program: "Bad", division: .rx, score: "fast")])
        #expect(cards.receive(answer: Self.answer(anna, card)) == .kept(anna))
        #expect(cards.tap(for: anna)?.shortName == "AnnA")
        #expect(cards.tap(for: anna)?.bests?.entries.map(\.program) == ["Quick"], "a score that reads as none is left out")
        // Too many: the one heard longest ago goes.
        let others = ["01", "02", "03"].map { TestCardKey.card($0) }
        for (index, other) in others.enumerated() { _ = cards.receive(answer: Self.answer(other, FleetAthleteCard(short: "n\(index)"))) }
        #expect(cards.count == 3 && cards.tap(for: anna) == nil)
        // Hostile: nothing changes.
        let hostile: [(String, [UInt8])] = [
            ("too-large", Array(repeating: 0x20, count: FleetCardAnswer.maximumBytes + 1)),
            ("malformed", Array(#"{"athlete":{"short":1},"card":"\#(others[0].hex)"}"#.utf8)),
            ("malformed", Array(#"{"athlete":null,"card":"04A1B2C3"}"#.utf8)),
            ("malformed", Array(#"{"athlete":null,"card":"\#(others[0].hex.lowercased())"}"#.utf8)),
        ]
        for (kind, payload) in hostile {
            if case .ignored(let said, let detail) = cards.receive(answer: payload) {
                #expect(said == kind && detail.utf8.count < 120, "\(detail)")
            } else { Issue.record("\(kind) kept") }
        }
        #expect(cards.tap(for: others[0])?.shortName == "n0")
        // An answer without an athlete: the card is dropped.
        #expect(cards.receive(answer: Self.answer(others[1], nil)) == .cleared(others[1]))
        #expect(cards.count == 2 && cards.tap(for: others[1]) == nil)
    }

    @Test func anAskRoundTripsAndAnAskThatIsNoneIsNot() {
        let anna = TestCardKey.card("04A1B2C3")
        let ask = FleetCardAsk(card: anna, at: 1_767_700_000)
        #expect(String(decoding: ask.payload, as: UTF8.self) == #"{"at":1767700000,"card":"\#(anna.hex)"}"#)
        #expect(FleetCardAsk.parse(ask.payload) == ask)
        for bad in [#"{"at":1767700000,"card":"04A1B2C3"}"#, #"{"at":1.5,"card":"\#(anna.hex)"}"#, #"{"card":"\#(anna.hex)"}"#,
                    #"{"at":"now","card":"\#(anna.hex)"}"#, #"{"at":1e300,"card":"\#(anna.hex)"}"#, String(repeating: " ", count: 200)] {
            #expect(FleetCardAsk.parse(Array(bad.utf8)) == nil, "\(bad)")
        }
        let answer = FleetCardAnswer(card: anna, athlete: FleetAthleteCard(short: "AnnA"))
        #expect(String(decoding: answer.payload, as: UTF8.self) == #"{"athlete":{"bests":[],"short":"AnnA"},"card":"\#(anna.hex)"}"#)
        #expect(FleetCardAnswer.parse(answer.payload) == answer)
    }

    static let configuration = """
        mode = "program"
        program = "Quick"

        [[programs]]
        name = "Quick"
        label = "A 1"
        kind = "amrap"
        lead_in_seconds = 0
        time_seconds = 60

        [fleet]
        broker = "mqtt://gym.local:1883"
        station = "rack-1"
        home_assistant = false
        """

    /// The gym's side in these tests: every card ask heard since the last call, each answered
    /// with `answers[card]` (a card it does not know: null).
    static func answerAsks(_ gym: any MQTTTransport, _ answers: [CardID: FleetAthleteCard]) throws -> [FleetCardAsk] {
        var asks: [FleetCardAsk] = []
        for case .message(let message) in gym.takeEvents() where message.topic == "gymtimer/rack-1/card-ask" {
            guard let ask = FleetCardAsk.parse(message.payload) else { continue }
            asks.append(ask)
            _ = try gym.publish(MQTTMessage(topic: "gymtimer/rack-1/card", payload: Self.answer(ask.card, answers[ask.card]), qos: 1))
        }
        return asks
    }

    @Test func aTappedCardIsAskedForItsAnswerNamesItAndABetterResultSaysPr() throws {
        let clock = VirtualClock()
        let broker = InMemoryBroker(now: { clock.now.offset })
        let lines = LogLines()
        let anna = TestCardKey.card("04A1B2C3")
        let gym = try broker.factory(.init(clientID: "gym-collector", host: "gym.local", port: 1883, keepAlive: 0))
        try gym.connect()
        _ = try gym.subscribe("gymtimer/+/card-ask", qos: 1)
        // A card retained the old way, for every station: no station reads it now.
        try gym.publish(MQTTMessage(
            topic: FleetTopics.athleteCard(prefix: "gymtimer", card: anna), payload: Self.card("AnnA"), qos: 1, retain: true))
        let station = VirtualStation(
            configuration: try GymTimerConfiguration.parse(Self.configuration), clock: clock, broker: broker, log: lines.add)
        try station.run(until: .seconds(1))
        #expect(station.station?.knownCards == 0)
        #expect(try Self.answerAsks(gym, [:]).isEmpty, "nobody is on the station: nothing is asked")

        station.runtime.tapped(card: anna, at: station.runtime.now)
        try station.run(until: .seconds(1.05))
        #expect(station.runtime.shownDisplay == DisplayContent(text: anna.shortTail), "unknown until the gym answers")
        let known = FleetAthleteCard(short: "AnnA", bests: [.init(program: "Quick", division: .rx, score: "3 rounds")])
        #expect(try Self.answerAsks(gym, [anna: known]).map(\.card) == [anna])
        try gym.publish(MQTTMessage(topic: "gymtimer/rack-1/card", text: "not an answer", qos: 1))
        try station.run(until: .seconds(1.5))
        #expect(station.station?.knownCards == 1)
        #expect(station.runtime.shownDisplay == DisplayContent(text: "AnnA"), "the notice shows the name the answer brought")
        #expect(lines.all.filter { $0.contains("athlete card is ignored (malformed)") }.count == 1, "\(lines.all)")
        // Four rounds beat her three: Pr over the result.
        let coach = try broker.factory(.init(clientID: "coach", host: "gym.local", port: 1883, keepAlive: 0))
        try coach.connect()
        try coach.publish(MQTTMessage(topic: "gymtimer/rack-1/cmd", text: #"{"do":"start"}"#, qos: 1))
        try station.run(until: .seconds(5))
        for second in 0..<4 {
            try coach.publish(MQTTMessage(topic: "gymtimer/rack-1/cmd", text: #"{"do":"start"}"#, qos: 1))
            try station.run(until: .seconds(10 + 2 * second))
        }
        try station.run(until: .seconds(62.5))
        #expect(station.history.records.map(\.score) == [ProgramScore(rounds: 4)])
        #expect(station.history.records.map(\.athlete) == [anna] && station.history.records.map(\.division) == [.rx])
        #expect(station.runtime.shownDisplay == DisplayContent(text: " Pr "))
        #expect(station.runtime.kiosk.athlete?.tap.bests?.best(of: "Quick", in: .rx) == ProgramScore(rounds: 4))
        #expect(station.station?.knownTap(for: anna)?.bests?.best(of: "Quick", in: .rx) == ProgramScore(rounds: 4),
                "the station's card moves on with the result")
        // Her record went after an ask for her card as of the run's start.
        let published = broker.published.filter { $0.topic.hasPrefix("gymtimer/rack-1/") }
        let record = try #require(published.firstIndex { $0.topic == "gymtimer/rack-1/workout" })
        let vouching = try #require(FleetCardAsk.parse(published[record - 1].payload), "\(published[record - 1].topic)")
        guard case .object(let fields)? = JSONValue.parse(published[record].payload), let text = fields["completed_at"]?.string,
              let completed = ISO8601DateFormatter().date(from: text.replacingOccurrences(of: #"\.\d+"#, with: "", options: .regularExpression))
        else { Issue.record("the record has no completed_at"); return }
        #expect(vouching.card == anna && abs(Double(vouching.at) - (completed.timeIntervalSince1970 - 60)) <= 1.5, "\(vouching) \(text)")
        let state = broker.retained["gymtimer/rack-1/state"]?.text ?? ""
        #expect(state.contains(#""division":"rx""#) && !state.contains(anna.hex), "the state names nobody: \(state)")
        #expect(broker.retained["gymtimer/rack-1/athlete"]?.text == #"{"card":"\#(anna.hex)"}"#, "her card is on the station's own athlete topic")
        _ = try Self.answerAsks(gym, [anna: known])

        // The class list names her by card alone: her short name comes from what the gym told; Scaled.
        try coach.publish(MQTTMessage(topic: "gymtimer/rack-1/cmd", text: #"{"do":"athlete","card":null}"#, qos: 1))
        try station.run(until: .seconds(70))
        #expect(broker.retained["gymtimer/rack-1/athlete"] == nil, "nobody on the station: cleared")
        try coach.publish(MQTTMessage(topic: "gymtimer/rack-1/cmd", text: #"{"do":"athlete","card":"\#(anna.hex)","division":"scaled"}"#, qos: 1))
        try station.run(until: .seconds(70.5))
        #expect(station.runtime.kiosk.athlete?.tap.shortName == "AnnA" && station.runtime.kiosk.division == .scaled)
        #expect(station.runtime.shownDisplay == DisplayContent(text: "AnnA"))
        #expect(broker.retained["gymtimer/rack-1/state"]?.text.contains(#""division":"scaled""#) == true)
        #expect(try Self.answerAsks(gym, [:]).map(\.card) == [anna], "the class list's card is asked for too")

        // The gym no longer knows her card (the answer above said null): the station drops it.
        try station.run(until: .seconds(71))
        #expect(station.station?.knownTap(for: anna) == nil)
    }
}
