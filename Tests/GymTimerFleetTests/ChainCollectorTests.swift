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

/// A chain of gyms in virtual time (chain.md): two gyms' in-memory brokers bridged to the
/// centre's (`InMemoryBridge`, the twin of Mosquitto's, with the topic lines `gymtimer chain
/// bridge` writes), a station with its durable outbox in each gym, and two central collectors
/// sharing the records (`$share/central/…`) into one store that keeps each record once by gym and
/// id, as PostgreSQL does. Each record is acknowledged end to end over the bridge: a gym cut off,
/// a collector killed, a database down lose nothing and double nothing. The same story with
/// real processes, brokers and PostgreSQL is Tests/chain/.
@Suite struct ChainCollectorTests {
    let directory: String
    let loop = VirtualLoop()
    let centre: InMemoryBroker
    let gyms: [String: InMemoryBroker]

    init() throws {
        directory = testDirectory("fleet-chain")
        let loop = loop
        centre = InMemoryBroker(now: { loop.now.sinceOrigin })
        gyms = ["gym-a": InMemoryBroker(now: { loop.now.sinceOrigin }), "gym-b": InMemoryBroker(now: { loop.now.sinceOrigin })]
    }

    /// The chain's store: each record once by gym and id; `failing` is a database that is down.
    final class CentralStore: CollectorStore {
        var rows: [String: CollectedRecord] = [:]
        var batches = 0
        var failing = false

        func store(_ records: [CollectedRecord]) throws -> Int {
            struct Down: Error {}
            if failing { throw Down() }
            batches += 1
            var added = 0
            for record in records where rows["\(record.gym ?? "")|\(record.workout.id)"] == nil {
                rows["\(record.gym ?? "")|\(record.workout.id)"] = record
                added += 1
            }
            return added
        }

        func ids(of gym: String) -> [String] { rows.values.filter { $0.gym == gym }.map(\.workout.id).sorted() }
    }

    /// The topic lines of a gym's bridge (chain.md).
    static func rules(gym: String) -> [InMemoryBridge.Rule] {
        let remote = "gyms/\(gym)/"
        return ["+/workout", "+/state", "+/status", "+/event", "+/card-ask"].map { InMemoryBridge.Rule($0, .out, local: "gymtimer/", remote: remote) }
            + ["+/ack", "+/cmd", "+/card"].map { InMemoryBridge.Rule($0, .in, local: "gymtimer/", remote: remote) }
            + ["all/collector"].map { InMemoryBridge.Rule($0, .in, local: "gymtimer/", remote: "gyms/") }
            + [InMemoryBridge.Rule("all/gym/ask", .out, local: "gymtimer/", remote: remote)]
            + ["all/gym/answer/+", "all/gym/scores"].map { InMemoryBridge.Rule($0, .in, local: "gymtimer/", remote: remote) }
    }

    func workout(_ n: Int) -> StoredWorkout {
        StoredWorkout(
            id: "rest@\(n)000000000", kind: .rest, sets: n, durationMilliseconds: Int64(n) * 60_000, calories: 0,
            exercises: [], preset: nil, completedAt: Date(timeIntervalSince1970: 1_767_600_000 + Double(n) * 600),
            localDay: LocalDay(Date(timeIntervalSince1970: 1_767_600_000), in: TimeZone(identifier: "UTC")!))
    }

    func station(_ name: String, gym: String) throws -> (FleetStation, FleetOutbox) {
        let settings = FleetSettings(broker: .init(host: "\(gym).local", port: 1883, tls: false), station: name, homeAssistant: false)
        let outbox = try FleetOutbox(path: "\(directory)/\(gym)-\(name).sqlite")
        let loop = loop
        let station = FleetStation(
            settings: settings, password: nil, outbox: outbox, now: { loop.now }, transport: gyms[gym]!.factory, startLead: .zero,
            log: { print("\(gym) \(name): \($0)") })
        return (station, outbox)
    }

    func collector(_ id: String, store: CentralStore, log: LogLines) throws -> FleetCollector {
        let loop = loop
        return try FleetCollector(
            options: .init(clientID: id, host: "centre.local", port: 1883, cleanSession: false),
            topics: .chain(prefix: "gyms", sharedGroup: "central"), store: store, transport: centre.factory,
            now: { loop.now }, log: log.add)
    }

    @Test func everyRecordOfEveryGymArrivesOnceThroughCutsKillsAndADatabaseDown() throws {
        let store = CentralStore()
        let lines = LogLines()
        var central = [try collector("central-1", store: store, log: lines), try collector("central-2", store: store, log: lines)]
        let loop = loop
        let bridges = try ["gym-a", "gym-b"].map { gym in
            try InMemoryBridge(name: "bridge-\(gym)", local: gyms[gym]!, remote: centre, rules: Self.rules(gym: gym), now: { loop.now })
        }
        let (rackA, outboxA) = try station("rack-1", gym: "gym-a")
        let (rackB, outboxB) = try station("rack-1", gym: "gym-b")
        func drivers() -> [any TimedDriver] { [rackA, rackB] + central + bridges }
        loop.drivers = drivers()
        #expect(loop.run(upTo: .seconds(60)) { central.allSatisfy(\.isSubscribed) }, "both central collectors subscribe")
        #expect(gyms["gym-a"]!.retained["gymtimer/all/collector"]?.text == "online", "the centre's announcement reaches the gym over its bridge")

        // 1. Both gyms record: every record arrives once, each under its gym, and leaves its outbox.
        for n in 1...5 { rackA.record(workout(n)); rackB.record(workout(n)) }
        #expect(loop.run(upTo: .seconds(600)) { (try? outboxA.count()) == 0 && (try? outboxB.count()) == 0 }, "acknowledged end to end")
        #expect(store.ids(of: "gym-a") == (1...5).map { "rack-1/rest@\($0)000000000" }.sorted())
        #expect(store.ids(of: "gym-b") == store.ids(of: "gym-a"), "the same ids in two gyms are two records")
        #expect(Set(store.rows.values.map(\.workout.station)) == ["rack-1"])
        #expect(central.allSatisfy { $0.stored > 0 }, "the shared subscription spread the records over both collectors")

        // 2. Gym B cut off: its station keeps recording, nothing arrives, nothing is lost.
        bridges[1].cut()
        for n in 6...10 { rackB.record(workout(n)) }
        loop.run(for: .seconds(1_800))
        #expect(store.ids(of: "gym-b").count == 5, "nothing crosses a cut bridge")
        #expect(try outboxB.count() == 5, "the records wait in the station's outbox")
        try bridges[1].restore()
        #expect(loop.run(upTo: .seconds(1_800)) { (try? outboxB.count()) == 0 }, "back: the outbox empties")
        #expect(store.ids(of: "gym-b") == (1...10).map { "rack-1/rest@\($0)000000000" }.sorted())

        // 3. A central collector killed mid-stream: the other takes every record, once.
        for n in 6...15 { rackA.record(workout(n)) }
        #expect(loop.run(upTo: .seconds(60)) { store.ids(of: "gym-a").count > 5 }, "records flow")
        centre.sever("central-1")
        central.removeFirst()
        loop.drivers = drivers()
        #expect(loop.run(upTo: .seconds(3_600)) { (try? outboxA.count()) == 0 }, "every record stored by the survivor: \(lines.all.suffix(5))")
        #expect(store.ids(of: "gym-a") == (1...15).map { "rack-1/rest@\($0)000000000" }.sorted())
        #expect(centre.retained["gyms/all/collector"]?.text == "online", "the survivor says online again after the dead one's will")

        // 4. The database down: nothing is acknowledged, so nothing leaves an outbox; back up, all arrive.
        store.failing = true
        for n in 11...14 { rackB.record(workout(n)) }
        loop.run(for: .seconds(600))
        #expect(try outboxB.count() == 4, "a record the database could not take stays with its station")
        store.failing = false
        #expect(loop.run(upTo: .seconds(3_600)) { (try? outboxB.count()) == 0 }, "the database back: the outbox empties")
        #expect(store.ids(of: "gym-b") == (1...14).map { "rack-1/rest@\($0)000000000" }.sorted())
        #expect(store.rows.count == 29, "29 records, each once")
    }

    @Test func aChainCollectorTakesOnlyTopicsThatNameAGymAndAStation() {
        let topics = CollectorTopics.chain(prefix: "gyms", sharedGroup: "central")
        #expect(topics.records == "$share/central/gyms/+/+/workout")
        #expect(topics.origin(of: "gyms/gym-a/rack-1/workout").map { "\($0.gym ?? "-") \($0.station)" } == "gym-a rack-1")
        for hostile in ["gyms/all/rack-1/workout", "gyms/gym-a/all/workout", "gyms/Gym A/rack-1/workout", "gyms/gym-a/rack-1/state",
                        "gyms/gym-a/rack-1/x/workout", "other/gym-a/rack-1/workout", "gyms//rack-1/workout"] {
            #expect(topics.origin(of: hostile) == nil, "\(hostile)")
        }
        #expect(topics.ack(gym: "gym-a", station: "rack-1") == "gyms/gym-a/rack-1/ack")
        #expect(CollectorTopics.gym(prefix: "gymtimer").ack(gym: nil, station: "rack-1") == "gymtimer/rack-1/ack")
        #expect(CollectorTopics.gym(prefix: "gymtimer").records == "gymtimer/+/workout")
    }
}
