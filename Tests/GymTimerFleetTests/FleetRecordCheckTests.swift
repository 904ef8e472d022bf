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

/// Records from the network are checked before the gym's database takes them, as the kiosk
/// checks what it reads back: hostile numbers, times and texts are refused (one log line per
/// kind), and the station is told so it stops sending them.
@Suite(.serialized) struct FleetRecordCheckTests {
    static let now = Date(timeIntervalSince1970: 1_767_700_000)

    /// A good record from rack-1 as JSON fields, changed by `change`.
    static func payload(_ n: Int = 1, _ change: (inout [String: Any]) -> Void = { _ in }) -> [UInt8] {
        let workout = StoredWorkout(
            id: "rest@\(n)", kind: .rest, sets: 3, durationMilliseconds: 180_000, calories: 0, exercises: [], preset: nil,
            completedAt: Date(timeIntervalSince1970: 1_767_600_000), localDay: LocalDay(year: 2026, month: 1, day: 5))
        let text = FleetWorkoutMessage.encode(workout, station: "rack-1").payload
        var fields = (try? JSONSerialization.jsonObject(with: Data(text.utf8))) as? [String: Any] ?? [:]
        change(&fields)
        return Array((try? JSONSerialization.data(withJSONObject: fields)) ?? Data())
    }

    static let hostile: [(String, [UInt8], String)] = [
        ("sets Int64.max", payload { $0["sets"] = Int64.max }, "bad-sets"),
        ("sets 1e300", Array(#"{"id":"rest@1","kind":"rest","sets":1e300,"duration_ms":1,"calories":0,"exercises":[],"completed_at":"2026-01-05T08:00:00Z","local_day":"2026-01-05"}"#.utf8), "malformed"),
        ("year 9999", payload { $0["completed_at"] = "9999-01-05T08:00:00.000Z"; $0["local_day"] = "9999-01-05" }, "bad-time"),
        ("1970", payload { $0["completed_at"] = "1970-01-01T00:00:00.000Z"; $0["local_day"] = "1970-01-01" }, "bad-time"),
        ("a day far from its time", payload { $0["local_day"] = "2026-03-05" }, "bad-time"),
        ("negative duration", payload { $0["duration_ms"] = -60_000 }, "bad-duration"),
        ("duration over a week", payload { $0["duration_ms"] = Int64.max }, "bad-duration"),
        ("negative calories", payload { $0["calories"] = -1 }, "bad-calories"),
        ("terminal escapes", payload { $0["preset"] = "\u{1b}[2J\u{1b}]0;owned\u{7}" }, "bad-text"),
        ("a 10 kB name", payload { $0["preset"] = String(repeating: "A", count: 10_000) }, "bad-text"),
        ("a million exercises", payload { $0["exercises"] = Array(repeating: "x", count: 20_000) }, "bad-text"),
        ("an unknown kind", payload { $0["kind"] = "sleep" }, "malformed"),
        ("not JSON", Array("{\"id\":".utf8), "malformed"),
        ("over 256 KiB", Array(repeating: UInt8(ascii: " "), count: 300_000), "too-large"),
    ]

    @Test func hostileRecordsAreRefusedByKindAndGoodOnesPass() {
        for (name, bytes, kind) in Self.hostile {
            switch FleetWorkoutMessage.decode(bytes, station: "rack-1", receivedAt: Self.now) {
            case .success(let workout): Issue.record("\(name): stored as \(workout)")
            case .failure(let refusal): #expect(refusal.kind == kind, "\(name): \(refusal.kind): \(refusal.detail)")
            }
        }
        let good = FleetWorkoutMessage.decode(Self.payload(), station: "rack-1", receivedAt: Self.now)
        #expect((try? good.get())?.id == "rack-1/rest@1")
        #expect((try? good.get())?.station == "rack-1")
        // A record filed under another station's name is this topic's station's.
        let other = FleetWorkoutMessage.decode(Self.payload { $0["id"] = "rack-2/rest@1"; $0["station"] = "rack-2" }, station: "rack-1", receivedAt: Self.now)
        #expect((try? other.get())?.id == "rack-1/rack-2/rest@1")
        #expect((try? other.get())?.station == "rack-1")
        // Refused with an id: the station can be told which.
        if case .failure(let refusal) = FleetWorkoutMessage.decode(Self.hostile[0].1, station: "rack-1", receivedAt: Self.now) {
            #expect(refusal.id == "rack-1/rest@1")
        }
    }

    /// A collector on an in-memory broker in virtual time, its database in a new directory,
    /// subscribed: its loop, the broker, the collector, its log lines and the directory.
    func subscribedCollector() throws -> (VirtualLoop, InMemoryBroker, FleetCollector, LogLines, String) {
        let directory = testDirectory("fleet-check")
        let loop = VirtualLoop()
        let broker = InMemoryBroker(now: { loop.now.sinceOrigin })
        let lines = LogLines()
        let gym = try FleetCollector(
            options: .init(clientID: "collector-check", host: "gym.local", port: 1883, cleanSession: false),
            prefix: "gymtimer", database: directory + "/gym.sqlite", transport: broker.factory, now: { loop.now },
            wall: .fixed(Self.now), log: lines.add)
        loop.drivers = [gym]
        #expect(loop.run(upTo: .seconds(60)) { gym.isSubscribed })
        return (loop, broker, gym, lines, directory)
    }

    /// Through the broker (the in-memory one, in virtual time): 5000 bad records (and each
    /// hostile kind once) give one log line per kind, none is stored, the good one is, and the
    /// station hears which were refused. (Before, every one was stored or logged: 5001 lines.)
    @Test func theCollectorRefusesHostileRecordsWithOneLogLinePerKind() throws {
        let (loop, broker, gym, lines, directory) = try subscribedCollector()
        defer { try? FileManager.default.removeItem(atPath: directory) }
        let acks = try broker.factory(.init(clientID: "acks", host: "gym.local", port: 1883))
        try acks.connect()
        try acks.subscribe("gymtimer/rack-1/ack", qos: 1)
        let sender = try broker.factory(.init(clientID: "hostile", host: "gym.local", port: 1883))
        try sender.connect()
        var heard: [FleetRecordAck] = []
        func listen() {
            for case .message(let message) in acks.takeEvents() {
                if let ack = FleetRecordAck.parse(message.payload) { heard.append(ack) }
            }
        }
        var sent = 0
        // In chunks the collector takes before the next, as on a real broker (a raw sender has
        // no outbox: what a broker drops from a full queue would be lost, and this test counts refusals).
        func send(_ chunk: [[UInt8]]) throws {
            for bytes in chunk { try sender.publish(MQTTMessage(topic: "gymtimer/rack-1/workout", payload: bytes, qos: 1)) }
            sent += chunk.count
            _ = sender.takeEvents()
            #expect(loop.run(upTo: .seconds(60)) {
                listen()
                return gym.refused + gym.stored >= sent
            }, "\(gym.refused) refused, \(gym.stored) stored of \(sent)")
        }
        for start in stride(from: 1, through: 5000, by: 250) {
            try send((start..<start + 250).map { n in Self.payload(n + 1) { $0["sets"] = Int64.max } })
        }
        try send(Self.hostile.map(\.1))
        try send([Self.payload(1)])
        #expect(gym.refused == 5000 + Self.hostile.count && gym.stored == 1)
        #expect(try gym.history!.workouts().map(\.id) == ["rack-1/rest@1"])
        let refusals = lines.all.filter { $0.contains("refused a record") }
        #expect(refusals.count == Set(Self.hostile.map(\.2)).count, "one line per kind: \(refusals)")
        // The station is told: the 5000 and the hostile ones with an id, as refused; the good one as stored.
        #expect(loop.run(upTo: .seconds(60)) {
            listen()
            return !heard.flatMap(\.stored).isEmpty
        })
        #expect(heard.flatMap(\.refused).filter { $0.kind == "bad-sets" }.count >= 5000)
        #expect(heard.flatMap(\.stored) == ["rack-1/rest@1"])
        #expect(heard.allSatisfy { $0.ids.count <= FleetRecordAck.maximumIDs })
    }

    /// Anyone on the gym's broker can publish on `gymtimer/<name>/workout`: a record under a
    /// name no station may have is refused (logged once), and never stored or listed.
    @Test func theCollectorStoresNoRecordUnderANameNoStationMayHave() throws {
        let (loop, broker, gym, lines, directory) = try subscribedCollector()
        defer { try? FileManager.default.removeItem(atPath: directory) }
        let sender = try broker.factory(.init(clientID: "hostile", host: "gym.local", port: 1883))
        try sender.connect()
        let names = ["<svg onload=alert(8)>", "Rack-1", "rack_1", String(repeating: "a", count: 33), "all"]
        for name in names {
            // As the station of that name would send it (its id and station are the topic's).
            let payload = Self.payload {
                $0["id"] = "\(name)/rest@1"
                $0["station"] = name
            }
            try sender.publish(MQTTMessage(topic: "gymtimer/\(name)/workout", payload: payload, qos: 1))
        }
        try sender.publish(MQTTMessage(topic: "gymtimer/rack-1/workout", payload: Self.payload(), qos: 1))
        _ = sender.takeEvents()
        #expect(loop.run(upTo: .seconds(60)) { gym.stored + gym.refused >= names.count + 1 })
        #expect(gym.stored == 1 && gym.refused == names.count, "\(gym.stored) stored, \(gym.refused) refused")
        #expect(try gym.history!.workouts().map(\.station) == ["rack-1"])
        #expect(lines.all.filter { $0.contains("station name is not valid") }.count == 1, "\(lines.all)")
    }
}
