import Foundation
import GymTimerFleet
import GymTimerMQTT

/// The coach's side of the broker (`gymtimer fleet status`, `gymtimer fleet start`): a short
/// session that reads the stations' retained topics or sends one synchronised start, then
/// disconnects. A tool run by hand, not the kiosk: it waits in poll for at most a few seconds.
public struct FleetConsole {
    /// One station as its retained topics describe it ("-" where they say nothing).
    public struct Station: Hashable, Sendable {
        public var name: String
        /// `online`, `offline` (its will), or `?` when only its state is retained.
        public var status: String
        public var mode: String
        public var phase: String
        /// What its display showed when its state last changed, quoted, or "-" (the state is
        /// published on change, not every second, so a countdown's digits are those of its start).
        public var display: String
        /// What is left of its countdown now, from its state's `deadline` (running) or
        /// `remaining` (paused), as `m:ss`; "-" without one or while the station is offline.
        public var left: String
    }

    public let options: MQTTClient.Options
    public let prefix: String

    public init(options: MQTTClient.Options, prefix: String) {
        self.options = options
        self.prefix = prefix
    }

    /// Every station seen on the broker within `wait` seconds, by name.
    /// `now` is the Unix time the countdowns' `left` is worked out for.
    public func stations(wait: Double, now: () -> Double = { Date().timeIntervalSince1970 }) throws(FleetLinkError) -> [Station] {
        let client = try connected()
        defer { client.disconnect() }
        let every = FleetTopics.everyStation(prefix: prefix)
        do {
            try client.subscribe(every.status, qos: 1)
            try client.subscribe(every.state, qos: 1)
        } catch {
            throw .broker(broker: options.broker, detail: "\(error)")
        }
        var status: [String: String] = [:]
        var state: [String: JSONValue] = [:]
        for event in client.pump(for: wait, until: { _ in false }) {
            guard case .message(let message) = event,
                  let station = FleetTopics.station(in: message.topic, prefix: prefix) else { continue }
            if message.topic.hasSuffix("/status") { status[station] = message.text }
            if message.topic.hasSuffix("/state") { state[station] = JSONValue.parse(message.payload) }
        }
        return Set(status.keys).union(state.keys).sorted().map { name in
            var fields: [String: JSONValue] = [:]
            if case .object(let object)? = state[name] { fields = object }
            let online = status[name] == "online"
            let left = fields["deadline"]?.number.map { $0 - now() } ?? fields["remaining"]?.number
            return Station(
                name: name, status: status[name] ?? "?", mode: fields["mode"]?.string ?? "-",
                phase: fields["phase"]?.string ?? "-", display: fields["display"]?.string.map { "\"\($0)\"" } ?? "-",
                left: online ? left.map(Self.minutesAndSeconds) ?? "-" : "-")
        }
    }

    /// `seconds` (rounded up, as the display counts) as `m:ss`, or `h:mm:ss` from an hour; 0:00 when past.
    static func minutesAndSeconds(_ seconds: Double) -> String {
        let whole = Int(max(0, seconds).rounded(.up))
        let (hours, minutes, rest) = (whole / 3600, whole / 60 % 60, whole % 60)
        return hours > 0
            ? String(format: "%d:%02d:%02d", hours, minutes, rest)
            : String(format: "%d:%02d", minutes, rest)
    }

    /// Sends `{"do": "start", "at": at}` (Unix seconds) to `stations`, or to every station on
    /// the `all` topic when the list is empty, and waits up to 5 s for the broker to take each.
    public func start(stations: [String], at: Double) throws(FleetLinkError) {
        let client = try connected()
        defer { client.disconnect() }
        let payload = "{\"do\":\"start\",\"at\":\(String(format: "%.3f", at))}"
        let topics = stations.isEmpty
            ? [FleetTopics(prefix: prefix, station: "all").fleetCommand]
            : stations.map { FleetTopics(prefix: prefix, station: $0).command }
        var waiting: Set<Int32> = []
        for topic in topics {
            do {
                waiting.insert(try client.publish(MQTTMessage(topic: topic, text: payload, qos: 1)))
            } catch {
                throw .broker(broker: options.broker, detail: "\(error)")
            }
        }
        let events = client.pump(for: 5) { events in
            waiting.subtracting(events.compactMap { if case .delivered(let mid) = $0 { mid } else { nil } }).isEmpty
        }
        let delivered = Set(events.compactMap { if case .delivered(let mid) = $0 { mid } else { nil } })
        guard waiting.isSubset(of: delivered) else {
            throw .broker(broker: options.broker, detail: "the broker did not take the start within 5 s")
        }
    }

    /// A client connected to the broker, or why not.
    private func connected() throws(FleetLinkError) -> MQTTClient {
        let client: MQTTClient
        do {
            client = try MQTTClient(options)
            try client.connect()
        } catch {
            throw .broker(broker: options.broker, detail: "\(error)")
        }
        let events = client.pump(for: 5) {
            $0.contains(.connected) || $0.contains { if case .refused = $0 { true } else { false } }
        }
        guard events.contains(.connected) else {
            let reason = events.compactMap {
                if case .refused(let r) = $0 { r } else if case .disconnected(let r) = $0 { r } else { nil }
            }.first
            throw .broker(broker: options.broker, detail: reason ?? "no answer in 5 s")
        }
        return client
    }
}
