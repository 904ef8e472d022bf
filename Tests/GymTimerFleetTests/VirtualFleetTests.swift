import Foundation
import GymTimerConfig
import GymTimerCore
import GymTimerCollector
import GymTimerFleetCommands
import GymTimerFleetLink
import GymTimerStationLink
import GymTimerUpgrade
import GymTimerMQTT
import GymTimerSimulation
import GymTimerSimulator
import Testing
import GymTimerTestSupport

/// The fleet in virtual time, with no broker process and no socket: a station hosted by its
/// kiosk's loop, the collector and a coach, all clients of one `InMemoryBroker`, the clock
/// moved only by the loop's one blocking point. A gym's minutes take microseconds, and every
/// instant is exact.
@Suite struct VirtualFleetTests {
    static let configuration = """
        [fleet]
        broker = "mqtt://gym.local:1883"
        station = "rack-1"
        home_assistant = false
        """

    func rest(_ station: VirtualStation) -> RestMode? {
        if case .rest(let rest) = station.runtime.kiosk.mode { rest } else { nil }
    }

    @Test func aStartCommandAndTheFinishedRestReachTheCollectorInVirtualTime() throws {
        let directory = testDirectory("virtual-fleet")
        defer { try? FileManager.default.removeItem(atPath: directory) }
        let clock = VirtualClock()
        let broker = InMemoryBroker(now: { clock.now.offset })
        let lines = LogLines()
        let collector = try FleetCollector(
            options: .init(clientID: "gym-collector", host: "gym.local", port: 1883, cleanSession: false), prefix: "gymtimer",
            database: directory + "/gym.sqlite", transport: broker.factory, now: { Moment(clock.now.offset) }, log: lines.add)
        let station = VirtualStation(
            configuration: try GymTimerConfiguration.parse(Self.configuration), clock: clock, broker: broker,
            extraDrivers: [collector], log: lines.add)
        let coach = try broker.factory(.init(clientID: "coach", host: "gym.local", port: 1883, keepAlive: 0))
        try coach.connect()

        try station.run(until: .seconds(1))
        #expect(broker.connectedClients == ["coach", "gym-collector", "gymtimer-rack-1"])
        #expect(collector.isSubscribed)
        #expect(broker.retained["gymtimer/rack-1/status"]?.text == "online")
        try coach.publish(MQTTMessage(topic: "gymtimer/rack-1/cmd", text: #"{"do":"start"}"#, qos: 1))
        try station.run(until: .seconds(2))
        // The rest started on the instant the command arrived: 90 s from t = 1 s.
        guard case .resting(let countdown, _) = rest(station)?.phase else {
            Issue.record("not resting: \(station.runtime.kiosk.mode)")
            return
        }
        #expect(countdown.deadline == Moment(.seconds(91)))
        #expect(station.runtime.shownDisplay == .time(seconds: 89))
        let state = broker.retained["gymtimer/rack-1/state"]?.text ?? ""
        #expect(state.contains(#""phase":"resting""#), "\(state)")

        try station.run(until: .seconds(92))
        guard case .alarm(let since) = rest(station)?.phase else {
            Issue.record("no alarm: \(station.runtime.kiosk.mode)")
            return
        }
        #expect(since == Moment(.seconds(91)))
        // The coach dismisses the alarm; a hand holds dismiss to end the workout: it is recorded.
        try coach.publish(MQTTMessage(topic: "gymtimer/rack-1/cmd", text: #"{"do":"dismiss"}"#, qos: 1))
        station.inputs.schedule([InputGestures.hold("dismiss", at: .seconds(95), for: .seconds(3))])
        try station.run(until: .seconds(100))

        #expect(station.history.records.map(\.sets) == [1])
        let stored = try collector.history!.workouts()
        #expect(stored.map(\.station) == ["rack-1"])
        #expect(stored.map(\.sets) == [1])
        // Dated on the station's (virtual) wall clock: when dismiss had been held 2 s.
        #expect(stored.allSatisfy { abs($0.completedAt.timeIntervalSince1970 - station.epoch - 97.01) < 0.01 }, "\(stored.map(\.completedAt))")
        #expect(collector.stored == 1)
        #expect(broker.waiting(for: "gym-collector") == 0, "the collector acknowledged it once stored")
        #expect(clock.now.offset == .seconds(100))
        #expect(!lines.all.contains { $0.contains("unreachable") }, "\(lines.all)")
    }

    @Test func twoStationsGivenOneStartAtBeginOnTheSameInstant() throws {
        let clock = VirtualClock()
        let broker = InMemoryBroker(now: { clock.now.offset })
        let stations = try ["rack-1", "rack-2"].map { name in
            VirtualStation(
                configuration: try GymTimerConfiguration.parse(Self.configuration.replacingOccurrences(of: "rack-1", with: name)),
                clock: clock, broker: broker, log: { print($0) })
        }
        let coach = try broker.factory(.init(clientID: "coach", host: "gym.local", port: 1883, keepAlive: 0))
        try coach.connect()
        try VirtualStation.run(stations, until: .seconds(1))
        // The class starts at 10 s: both stations hear it at 1 s, and wait.
        let at = stations[0].epoch + 10
        try coach.publish(MQTTMessage(topic: "gymtimer/all/cmd", text: #"{"do":"start","at":\#(at)}"#, qos: 1))
        try VirtualStation.run(stations, until: .milliseconds(9_999))
        #expect(stations.allSatisfy { rest($0)?.phase == .idle }, "not started early")
        try VirtualStation.run(stations, until: .seconds(11))
        let deadlines = stations.compactMap { station -> Moment? in
            if case .resting(let countdown, _) = rest(station)?.phase { countdown.deadline } else { nil }
        }
        #expect(deadlines.count == 2)
        #expect(deadlines.first == deadlines.last, "one instant for both")
        // On `at` to the Double's precision at Unix times (under a microsecond).
        #expect(deadlines.allSatisfy { abs(($0 - Moment(.seconds(100))).nanoseconds) < 1_000 }, "\(deadlines)")
    }

    /// The timeline a bare connection reads.
    final class Timeline {
        var now = Moment.origin
    }

    func seconds(_ moment: Moment) -> Double { Double(moment.nanoseconds) / 1e9 }

    @Test func theConnectionKeepsAliveBacksOffWhileTheBrokerIsDownAndComesBack() throws {
        let timeline = Timeline()
        let broker = InMemoryBroker(now: { timeline.now.sinceOrigin })
        let lines = LogLines()
        let client = try broker.factory(.init(clientID: "rack-1", host: "twin", port: 1883, keepAlive: 10))
        let connection = FleetConnection(
            client: client, name: "test", broker: client.options.broker, whileAway: "retrying with back-off",
            now: { timeline.now }, log: lines.add)
        #expect(connection.pollRequest == nil, "nothing to poll: the twin has no socket")
        /// Moves to the connection's next deadline and fires it.
        func step() -> [FleetConnection.Event] {
            timeline.now = connection.nextDeadline
            return connection.fire(at: timeline.now)
        }
        #expect(step() == [] && connection.isConnecting)
        #expect(connection.nextDeadline == .origin, "the CONNACK is ready at once")
        #expect(step() == [.connected])
        // Keep-alive every 5 s for five minutes: the broker never gives up on it.
        var looks: [Double] = []
        while timeline.now < Moment(.seconds(300)) {
            _ = step()
            looks.append(seconds(timeline.now))
        }
        #expect(looks == Array(stride(from: 5.0, through: 300, by: 5)))
        #expect(broker.connectedClients == ["rack-1"])

        // The broker goes down at 302 s: attempts 1, 2, 4, 8 s apart are refused, one log line.
        timeline.now = Moment(.seconds(302))
        broker.goDown()
        #expect(connection.nextDeadline == timeline.now)
        #expect(step() == [] && !connection.isConnected)
        var attempts: [Double] = []
        for _ in 0..<3 {
            _ = step()
            attempts.append(seconds(timeline.now))
        }
        #expect(attempts == [303, 305, 309])
        #expect(seconds(connection.nextDeadline) == 317)
        broker.comeUp()
        _ = step()
        #expect(step() == [.connected])
        #expect(seconds(timeline.now) == 317)
        #expect(lines.all == [
            "test: broker mqtt://twin:1883 unreachable: connection lost (retrying with back-off)",
            "test: connected to mqtt://twin:1883",
        ])
    }

    @Test func aTwinThatNeverAnswersTimesOutAfterTenSeconds() throws {
        let timeline = Timeline()
        let broker = InMemoryBroker(now: { timeline.now.sinceOrigin })
        broker.answers = false
        let lines = LogLines()
        let client = try broker.factory(.init(clientID: "rack-1", host: "twin", port: 1883))
        let connection = FleetConnection(
            client: client, name: "test", broker: client.options.broker, whileAway: "retrying with back-off",
            now: { timeline.now }, log: lines.add)
        _ = connection.fire(at: .origin)
        var looks: [Double] = []
        while connection.isConnecting {
            timeline.now = connection.nextDeadline
            looks.append(seconds(timeline.now))
            _ = connection.fire(at: timeline.now)
        }
        #expect(looks == (1...10).map(Double.init))
        #expect(lines.all.count == 1 && lines.all[0].contains("unreachable: no answer in 10"), "\(lines.all)")
        #expect(seconds(connection.nextDeadline) == 11)
    }
}
