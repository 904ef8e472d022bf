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
import Testing
import GymTimerTestSupport

/// The chain's roster in virtual time: an athlete named at the centre (the central collector's
/// `RosterSource`) is known at a station of gym B once their cards are tapped there (the asks go
/// out over the bridge, the answers come back on the station's own topic), and no card crosses
/// any other way; an edit by another process is noticed within a roster check and told to that
/// station, and a card dropped from the roster is forgotten by every station of every gym, then
/// cleared from the centre's ledger.
@Suite struct ChainRosterTests {
    /// The central roster as another process edits it: `stamp` moves with every edit.
    final class EditedRoster: RosterSource {
        var cards: [RosterCard] = []
        var stamp = 0
        var reads = 0

        func edit(_ cards: [RosterCard]) {
            self.cards = cards
            stamp += 1
        }

        func rosterStamp() throws -> String { "\(stamp)" }
        func rosterCards(only: Set<CardID>?) throws -> [RosterCard] {
            reads += 1
            return cards.filter { only?.contains($0.card) ?? true }
        }
        func forgetRequests() throws -> [ForgetRequest] { [] }
        func recordForgetAnswer(request id: Int64, station: String) throws {}
        func completeForget(request id: Int64) throws -> Int { 0 }
    }

    static let anna = TestCardKey.card("04A1B2C3")
    static let bo = TestCardKey.card("0A0B0C0D")

    @Test func anAthleteNamedAtTheCentreIsKnownAtAStationOfAnotherGym() throws {
        var template = Array((NSTemporaryDirectory() + "fleet-chain-roster-XXXXXX").utf8CString)
        let directory = String(cString: mkdtemp(&template)!)
        let loop = VirtualLoop()
        let centre = InMemoryBroker(now: { loop.now.sinceOrigin })
        let gym = InMemoryBroker(now: { loop.now.sinceOrigin })
        let roster = EditedRoster()
        let store = ChainCollectorTests.CentralStore()
        let lines = LogLines()
        let collector = try FleetCollector(
            options: .init(clientID: "central-1", host: "centre.local", port: 1883, cleanSession: false),
            topics: .chain(prefix: "gyms", sharedGroup: "central"), store: store, roster: roster,
            transport: centre.factory, now: { loop.now }, log: lines.add)
        let bridge = try InMemoryBridge(
            name: "bridge-gym-b", local: gym, remote: centre, rules: ChainCollectorTests.rules(gym: "gym-b"), now: { loop.now })
        let settings = FleetSettings(broker: .init(host: "gym-b.local", port: 1883, tls: false), station: "rack-1", homeAssistant: false)
        let station = FleetStation(
            settings: settings, password: nil, outbox: try FleetOutbox(path: "\(directory)/rack-1.sqlite"), now: { loop.now },
            transport: gym.factory, startLead: .zero, log: { print("gym-b rack-1: \($0)") })
        loop.drivers = [station, collector, bridge]
        #expect(loop.run(upTo: .seconds(60)) { collector.isSubscribed }, "the central collector subscribes")
        loop.run(for: .seconds(5))

        // Named at the centre (another process): kept in the centre's ledger, and nowhere in the gym.
        let fran = ProgramBest(program: "Fran", division: .rx, score: ProgramScore(rounds: 4).description)
        roster.edit([RosterCard(card: Self.anna, shortName: "AnnA", bests: [fran]), RosterCard(card: Self.bo, shortName: "bo", bests: [])])
        let payload = FleetAthleteCard(short: "AnnA", bests: [fran]).payload
        #expect(loop.run(upTo: .seconds(10)) { centre.retained["gyms/all/athletes/\(Self.anna.hex)"]?.payload == payload })
        #expect(station.knownCards == 0 && !gym.retained.keys.contains { $0.contains("athletes") }, "no card is bridged in")
        // Both tapped at gym B's rack-1: asked over the bridge, answered on its own topic.
        _ = station.tapped(Self.anna)
        _ = station.tapped(Self.bo)
        #expect(loop.run(upTo: .seconds(10)) { station.knownTap(for: Self.anna)?.shortName == "AnnA" }, "\(lines.all.suffix(5))")
        #expect(centre.published.contains { $0.topic == "gyms/gym-b/rack-1/card-ask" } && gym.published.contains { $0.topic == "gymtimer/rack-1/card" })
        #expect(station.knownTap(for: Self.anna)?.bests?.best(of: "Fran", in: .rx) == ProgramScore(rounds: 4))
        #expect(station.knownTap(for: Self.bo)?.shortName == "bo")

        // Nothing changed: no read of the roster beyond the stamp.
        let reads = roster.reads
        loop.run(for: .seconds(20))
        #expect(roster.reads == reads, "an unchanged stamp costs no read of the cards")

        // Gym B cut off while bo is forgotten: the forget waits for its station, and a record of
        // bo's card arriving meanwhile (from gym C) is acknowledged and dropped, never stored.
        bridge.cut()
        roster.edit([RosterCard(card: Self.anna, shortName: "AnnA", bests: [fran])])
        loop.run(for: .seconds(5))
        #expect(centre.retained["gyms/all/athletes/\(Self.bo.hex)"] != nil, "kept until every station answered")
        let acks = try centre.factory(.init(clientID: "gym-c-rack-9", host: "centre.local", port: 1883))
        try acks.connect()
        try acks.subscribe("gyms/gym-c/rack-9/ack", qos: 1)
        let late = StoredWorkout(
            id: "rack-9/program@1", kind: .program, sets: 1, durationMilliseconds: 60_000, calories: 1, exercises: [], preset: "Fran",
            completedAt: Date(timeIntervalSince1970: 1_767_600_000), localDay: LocalDay(Date(timeIntervalSince1970: 1_767_600_000), in: TimeZone(identifier: "UTC")!),
            score: ProgramScore(rounds: 5).description, station: "rack-9", athlete: Self.bo, division: .rx)
        let (lateID, latePayload) = FleetWorkoutMessage.encode(late, station: "rack-9")
        try acks.publish(MQTTMessage(topic: "gyms/gym-c/rack-9/workout", text: latePayload, qos: 1))
        var heard: [FleetRecordAck] = []
        #expect(loop.run(upTo: .seconds(30)) {
            for case .message(let message) in acks.takeEvents() {
                if let ack = FleetRecordAck.parse(message.payload) { heard.append(ack) }
            }
            return heard.flatMap(\.stored).contains(lateID)
        }, "the late record is acknowledged")
        #expect(store.rows.isEmpty, "and not stored")
        try bridge.restore()

        // Renamed and one card dropped (forgotten): the new name goes to the station that asked; the forget goes over
        // the bridge to gym B's station (gyms/gym-b/rack-1/cmd), whose answer comes back on its
        // event, and only then is the dropped card cleared.
        roster.edit([RosterCard(card: Self.anna, shortName: "AnA", bests: [fran])])
        #expect(loop.run(upTo: .seconds(10)) { station.knownTap(for: Self.anna)?.shortName == "AnA" && station.knownTap(for: Self.bo) == nil },
                "\(lines.all.suffix(5))")
        #expect(loop.run(upTo: .seconds(10)) { centre.retained["gyms/all/athletes/\(Self.bo.hex)"] == nil }, "\(lines.all.suffix(5))")
        #expect(lines.all.contains { $0.contains("done: every station known (1) forgot the card") }, "\(lines.all.suffix(5))")
        #expect(centre.retained["gyms/all/athletes/\(Self.bo.hex)"] == nil, "the dropped card is cleared at the centre")
        #expect(gym.retained["gymtimer/all/athletes/\(Self.bo.hex)"] == nil, "and in the gym")
        #expect(centre.retained["gyms/all/athletes/\(Self.anna.hex)"]?.payload == FleetAthleteCard(short: "AnA", bests: [fran]).payload)
    }
}
