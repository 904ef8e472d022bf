import Foundation
import Glibc
import GymTimerBenchSupport
import GymTimerCore
import GymTimerCollector
import GymTimerFleetCommands
import GymTimerFleetLink
import GymTimerStationLink
import GymTimerUpgrade
import GymTimerMQTT
import Testing

/// The connection life cycle the station and the collector share, in virtual time: the
/// deadlines come from a timeline the test moves, the sockets are real (a closed port refuses,
/// a listening socket that never answers is a silent broker, a real Mosquitto accepts).
@Suite(.serialized) struct FleetConnectionTests {
    /// The virtual timeline the connection reads.
    final class Timeline {
        var now = Moment.origin
    }

    func connection(port: Int, keepAlive: Int = 10, timeline: Timeline, lines: LogLines) throws -> FleetConnection {
        let client = try MQTTClient(.init(clientID: "connection-test", host: "127.0.0.1", port: port, keepAlive: keepAlive))
        return FleetConnection(
            client: client, name: "test", broker: client.options.broker, whileAway: "retrying with back-off",
            now: { timeline.now }, log: lines.add)
    }

    /// Serves the connection's socket (real time; no virtual time passes) until `done` holds
    /// for the events so far, or `timeout` seconds.
    @discardableResult
    func settle(
        _ connection: FleetConnection, timeout: Double = 5, until done: ([FleetConnection.Event]) -> Bool
    ) -> [FleetConnection.Event] {
        var events: [FleetConnection.Event] = []
        let end = Date().addingTimeInterval(timeout)
        while !done(events), Date() < end {
            var fds = connection.pollRequest.map { [$0] } ?? []
            guard !fds.isEmpty else { break }
            _ = poll(&fds, 1, 20)
            if fds[0].revents != 0 { events += connection.serve(revents: fds[0].revents) }
        }
        return events
    }

    func seconds(_ moment: Moment) -> Double { Double(moment.nanoseconds) / 1e9 }

    @Test func aRefusingBrokerIsRetriedWithDoublingWaitsAndSaidOncePerOutage() throws {
        let (port, reservation) = try LocalBroker.reservedPort()
        let timeline = Timeline()
        let lines = LogLines()
        let connection = try connection(port: port, timeline: timeline, lines: lines)
        #expect(connection.nextDeadline == .origin, "the first attempt is due at once")
        var attempts: [Double] = []
        for _ in 0..<7 {
            timeline.now = connection.nextDeadline
            attempts.append(seconds(timeline.now))
            _ = connection.fire(at: timeline.now)
            settle(connection) { _ in !connection.isConnecting }
            #expect(!connection.isConnected)
        }
        // Waits of 1, 2, 4, 8, 16, 30 s after each refusal.
        #expect(attempts == [0, 1, 3, 7, 15, 31, 61])
        #expect(seconds(connection.nextDeadline) == 91)
        #expect(lines.all.count == 1, "one line for the whole outage: \(lines.all)")
        #expect(lines.all.first?.hasPrefix("test: broker mqtt://127.0.0.1:\(port) unreachable: ") == true)
        #expect(lines.all.first?.hasSuffix("(retrying with back-off)") == true)
        // The broker comes: the next attempt connects, and the end of the outage is said.
        close(reservation)
        let broker = try LocalBroker(port: port)
        timeline.now = connection.nextDeadline
        _ = connection.fire(at: timeline.now)
        let events = settle(connection) { _ in connection.isConnected }
        #expect(events == [.connected])
        #expect(lines.all.count == 2 && lines.all.last == "test: connected to mqtt://127.0.0.1:\(port)")
        // Keep-alive every keepAlive / 2 s from the connection.
        #expect(seconds(connection.nextDeadline) == 91 + 5)
        timeline.now = connection.nextDeadline
        _ = connection.fire(at: timeline.now)
        #expect(seconds(connection.nextDeadline) == 91 + 10)
        // A new outage starts again at 1 s, and is said.
        broker.kill()
        settle(connection) { _ in !connection.isConnected }
        #expect(seconds(connection.nextDeadline) == 96 + 1)
        #expect(lines.all.count == 3 && lines.all.last?.contains("unreachable") == true)
    }

    @Test func aBrokerThatNeverAnswersTimesOutAfterTenSecondsAndIsRetriedWithBackOff() throws {
        // A silent broker: a listening socket; the kernel completes the TCP handshake, nobody reads.
        let (port, fd) = try LocalBroker.reservedPort()
        defer { close(fd) }
        try #require(listen(fd, 4) == 0)
        let timeline = Timeline()
        let lines = LogLines()
        let connection = try connection(port: port, timeline: timeline, lines: lines)
        _ = connection.fire(at: .origin)
        #expect(connection.isConnecting)
        // The CONNECT goes out; no CONNACK ever comes.
        settle(connection) { _ in connection.pollRequest.map { $0.events & Int16(POLLOUT) == 0 } ?? true }
        var looks: [Double] = []
        while connection.isConnecting {
            timeline.now = connection.nextDeadline
            looks.append(seconds(timeline.now))
            _ = connection.fire(at: timeline.now)
        }
        #expect(looks == (1...10).map(Double.init), "looked after every second, given up at 10 s")
        #expect(connection.pollRequest == nil, "the socket is closed")
        #expect(lines.all.count == 1 && lines.all[0].contains("unreachable: no answer in 10"), "\(lines.all)")
        #expect(seconds(connection.nextDeadline) == 11)
        // The next attempt times out too: 2 s later, and not said again.
        timeline.now = connection.nextDeadline
        _ = connection.fire(at: timeline.now)
        #expect(connection.isConnecting)
        timeline.now = timeline.now + .seconds(10)
        _ = connection.fire(at: timeline.now)
        #expect(!connection.isConnecting)
        #expect(seconds(connection.nextDeadline) == 21 + 2)
        #expect(lines.all.count == 1)
    }

    @Test func deferredAcknowledgementsWaitForTheApplicationAndADropMakesTheBrokerResend() throws {
        let broker = try LocalBroker()
        let timeline = Timeline()
        let lines = LogLines()
        let client = try MQTTClient(.init(clientID: "durable", host: "127.0.0.1", port: broker.port, cleanSession: false, deferWrites: true))
        let connection = FleetConnection(client: client, name: "test", broker: client.options.broker, whileAway: "",
                                         now: { timeline.now }, log: lines.add)
        _ = connection.fire(at: .origin)
        #expect(settle(connection) { _ in connection.isConnected } == [.connected])
        let subscription = try client.subscribe("t/#", qos: 1)
        connection.acknowledge()
        // Granted before the sender publishes (what a broker takes with no subscriber it drops).
        #expect(settle(connection) { $0.contains(.subscribed(mid: subscription)) } == [.subscribed(mid: subscription)])
        let sender = try MQTTClient(.init(clientID: "sender", host: "127.0.0.1", port: broker.port))
        try sender.connect()
        _ = pump([sender]) { $0[0]?.contains(.connected) == true }
        let mid = try sender.publish(MQTTMessage(topic: "t/1", text: "one", qos: 1))
        _ = pump([sender]) { $0[0]?.contains(.delivered(mid: mid)) == true }
        func texts(_ events: [FleetConnection.Event]) -> [String] {
            events.compactMap { if case .message(let m) = $0 { m.text } else { nil } }
        }
        var got = settle(connection) { !texts($0).isEmpty }
        #expect(got == [.message(MQTTMessage(topic: "t/1", text: "one", qos: 1))])
        #expect(connection.pollRequest?.events == Int16(POLLIN), "the PUBACK waits: no writing while not handled")
        connection.drop("cannot store it")
        #expect(connection.pollRequest == nil, "the socket is closed")
        #expect(lines.all == ["test: cannot store it (not acknowledged: the broker sends it again; reconnecting with back-off)"])
        #expect(seconds(connection.nextDeadline) == 1)
        timeline.now = connection.nextDeadline
        _ = connection.fire(at: timeline.now)
        got = settle(connection) { !texts($0).isEmpty }
        #expect(got.first == .connected)
        #expect(texts(got) == ["one"], "sent again: \(got)")
        connection.acknowledge()
        #expect(lines.all.last == "test: messages are handled again")
        // Acknowledged: a new connection brings nothing back. The broker sends what a persistent
        // session holds as it connects, before anything published later: a marker published once
        // connected comes after anything sent again, so the marker alone means nothing was.
        connection.lose("test over")
        timeline.now = connection.nextDeadline
        _ = connection.fire(at: timeline.now)
        got = settle(connection) { $0.contains(.connected) }
        let marker = try sender.publish(MQTTMessage(topic: "t/marker", text: "marker", qos: 1))
        _ = pump([sender]) { $0[0]?.contains(.delivered(mid: marker)) == true }
        got += settle(connection) { texts($0).contains("marker") }
        #expect(got == [.connected, .message(MQTTMessage(topic: "t/marker", text: "marker", qos: 1))], "nothing sent again: \(got)")
    }
}
