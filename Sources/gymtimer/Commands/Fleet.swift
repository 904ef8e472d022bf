import ArgumentParser
import Foundation
import GymTimerFleet
import GymTimerMQTT

/// `gymtimer fleet`: the gym's view of its stations and one synchronised start (fleet.md).
struct Fleet: ParsableCommand {
    static let configuration = CommandConfiguration(
        abstract: "See every station of the gym, or start them all at one instant.",
        subcommands: [FleetStatus.self, FleetStart.self])
}

/// `gymtimer fleet status`: every station seen, online or not, from the retained topics.
struct FleetStatus: ParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "status", abstract: "Every station seen on the broker: online or not, its mode and what it shows.")

    @OptionGroup var broker: FleetBrokerOptions

    @Option(name: .long, help: "Seconds to wait for the retained messages.")
    var wait = 1.0

    func run() throws {
        let client = try connected(broker, clientID: "gymtimer-fleet-\(getpid())")
        let every = FleetTopics.everyStation(prefix: broker.topicPrefix)
        try client.subscribe(every.status, qos: 1)
        try client.subscribe(every.state, qos: 1)
        var status: [String: String] = [:]
        var state: [String: JSONValue] = [:]
        for event in pumpEvents(client, seconds: wait, until: { _ in false }) {
            guard case .message(let message) = event,
                  let station = FleetTopics.station(in: message.topic, prefix: broker.topicPrefix) else { continue }
            if message.topic.hasSuffix("/status") { status[station] = message.text }
            if message.topic.hasSuffix("/state") { state[station] = JSONValue.parse(message.payload) }
        }
        client.disconnect()
        let stations = Set(status.keys).union(state.keys).sorted()
        guard !stations.isEmpty else {
            print("No stations seen on \(broker.broker) (prefix \(broker.topicPrefix)).")
            return
        }
        var rows = [["Station", "Status", "Mode", "Phase", "Display"]]
        for station in stations {
            var fields: [String: JSONValue] = [:]
            if case .object(let object)? = state[station] { fields = object }
            let mode: String = fields["mode"]?.string ?? "-"
            let phase: String = fields["phase"]?.string ?? "-"
            var display = "-"
            if let shown = fields["display"]?.string { display = "\"" + shown + "\"" }
            let row: [String] = [station, status[station] ?? "?", mode, phase, display]
            rows.append(row)
        }
        let widths = rows[0].indices.map { column in rows.map { $0[column].count }.max() ?? 0 }
        for row in rows {
            print(row.indices.map { row[$0].padding(toLength: widths[$0], withPad: " ", startingAt: 0) }
                .joined(separator: "  ").trimmingCharacters(in: .whitespaces))
        }
    }
}

/// `gymtimer fleet start`: one synchronised start, `at` = now + `--in` seconds.
struct FleetStart: ParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "start", abstract: "Start stations at one instant: {\"do\": \"start\", \"at\": now + --in}.")

    @OptionGroup var broker: FleetBrokerOptions

    @Option(name: .long, help: "Only these stations (comma-separated); default: all.")
    var stations: String?

    @Flag(name: .long, help: "Every station (the default).")
    var all = false

    @Option(name: .customLong("in"), help: "Seconds from now to the start.")
    var delay = 10.0

    func run() throws {
        guard delay >= 0, delay <= 3600 else { throw CLIError.usage("--in must be between 0 and 3600 seconds") }
        let names = stations.map { $0.split(separator: ",").map { String($0).trimmingCharacters(in: .whitespaces) } } ?? []
        if stations != nil && all { throw CLIError.usage("give --stations or --all, not both") }
        let client = try connected(broker, clientID: "gymtimer-fleet-\(getpid())")
        let at = Date().timeIntervalSince1970 + delay
        let payload = "{\"do\":\"start\",\"at\":\(String(format: "%.3f", at))}"
        let topics = names.isEmpty
            ? [FleetTopics(prefix: broker.topicPrefix, station: "all").fleetCommand]
            : names.map { FleetTopics(prefix: broker.topicPrefix, station: $0).command }
        var waiting: Set<Int32> = []
        for topic in topics {
            do {
                waiting.insert(try client.publish(MQTTMessage(topic: topic, text: payload, qos: 1)))
            } catch {
                throw CLIError.failed("\(error)")
            }
        }
        _ = pumpEvents(client, seconds: 5) { events in
            waiting.subtracting(events.compactMap { if case .delivered(let mid) = $0 { mid } else { nil } }).isEmpty
        }
        client.disconnect()
        print("start at \(String(format: "%.3f", at)) (\(names.isEmpty ? "all stations" : names.joined(separator: ", ")))")
    }
}

/// A client connected to the broker, or a one-line error.
private func connected(_ broker: FleetBrokerOptions, clientID: String) throws -> MQTTClient {
    let client: MQTTClient
    do {
        client = try MQTTClient(try broker.options(clientID: clientID))
        try client.connect()
    } catch let error as MQTTError {
        throw CLIError.failed("\(error)")
    }
    let events = pumpEvents(client, seconds: 5) { $0.contains(.connected) || $0.contains { if case .refused = $0 { true } else { false } } }
    guard events.contains(.connected) else {
        let reason = events.compactMap { if case .refused(let r) = $0 { r } else if case .disconnected(let r) = $0 { r } else { nil } }.first
        throw CLIError.failed("cannot connect to \(broker.broker): \(reason ?? "no answer in 5 s")")
    }
    return client
}

/// Runs the client's loop for up to `seconds`, or until `done` holds for the events so far.
private func pumpEvents(_ client: MQTTClient, seconds: Double, until done: ([MQTTEvent]) -> Bool) -> [MQTTEvent] {
    var events: [MQTTEvent] = []
    let end = Date().addingTimeInterval(seconds)
    while !done(events), Date() < end {
        var fds = [pollfd(fd: client.socket, events: Int16(POLLIN) | (client.wantsWrite ? Int16(POLLOUT) : 0), revents: 0)]
        _ = poll(&fds, 1, 20)
        events += client.takeEvents()
        if fds[0].revents & Int16(POLLIN | POLLERR | POLLHUP) != 0 { events += client.readable() }
        if fds[0].revents & Int16(POLLOUT) != 0 || client.wantsWrite { events += client.writable() }
        events += client.maintain()
    }
    return events
}
