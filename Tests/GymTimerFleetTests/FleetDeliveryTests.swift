import Foundation
import Glibc
import GymTimerConfig
import GymTimerCore
import GymTimerCollector
import GymTimerFleetCommands
import GymTimerFleetLink
import GymTimerStationLink
import GymTimerUpgrade
import GymTimerHistory
import GymTimerMQTT
import GymTimerSimulation
import GymTimerTestSupport
import Testing
import GymTimerSystem

/// Workout records from stations to the collector through the broker, in virtual time on the
/// in-memory broker (which keeps a persistent session's queue, at most `maxQueued`, and goes
/// down with or without its state, as Mosquitto does): the durable outbox on a real file, the
/// broker going away and coming back, repeats stored once, a collector whose database fails.
/// Every wait is for the event it needs; every quiet window is run out in virtual time.
@Suite struct FleetDeliveryTests {
    let directory: String
    let loop = VirtualLoop()
    let broker: InMemoryBroker

    init() throws {
        directory = testDirectory("fleet-delivery")
        let loop = loop
        broker = InMemoryBroker(now: { loop.now.sinceOrigin })
    }

    func workout(_ n: Int) -> StoredWorkout {
        StoredWorkout(
            id: "rest@\(n)000000000", kind: .rest, sets: n, durationMilliseconds: Int64(n) * 60_000, calories: 0,
            exercises: [], preset: nil, completedAt: Date(timeIntervalSince1970: 1_767_600_000 + Double(n) * 600),
            localDay: LocalDay(Date(timeIntervalSince1970: 1_767_600_000), in: TimeZone(identifier: "UTC")!))
    }

    /// A station on the loop (not yet driven: `drive` names who runs).
    func station(_ name: String, outbox: FleetOutbox?) -> FleetStation {
        let settings = FleetSettings(broker: .init(host: "gym.local", port: 1883, tls: false), station: name, homeAssistant: false)
        let loop = loop
        return FleetStation(
            settings: settings, password: nil, outbox: outbox, now: { loop.now }, transport: broker.factory, startLead: .zero,
            log: { print($0) })
    }

    func collector(
        database: String, clientID: String = "collector-test", log: @escaping (String) -> Void = { print($0) }
    ) throws -> FleetCollector {
        let loop = loop
        return try FleetCollector(
            options: .init(clientID: clientID, host: "gym.local", port: 1883, cleanSession: false),
            prefix: "gymtimer", database: database, transport: broker.factory, now: { loop.now }, log: log)
    }

    /// A client of the broker, connected, subscribed to `topics`.
    func client(_ id: String, _ topics: [String] = []) throws -> any MQTTTransport {
        let client = try broker.factory(.init(clientID: id, host: "gym.local", port: 1883))
        try client.connect()
        for topic in topics { try client.subscribe(topic, qos: 1) }
        _ = client.takeEvents()
        return client
    }

    /// Runs `stations` and `collector` (as their processes do) until `done`, for at most `bound` of virtual time.
    @discardableResult
    func drive(_ stations: [FleetStation], _ collector: FleetCollector?, upTo bound: Duration = .seconds(600), until done: () -> Bool) -> Bool {
        loop.drivers = stations + (collector.map { [$0] } ?? [])
        return loop.run(upTo: bound, until: done)
    }

    /// Runs `stations` and `collector` for `duration` of virtual time.
    func drive(_ stations: [FleetStation], _ collector: FleetCollector?, for duration: Duration) {
        loop.drivers = stations + (collector.map { [$0] } ?? [])
        loop.run(for: duration)
    }

    /// Drives `stations` until `watcher` (subscribed to their workout topic before they sent)
    /// has seen `count` records: the broker has taken them (and queued them for any absent
    /// persistent session).
    func untilTheBrokerHas(_ count: Int, from stations: [FleetStation], watcher: any MQTTTransport) -> Bool {
        var seen = 0
        return drive(stations, nil) {
            seen += watcher.takeEvents().filter { if case .message(let m) = $0 { m.topic.hasSuffix("/workout") } else { false } }.count
            return seen >= count
        }
    }

    /// A collector that subscribes (its persistent session at the broker) and goes away cleanly.
    func collectorThatWentAway(database: String) throws {
        let gym = try collector(database: database)
        #expect(drive([], gym) { gym.isSubscribed }, "the broker grants the collector's subscription")
        gym.stop()
    }

    /// The collector is away while the broker queues records for it and the broker is killed
    /// with its state lost (Mosquitto killed with SIGKILL under Debian's default persistence,
    /// saved every 30 min; the benchmark's drill kills a real one): what it queued is gone, but
    /// the station still holds every record the database does not, and sends them again.
    /// (Before, the broker's PUBACK emptied the outbox: 8 of 8 lost.)
    @Test func recordsQueuedForAnAbsentCollectorSurviveTheBrokerKilledWithSIGKILL() throws {
        let database = directory + "/gym.sqlite"
        try collectorThatWentAway(database: database)
        let watcher = try client("watcher", ["gymtimer/+/workout"])
        let outbox = try FleetOutbox(path: directory + "/outbox.sqlite")
        let rack1 = station("rack-1", outbox: outbox)
        for n in 1...8 { rack1.record(workout(n)) }
        #expect(untilTheBrokerHas(8, from: [rack1], watcher: watcher), "the broker took the 8 records")
        #expect(broker.waiting(for: "collector-test") == 8, "queued for the absent collector")
        #expect(try outbox.count() == 8, "the broker has them, no database does: they stay in the outbox")
        broker.goDown(forgetting: true)
        broker.comeUp()
        #expect(broker.waiting(for: "collector-test") == 0, "the killed broker lost its queue")
        let gym = try collector(database: database)
        #expect(drive([rack1], gym) { gym.stored == 8 && (try? outbox.count()) == 0 },
                "every record reaches the database and then leaves the outbox: \(gym.stored) stored")
        #expect(try gym.history!.workouts().map(\.sets) == Array(1...8))
    }

    /// A new gym: stations finish workouts before any collector ever subscribed (a new
    /// database, a new client id): the broker drops what it is sent, the stations do not.
    /// (Before, all were lost.)
    @Test func recordsFinishedBeforeAnyCollectorSubscribedAllArriveWhenOneConnectsForTheFirstTime() throws {
        let watcher = try client("watcher", ["gymtimer/+/workout"])
        let outbox1 = try FleetOutbox(path: directory + "/outbox-1.sqlite")
        let outbox2 = try FleetOutbox(path: directory + "/outbox-2.sqlite")
        let rack1 = station("rack-1", outbox: outbox1)
        let rack2 = station("rack-2", outbox: outbox2)
        for n in 1...3 { rack1.record(workout(n)) }
        for n in 4...5 { rack2.record(workout(n)) }
        #expect(untilTheBrokerHas(5, from: [rack1, rack2], watcher: watcher))
        // No collector: nothing acknowledges them, and a retry is due (not a wake-up per record).
        #expect(try outbox1.count() == 3 && outbox2.count() == 2)
        let gym = try collector(database: directory + "/new-gym.sqlite", clientID: "collector-first-time")
        #expect(drive([rack1, rack2], gym) { gym.stored == 5 && (try? outbox1.count()) == 0 && (try? outbox2.count()) == 0 },
                "the first collector gets every record the stations hold: \(gym.stored) stored")
        #expect(try gym.history!.workouts().map(\.station) == ["rack-1", "rack-1", "rack-1", "rack-2", "rack-2"])
    }

    /// More records than the broker queues for the absent collector (`max_queued_messages`
    /// 10, 30 records): the broker drops 20, the station sends them again once the collector
    /// announces itself. (Before, 20 of 30 were lost.)
    @Test func moreRecordsThanTheBrokerQueuesForTheCollectorAllArrive() throws {
        broker.maxQueued = 10
        let database = directory + "/gym.sqlite"
        try collectorThatWentAway(database: database)
        let watcher = try client("watcher", ["gymtimer/+/workout"])
        let outbox = try FleetOutbox(path: directory + "/outbox.sqlite")
        let rack1 = station("rack-1", outbox: outbox)
        for n in 1...30 { rack1.record(workout(n)) }
        #expect(untilTheBrokerHas(30, from: [rack1], watcher: watcher))
        #expect(broker.waiting(for: "collector-test") == 10 && broker.droppedQueued == 20, "the broker dropped 20")
        let gym = try collector(database: database)
        #expect(drive([rack1], gym) { gym.stored == 30 && (try? outbox.count()) == 0 },
                "all 30 arrive: \(gym.stored) stored")
        #expect(try gym.history!.workouts().count == 30)
    }

    @Test func theOutboxKeepsRecordsInOrderAcrossReopeningUntilRemoved() throws {
        let path = directory + "/outbox.sqlite"
        do {
            let outbox = try FleetOutbox(path: path)
            for n in 1...3 { try outbox.add(id: "rack-1/r\(n)", payload: "{\"n\":\(n)}") }
            try outbox.add(id: "rack-1/r2", payload: "{\"n\":99}")
        }
        let reopened = try FleetOutbox(path: path)
        #expect(try reopened.pending().map(\.id) == ["rack-1/r1", "rack-1/r2", "rack-1/r3"])
        #expect(try reopened.pending()[1].payload == "{\"n\":2}", "a repeat of an id keeps the first")
        try reopened.remove(id: "rack-1/r2")
        #expect(try FleetOutbox(path: path).pending().map(\.id) == ["rack-1/r1", "rack-1/r3"])
        #expect(FleetOutbox.path(besideHistory: "/var/lib/gymtimer/history.sqlite") == "/var/lib/gymtimer/outbox.sqlite")
    }

    /// Two processes creating one outbox at the same instant (the test that watched a station's
    /// outbox did) made one migration fail, and that station kept its records in memory.
    @Test func twoOpeningsRacingToCreateOneOutboxBothGetIt() throws {
        for n in 0..<20 {
            let path = "\(directory)/race-\(n).sqlite"
            let failures = Failures()
            DispatchQueue.concurrentPerform(iterations: 2) { _ in
                do { _ = try FleetOutbox(path: path) } catch { failures.add("\(error)") }
            }
            #expect(failures.all.isEmpty, "\(failures.all)")
            #expect(try FleetOutbox.count(readingOnly: path) == 0)
        }
        #expect(throws: FleetLinkError.self, "a missing outbox is not created by a look") {
            try FleetOutbox.count(readingOnly: "\(directory)/none.sqlite")
        }
        #expect(!FileManager.default.fileExists(atPath: "\(directory)/none.sqlite"))
    }

    @Test func recordsMadeWhileTheBrokerIsDownAllArriveOnceAfterItReturns() throws {
        let outbox = try FleetOutbox(path: directory + "/outbox.sqlite")
        let rack1 = station("rack-1", outbox: outbox)
        let rack2 = station("rack-2", outbox: nil)
        let gym = try collector(database: directory + "/gym.sqlite")
        #expect(drive([], gym) { gym.isSubscribed }, "the broker grants the collector's subscription")
        rack1.record(workout(1))
        #expect(drive([rack1, rack2], gym) { gym.stored == 1 && (try? outbox.count()) == 0 },
                "a record made while online arrives, and the collector's acknowledgement empties the outbox")
        // The broker goes down and comes back empty (the test's Mosquitto kept no session across a restart).
        broker.goDown(forgetting: true)
        for n in 2...4 { rack1.record(workout(n)) }
        rack2.record(workout(7))
        drive([rack1, rack2], gym, for: .seconds(30))
        #expect(try outbox.pending().count == 3, "unacknowledged records stay in the outbox")
        #expect(!gym.isSubscribed, "the collector sees the broker go")
        #expect(gym.stored == 1)
        broker.comeUp()
        // Let the collector subscribe again before the stations send, as a gym's broker would have it.
        #expect(drive([], gym) { gym.isSubscribed }, "the collector subscribes again on the restarted broker")
        #expect(drive([rack1, rack2], gym) { gym.stored == 5 && (try? outbox.pending().isEmpty) == true })
        // A retry may repeat a record: the collector keeps one.
        let repeatSender = try client("repeat")
        let again = FleetWorkoutMessage.encode(workout(3), station: "rack-1")
        let mid = try repeatSender.publish(MQTTMessage(topic: "gymtimer/rack-1/workout", text: again.payload, qos: 1))
        #expect(repeatSender.takeEvents().contains(.delivered(mid: mid)))
        let published = broker.published.count
        drive([rack1, rack2], gym, for: .seconds(60))
        #expect(broker.published.dropFirst(published).contains { $0.topic == "gymtimer/rack-1/ack" }, "the collector took the repeat")
        let stored = try gym.history!.workouts()
        #expect(stored.map(\.id).sorted() == ["rack-1/rest@1000000000", "rack-1/rest@2000000000", "rack-1/rest@3000000000",
                                              "rack-1/rest@4000000000", "rack-2/rest@7000000000"])
        #expect(stored.map(\.station) == ["rack-1", "rack-1", "rack-1", "rack-1", "rack-2"])
        #expect(gym.stored == 5, "the repeat is not stored again")
        #expect(try gym.history!.workouts(station: "rack-2").map(\.sets) == [7])
        #expect(try gym.history!.stats(station: "rack-1").workouts == 4)
        #expect(HistoryOutput.csv(try gym.history!.workouts(station: "rack-2")).hasSuffix(",rack-2\n"))
    }

    /// The collector acknowledges a record only once it is stored: one that arrives while its
    /// database cannot be written (`fault` starts the fault and returns what ends it; the log
    /// says `said`) is not acknowledged, and the broker sends it again once the collector
    /// reconnects; it is stored then, once. (Before, libmosquitto sent the PUBACK before the
    /// record reached the database, and the record was lost.)
    func aRecordTheCollectorCannotStoreArrivesOnceTheFaultIsGone(
        database: String, said: String, fault: () throws -> () throws -> Void
    ) throws {
        let lines = LogLines()
        let gym = try collector(database: database, log: lines.add)
        let sender = try client("rack-1")
        func send(_ n: Int) throws {
            let record = FleetWorkoutMessage.encode(workout(n), station: "rack-1")
            let mid = try sender.publish(MQTTMessage(topic: "gymtimer/rack-1/workout", text: record.payload, qos: 1))
            #expect(sender.takeEvents().contains(.delivered(mid: mid)))
        }
        // Until the collector has subscribed, the broker drops what is sent.
        #expect(drive([], gym) { gym.isSubscribed }, "the broker grants the collector's subscription")
        try send(1)
        #expect(drive([], gym) { gym.stored == 1 }, "the collector is subscribed and stores")
        let endFault = try fault()
        try send(2)
        #expect(drive([], gym) { lines.all.contains { $0.contains(said) } }, "the fault is logged: \(lines.all)")
        #expect(gym.stored == 1)
        #expect(broker.waiting(for: "collector-test") == 1, "not acknowledged: the broker keeps it")
        // The fault goes on for half a minute: each redelivery fails again, and is said no more.
        let deliveries = lines.all.count
        drive([], gym, for: .seconds(30))
        #expect(lines.all.filter { $0.contains(said) }.count == 1, "one line per fault: \(lines.all)")
        #expect(gym.stored == 1 && broker.waiting(for: "collector-test") == 1, "still not stored, still kept: \(lines.all.dropFirst(deliveries))")
        try endFault()
        #expect(drive([], gym) { gym.stored == 2 }, "the broker sends the unacknowledged record again: \(lines.all)")
        drive([], gym, for: .seconds(60))
        #expect(broker.waiting(for: "collector-test") == 0, "acknowledged once stored")
        #expect(try gym.history!.workouts().map(\.id) == ["rack-1/rest@1000000000", "rack-1/rest@2000000000"], "each once")
    }

    @Test func aRecordArrivingWhileTheCollectorsDatabaseIsLockedIsStoredOnceItIsFree() throws {
        let database = directory + "/gym.sqlite"
        try aRecordTheCollectorCannotStoreArrivesOnceTheFaultIsGone(database: database, said: "locked") {
            let locker = try DatabaseLocker(path: database)
            return { locker.release() }
        }
    }

    @Test(.enabled(if: MachineRequirement.root.runs, "needs root to mount a small tmpfs"), MachineRequirement.root)
    func aRecordArrivingWhileTheCollectorsDiskIsFullIsStoredOnceThereIsSpace() throws {
        let disk = directory + "/disk"
        try FileManager.default.createDirectory(atPath: disk, withIntermediateDirectories: true)
        let mounted = try ChildProcess(executable: "/bin/mount", arguments: ["-t", "tmpfs", "-o", "size=1m", "tmpfs", disk]).run()
        try #require(mounted.exitCode == 0, "mount a tmpfs: \(mounted.standardError)")
        defer { _ = try? ChildProcess(executable: "/bin/umount", arguments: [disk]).run() }
        try aRecordTheCollectorCannotStoreArrivesOnceTheFaultIsGone(database: disk + "/gym.sqlite", said: "full") {
            _ = try ChildProcess(executable: "/bin/dd", arguments: ["if=/dev/zero", "of=\(disk)/filler", "bs=4k"]).run()
            return { try FileManager.default.removeItem(atPath: disk + "/filler") }
        }
    }
}

/// Errors collected from concurrent work.
private final class Failures: @unchecked Sendable {
    private let lock = NSLock()
    private var errors: [String] = []
    func add(_ error: String) { lock.withLock { errors.append(error) } }
    var all: [String] { lock.withLock { errors } }
}
