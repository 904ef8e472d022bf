import Foundation
import GRDB
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

/// An athlete's card travels with their record: the station's outbox (across a restart), the
/// `P/workout` message, the collector, the gym's database's `athlete` column. An `athlete`
/// that is no card UID is refused as `bad-athlete`, never stored, the station told.
@Suite(.serialized) struct FleetAthleteTests {
    static let now = Date(timeIntervalSince1970: 1_767_700_000)
    static let card = CardID(hex: "04A1B2C3")!
    let directory: String
    let loop = VirtualLoop()
    let broker: InMemoryBroker

    init() throws {
        directory = testDirectory("fleet-athlete")
        let loop = loop
        broker = InMemoryBroker(now: { loop.now.sinceOrigin })
    }

    /// A record of `athlete` (nil: a guest's), as the kiosk's history hands it to the station.
    static func workout(_ n: Int, athlete: CardID?) -> StoredWorkout {
        let record = WorkoutRecord(
            kind: .interval, sets: n, duration: .seconds(60 * n), calories: 5 * n, endedAt: Moment(.seconds(1060 * n)), athlete: athlete)
        return StoredWorkout(
            record, completedAt: Date(timeIntervalSince1970: 1_767_600_000 + Double(n) * 600), timeZone: TimeZone(identifier: "UTC")!)
    }

    func station(outbox: FleetOutbox) -> FleetStation {
        let settings = FleetSettings(broker: .init(host: "gym.local", port: 1883, tls: false), station: "rack-1", homeAssistant: false)
        let loop = loop
        return FleetStation(
            settings: settings, password: nil, outbox: outbox, now: { loop.now }, transport: broker.factory, startLead: .zero,
            log: { print($0) })
    }

    func collector(log: @escaping (String) -> Void = { print($0) }) throws -> FleetCollector {
        let loop = loop
        return try FleetCollector(
            options: .init(clientID: "collector-athlete", host: "gym.local", port: 1883, cleanSession: false),
            prefix: "gymtimer", database: directory + "/gym.sqlite", transport: broker.factory, now: { loop.now },
            wall: .fixed(Self.now), log: log)
    }

    /// The `athlete` column of the gym's database, row by row, read as a file (not through the store).
    func athleteColumn() throws -> [DatabaseValue] {
        var configuration = Configuration()
        configuration.readonly = true
        let database = try DatabaseQueue(path: directory + "/gym.sqlite", configuration: configuration)
        return try database.read { db in
            try DatabaseValue.fetchAll(db, sql: "SELECT athlete FROM workouts ORDER BY completed_at, id")
        }
    }

    @Test func anAthletesRecordWaitsInTheOutboxAcrossARestartAndIsStoredWithTheirCard() throws {
        defer { try? FileManager.default.removeItem(atPath: directory) }
        let path = directory + "/outbox.sqlite"
        do {
            // No broker reached: the records wait in the outbox, then the station's process ends.
            let before = station(outbox: try FleetOutbox(path: path))
            before.record(Self.workout(1, athlete: Self.card))
            before.record(Self.workout(2, athlete: nil))
        }
        let outbox = try FleetOutbox(path: path)
        let waiting = try outbox.pending()
        #expect(waiting.map(\.id) == ["rack-1/interval@1000000000000", "rack-1/interval@2000000000000"])
        let fields = try JSONSerialization.jsonObject(with: Data(waiting[0].payload.utf8)) as? [String: Any]
        #expect(fields?["athlete"] as? String == "04A1B2C3")
        #expect(!waiting[1].payload.contains("athlete"), "a guest's record names no athlete")

        let gym = try collector()
        let restarted = station(outbox: outbox)
        loop.drivers = [restarted, gym]
        #expect(loop.run(upTo: .seconds(600)) { gym.stored == 2 && (try? outbox.count()) == 0 }, "\(gym.stored) stored")
        #expect(try athleteColumn() == ["04A1B2C3".databaseValue, .null])
        #expect(try gym.history!.workouts().map(\.athlete) == [Self.card, nil])
        #expect(try gym.history!.workouts(athlete: Self.card).map(\.id) == ["rack-1/interval@1000000000000"])
        #expect(try gym.history!.stats(.athlete([Self.card])).points == StationStats.pointsPerWorkout)
    }

    /// rack-1's record with its `athlete` set to `value` (removed with nil), as JSON.
    static func payload(_ n: Int, athlete value: Any?) -> [UInt8] {
        let text = FleetWorkoutMessage.encode(workout(n, athlete: card), station: "rack-1").payload
        var fields = (try? JSONSerialization.jsonObject(with: Data(text.utf8))) as? [String: Any] ?? [:]
        fields["athlete"] = value
        return Array((try? JSONSerialization.data(withJSONObject: fields)) ?? Data())
    }

    /// Athletes no card has: a name and what the payload says.
    static var hostile: [(String, Any)] {
        [
            ("a number", 4_268_929_731), ("300 characters", String(repeating: "A", count: 300)), ("not hex", "04G1B2C3"),
            ("odd length", "04A1B2C"), ("empty", ""), ("11 bytes", "0102030405060708090A0B"), ("an array", ["04A1B2C3"]),
            ("a boolean", true), ("an object", ["hex": "04A1B2C3"]),
        ]
    }

    @Test func anAthleteThatIsNoCardIsRefusedAsBadAthlete() {
        for (n, (name, value)) in Self.hostile.enumerated() {
            switch FleetWorkoutMessage.decode(Self.payload(n + 1, athlete: value), station: "rack-1", receivedAt: Self.now) {
            case .success(let workout): Issue.record("\(name): accepted as \(String(describing: workout.athlete))")
            case .failure(let refusal):
                #expect(refusal.kind == "bad-athlete", "\(name): \(refusal.kind)")
                #expect(refusal.detail.hasPrefix("athlete ") && refusal.detail.utf8.count < 100, "\(name): \(refusal.detail)")
                #expect(refusal.id == "rack-1/interval@\(n + 1)000000000000", "\(name): the station can be told which")
            }
        }
        // Either case, colons: a card; null or none: a guest's.
        let lower = FleetWorkoutMessage.decode(Self.payload(1, athlete: "04:a1:b2:c3"), station: "rack-1", receivedAt: Self.now)
        #expect((try? lower.get())?.athlete == Self.card)
        let null = FleetWorkoutMessage.decode(Self.payload(1, athlete: NSNull()), station: "rack-1", receivedAt: Self.now)
        #expect((try? null.get()).map { $0.athlete == nil } == true)
        let none = FleetWorkoutMessage.decode(Self.payload(1, athlete: nil), station: "rack-1", receivedAt: Self.now)
        #expect((try? none.get()).map { $0.athlete == nil } == true)
    }

    /// Through the broker: every hostile athlete is refused (one log line), none stored, the
    /// station told `bad-athlete` for each; the good ones beside them are stored.
    @Test func theCollectorStoresNoRecordWithABadAthlete() throws {
        defer { try? FileManager.default.removeItem(atPath: directory) }
        let lines = LogLines()
        let gym = try collector(log: lines.add)
        loop.drivers = [gym]
        #expect(loop.run(upTo: .seconds(60)) { gym.isSubscribed })
        let acks = try broker.factory(.init(clientID: "acks", host: "gym.local", port: 1883))
        try acks.connect()
        try acks.subscribe("gymtimer/rack-1/ack", qos: 1)
        let sender = try broker.factory(.init(clientID: "hostile", host: "gym.local", port: 1883))
        try sender.connect()
        var payloads = Self.hostile.enumerated().map { n, entry in Self.payload(n + 1, athlete: entry.1) }
        payloads += [Self.payload(50, athlete: "04a1b2c3"), Self.payload(51, athlete: nil)]
        for bytes in payloads { try sender.publish(MQTTMessage(topic: "gymtimer/rack-1/workout", payload: bytes, qos: 1)) }
        _ = sender.takeEvents()
        var heard: [FleetRecordAck] = []
        #expect(loop.run(upTo: .seconds(60)) {
            for case .message(let message) in acks.takeEvents() {
                if let ack = FleetRecordAck.parse(message.payload) { heard.append(ack) }
            }
            return heard.flatMap(\.refused).count + heard.flatMap(\.stored).count >= payloads.count
        }, "\(gym.stored) stored, \(gym.refused) refused")
        #expect(gym.refused == Self.hostile.count && gym.stored == 2)
        #expect(heard.flatMap(\.refused).map(\.kind) == Array(repeating: "bad-athlete", count: Self.hostile.count))
        #expect(Set(heard.flatMap(\.stored)) == ["rack-1/interval@50000000000000", "rack-1/interval@51000000000000"])
        #expect(try athleteColumn() == ["04A1B2C3".databaseValue, .null])
        #expect(lines.all.filter { $0.contains("bad-athlete") }.count == 1, "\(lines.all)")
    }
}
