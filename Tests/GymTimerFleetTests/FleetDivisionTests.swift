import Foundation
import GymTimerConfig
import GymTimerCore
import GymTimerFleet
import GymTimerHistory
import GymTimerMQTT
import GymTimerSimulation
import GymTimerSimulator
import Testing
@testable import GymTimerFleetLink

/// Rx/Scaled and `Pr` over the fleet: the `athlete` command's `division`, a record message's
/// `division` checked at the collector (`bad-division`), the gym's retained athlete cards kept
/// by a station (bounded, cleared by an empty payload, a bad one ignored) and, in virtual time,
/// a retained card reaching the station so a tap shows its short name and a better result `Pr`.
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

    @Test func aStationKeepsTheCardsItReadsBoundedAndForgetsACleared() {
        var cards = FleetAthleteCards(maximumCount: 3)
        let topic = { (hex: String) in "gymtimer/all/athletes/\(hex)" }
        let payload = Self.card("AnnA", [.init(program: "Quick", division: .rx, score: "3 rounds"), .init(program: "Bad", division: .rx, score: "fast")])
        #expect(cards.receive(topic: topic("04A1B2C3"), payload: payload, prefix: "gymtimer") == .kept(Self.anna))
        #expect(cards.tap(for: Self.anna)?.shortName == "AnnA")
        #expect(cards.tap(for: Self.anna)?.bests?.entries.map(\.program) == ["Quick"], "a score that reads as none is left out")
        // Too many: the one heard longest ago goes.
        for hex in ["01", "02", "03"] { _ = cards.receive(topic: topic(hex), payload: Self.card(hex), prefix: "gymtimer") }
        #expect(cards.count == 3 && cards.tap(for: Self.anna) == nil)
        // Hostile: nothing changes.
        #expect(cards.receive(topic: topic("04a1b2c3"), payload: payload, prefix: "gymtimer") == .ignored(kind: "bad-topic", detail: "a card's topic ends in its UID as upper-case hex"))
        if case .ignored(let kind, _) = cards.receive(topic: topic("01"), payload: Array(repeating: 0x20, count: 9000), prefix: "gymtimer") {
            #expect(kind == "too-large")
        } else { Issue.record("an oversize card kept") }
        if case .ignored(let kind, _) = cards.receive(topic: topic("01"), payload: Array(#"{"short":1}"#.utf8), prefix: "gymtimer") {
            #expect(kind == "malformed")
        } else { Issue.record("a malformed card kept") }
        #expect(cards.tap(for: CardID(hex: "01")!)?.shortName == "01")
        // Cleared.
        #expect(cards.receive(topic: topic("02"), payload: [], prefix: "gymtimer") == .cleared(CardID(hex: "02")!))
        #expect(cards.count == 2 && cards.tap(for: CardID(hex: "02")!) == nil)
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

    @Test func aRetainedCardReachesTheStationAndABetterResultSaysPr() throws {
        let clock = VirtualClock()
        let broker = InMemoryBroker(now: { clock.now.offset })
        let lines = LogLines()
        // The collector's retained card, there before the station connects.
        let gym = try broker.factory(.init(clientID: "gym-collector", host: "gym.local", port: 1883, keepAlive: 0))
        try gym.connect()
        try gym.publish(MQTTMessage(
            topic: FleetTopics.athleteCard(prefix: "gymtimer", card: Self.anna),
            payload: Self.card("AnnA", [.init(program: "Quick", division: .rx, score: "3 rounds")]), qos: 1, retain: true))
        try gym.publish(MQTTMessage(topic: "gymtimer/all/athletes/0E0F1011", text: "not a card", qos: 1, retain: true))
        let station = VirtualStation(
            configuration: try GymTimerConfiguration.parse(Self.configuration), clock: clock, broker: broker, log: lines.add)
        try station.run(until: .seconds(1))
        #expect(station.station?.knownCards == 1)
        #expect(lines.all.filter { $0.contains("athlete card is ignored (malformed)") }.count == 1, "\(lines.all)")

        station.runtime.tapped(card: Self.anna, at: station.runtime.now)
        try station.run(until: .seconds(1.5))
        #expect(station.runtime.shownDisplay == DisplayContent(text: "AnnA"))
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
        #expect(station.history.records.map(\.athlete) == [Self.anna] && station.history.records.map(\.division) == [.rx])
        #expect(station.runtime.shownDisplay == DisplayContent(text: " Pr "))
        #expect(station.runtime.kiosk.athlete?.tap.bests?.best(of: "Quick", in: .rx) == ProgramScore(rounds: 4))
        #expect(station.station?.knownTap(for: Self.anna)?.bests?.best(of: "Quick", in: .rx) == ProgramScore(rounds: 4),
                "the station's card moves on with the result")
        let state = broker.retained["gymtimer/rack-1/state"]?.text ?? ""
        #expect(state.contains(#""division":"rx""#), "\(state)")

        // The class list names her by card alone: her short name comes from the card; Scaled.
        try coach.publish(MQTTMessage(topic: "gymtimer/rack-1/cmd", text: #"{"do":"athlete","card":null}"#, qos: 1))
        try station.run(until: .seconds(70))
        try coach.publish(MQTTMessage(topic: "gymtimer/rack-1/cmd", text: #"{"do":"athlete","card":"04A1B2C3","division":"scaled"}"#, qos: 1))
        try station.run(until: .seconds(70.5))
        #expect(station.runtime.kiosk.athlete?.tap.shortName == "AnnA" && station.runtime.kiosk.division == .scaled)
        #expect(station.runtime.shownDisplay == DisplayContent(text: "AnnA"))
        #expect(broker.retained["gymtimer/rack-1/state"]?.text.contains(#""division":"scaled""#) == true)

        // The gym forgets her card: cleared, the station no longer knows it.
        try gym.publish(MQTTMessage(topic: FleetTopics.athleteCard(prefix: "gymtimer", card: Self.anna), payload: [], qos: 1, retain: true))
        try station.run(until: .seconds(71))
        #expect(station.station?.knownTap(for: Self.anna) == nil)
    }
}
