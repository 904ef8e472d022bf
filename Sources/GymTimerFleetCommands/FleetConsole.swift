import Foundation
import GymTimerConfig
import GymTimerCore
import GymTimerFleet
import GymTimerFleetLink
import GymTimerMQTT
import GymTimerSystem

/// The coach's side of the broker (`gymtimer fleet status`, `fleet start` and the other
/// commands): a short session that reads the stations' retained topics or sends one command, then
/// disconnects. A tool run by hand, not the kiosk: it waits in poll for at most a few seconds.
public struct FleetConsole {
    /// One station as its retained topics describe it ("-" where they say nothing).
    public struct Station: Hashable, Sendable {
        public var name: String
        /// `online`, `offline` (its will), or `?` when only its state is retained.
        public var status: String
        public var mode: String
        public var phase: String
        /// What its display shows: a running countdown's digits worked out now from its
        /// `deadline` (`01:21`), else what it showed when its state last changed, quoted; "-".
        public var display: String
        /// What is left of its countdown now, from its state's `deadline` (running) or
        /// `remaining` (paused), as `m:ss`; "-" without one or while the station is offline.
        public var left: String
        /// Its sleep window (`22:00–06:00`) from its state's `sleep`; "-" without one, "?" when
        /// the state holds something that is not a window.
        public var sleep: String = "-"
        /// Whether its display is dark now (`yes`/`no`) from its state's `asleep`; "-" without a
        /// window or while the station is offline (what it last said may no longer hold), "?"
        /// when the state says neither.
        public var asleep: String = "-"
        /// Its retained health (`P/S/health`), nil when it published none.
        public var health: StationHealth?
    }

    public let options: MQTTClient.Options
    public let prefix: String
    /// The wall clock commands are sent and countdowns read by.
    public let wall: WallClock

    public init(options: MQTTClient.Options, prefix: String, wall: WallClock = .system) {
        self.options = options
        self.prefix = prefix
        self.wall = wall
    }

    /// Every station seen on the broker within `wait` seconds, by name, the countdowns'
    /// `left` worked out for now on `wall`. Whatever the retained topics hold is shown
    /// sanitised and bounded (`FleetCell`); a topic whose station level is not a station name
    /// (no config could give it) is skipped.
    public func stations(wait: Double) throws(FleetLinkError) -> [Station] {
        let client = try connected()
        defer { client.disconnect() }
        let every = FleetTopics.everyStation(prefix: prefix)
        do {
            try client.subscribe(every.status, qos: 1)
            try client.subscribe(every.state, qos: 1)
            try client.subscribe(FleetTopics.everyStationHealth(prefix: prefix), qos: 1)
        } catch {
            throw .broker(broker: options.broker, detail: Self.reason(error))
        }
        var status: [String: String] = [:]
        var state: [String: JSONValue] = [:]
        var health: [String: StationHealth] = [:]
        for event in client.pump(for: wait, until: { _ in false }) {
            guard case .message(let message) = event,
                  let station = FleetTopics.validStation(in: message.topic, prefix: prefix) else { continue }
            if message.topic.hasSuffix("/status") { status[station] = message.text }
            if message.topic.hasSuffix("/state") { state[station] = JSONValue.parse(message.payload) }
            if message.topic.hasSuffix("/health") { health[station] = StationHealth.parse(message.payload) }
        }
        return Set(status.keys).union(state.keys).sorted().map { name in
            var row = Self.station(name, status: status[name], state: state[name], now: wall.now)
            row.health = health[name]
            return row
        }
    }

    /// One row of `fleet status` from what the broker retained for station `name`.
    public static func station(_ name: String, status: String?, state: JSONValue?, now: Double) -> Station {
        var fields: [String: JSONValue] = [:]
        if case .object(let object)? = state { fields = object }
        let online = status == "online"
        let left = fields["deadline"]?.number.map { $0 - now } ?? fields["remaining"]?.number
        let running = online && fields["deadline"]?.number != nil
        // A running countdown's digits are worked out now (the state is published on change,
        // so its `display` shows the digits of the phase's start); otherwise what was shown.
        let display = running
            ? left.flatMap(Self.displayedTime) ?? "-"
            : fields["display"]?.string.map { FleetCell.quoted($0, width: 8) } ?? "-"
        return Station(
            name: name, status: status.map { FleetCell.text($0, width: 8) } ?? "?",
            mode: fields["mode"]?.string.map { FleetCell.text($0, width: 12) } ?? "-",
            phase: fields["phase"]?.string.map { FleetCell.text($0, width: 16) } ?? "-", display: display,
            left: online ? left.map(Self.minutesAndSeconds) ?? "-" : "-",
            sleep: fields["sleep"].map { SleepWindow.text(ofState: $0) ?? "?" } ?? "-",
            asleep: online && fields["sleep"] != nil ? Self.yesOrNo(fields["asleep"]) : "-")
    }

    /// A JSON boolean as `yes`/`no`; anything else as `?`.
    static func yesOrNo(_ value: JSONValue?) -> String {
        switch value {
        case .bool(true)?: "yes"
        case .bool(false)?: "no"
        default: "?"
        }
    }

    /// The longest countdown shown as a time; anything longer (or not a number) is not a
    /// countdown any station runs, and is shown as `?`.
    static let longestCountdown = 24.0 * 3600

    /// `seconds` (rounded up, as the display counts) as `m:ss`, or `h:mm:ss` from an hour; 0:00
    /// when past; `?` when it is no time a station counts (beyond a day, infinite, NaN).
    static func minutesAndSeconds(_ seconds: Double) -> String {
        guard seconds.isFinite, seconds <= longestCountdown else { return "?" }
        let whole = Int(max(0, seconds).rounded(.up))
        let (hours, minutes, rest) = (whole / 3600, whole / 60 % 60, whole % 60)
        return hours > 0
            ? String(format: "%d:%02d:%02d", hours, minutes, rest)
            : String(format: "%d:%02d", minutes, rest)
    }

    /// What a 4-digit display counting `seconds` down shows now (`01:21`), or nil for no time.
    static func displayedTime(_ seconds: Double) -> String? {
        guard seconds.isFinite, seconds <= longestCountdown else { return nil }
        return DisplayContent.time(seconds: Int(max(0, seconds).rounded(.up))).description
    }

    /// What became of a coach's command: what was sent, the stations seen online and offline
    /// among those it was for (every station seen, for `.all`), and each online station's answer.
    public struct Delivery: Hashable, Sendable {
        public var command: FleetCommand
        public var online: [String]
        public var offline: [String]
        /// Done or refused (and why) per station, and who did not answer in time.
        public var answers: FleetAnswers
    }

    /// How long a command's sender waits for every station's answer (it stops as soon as all
    /// have answered: on one machine that is milliseconds; `gymtimer bench` measures it).
    public static let answerWait = 5.0

    /// Publishes `command` (made once the stations are checked: a start's `at` counts from
    /// then) to `target` with a fresh id, never retained, and waits up to `answerWait` seconds
    /// for each online station's answer under that id (fleet.md, "Commands are answered").
    /// Named stations must have been seen on the broker (their retained `status`, looked for
    /// up to `wait` seconds): a name nobody ever used is an error, not a command into the void.
    /// Named stations that are offline are reported, as are those that refused or did not answer.
    public func send(
        to target: FleetTarget, wait: Double = 1, answerWait: Double = FleetConsole.answerWait, command: () -> FleetCommand
    ) throws(FleetLinkError) -> Delivery {
        let client = try connected()
        defer { client.disconnect() }
        let seen = try statuses(client, wanted: target, wait: wait)
        let names: [String]
        switch target {
        case .all: names = seen.keys.sorted()
        case .stations(let wanted):
            let unknown = wanted.filter { seen[$0] == nil }
            guard unknown.isEmpty else { throw .unknownStations(unknown, seen: seen.keys.sorted()) }
            names = wanted
        }
        let online = names.filter { seen[$0] == "online" }
        let offline = names.filter { seen[$0] != "online" }
        // The answers come on the stations' event topics: subscribed before the command goes,
        // so the broker (which takes one client's packets in order) routes every answer here.
        // The classes' retained instants too: a pause or resume of a class is kept in them.
        do {
            try client.subscribe("\(prefix)/+/event", qos: 1)
            try client.subscribe("\(prefix)/+/class", qos: 1)
        } catch {
            throw .broker(broker: options.broker, detail: Self.reason(error))
        }
        let sentAt = wall.now
        let request = FleetRequest(command(), id: FleetRequest.newID())
        var answers = FleetAnswers(id: request.id ?? "", asked: online, offline: offline)
        let classes = try publish(request, to: target, on: client, answers: &answers, wait: answerWait)
        let changed = Self.classChanges(
            request.command, id: request.id ?? "", at: sentAt, stations: names, acted: answers.done + offline, records: classes)
        retain(changed, on: client)
        return Delivery(command: request.command, online: online, offline: offline, answers: answers)
    }

    /// Publishes `request` on `target`'s topics and takes the stations' answers into `answers`
    /// for up to `wait` seconds (at least 5, for the broker to take it): the classes' retained
    /// records seen meanwhile are returned.
    private func publish(
        _ request: FleetRequest, to target: FleetTarget, on client: MQTTClient, answers: inout FleetAnswers, wait: Double
    ) throws(FleetLinkError) -> [String: FleetClassRecord] {
        var waiting: Set<Int32> = []
        for topic in target.topics(prefix: prefix) {
            do {
                waiting.insert(try client.publish(MQTTMessage(topic: topic, text: request.json, qos: 1, retain: false)))
            } catch {
                throw .broker(broker: options.broker, detail: Self.reason(error))
            }
        }
        var taken = false
        var classes: [String: FleetClassRecord] = [:]
        var answered = answers
        let prefix = prefix
        let events = client.pump(for: max(5, wait)) { events in
            for case .message(let message) in events {
                guard let station = FleetTopics.validStation(in: message.topic, prefix: prefix) else { continue }
                if message.topic.hasSuffix("/class") {
                    if message.retain, case .success(let record?) = FleetClassRecord.parse(message.payload) { classes[station] = record }
                } else if !message.retain {
                    answered.take(event: message.payload, from: station)
                }
            }
            taken = taken || waiting.subtracting(events.compactMap { if case .delivered(let mid) = $0 { mid } else { nil } }).isEmpty
            return taken && answered.isComplete
        }
        answers = answered
        let delivered = Set(events.compactMap { if case .delivered(let mid) = $0 { mid } else { nil } })
        guard waiting.isSubset(of: delivered) else {
            throw .broker(broker: options.broker, detail: "the broker did not take the command within 5 s")
        }
        return classes
    }

    /// Retains each station's changed class record (nil: cleared), and waits up to 5 s for the
    /// broker to take them before the client goes (a retained message it never took is lost).
    private func retain(_ changed: [String: FleetClassRecord?], on client: MQTTClient) {
        var kept: Set<Int32> = []
        for (station, record) in changed.sorted(by: { $0.key < $1.key }) {
            let message = MQTTMessage(
                topic: FleetTopics(prefix: prefix, station: station).classRecord, text: record?.json ?? "", qos: 1, retain: true)
            if let mid = try? client.publish(message) { kept.insert(mid) }
        }
        if !kept.isEmpty {
            _ = client.pump(for: 5) { events in
                kept.subtract(events.compactMap { if case .delivered(let mid) = $0 { mid } else { nil } })
                return kept.isEmpty
            }
        }
    }

    /// What a command sent at `at` does to the classes' retained instants (`FleetClassRecord`),
    /// as the console keeps them: a class start with a program begins one on the stations that
    /// scheduled it; a pause or resume is kept in the class of each station that did it or was
    /// offline (it follows when it is back); a call-off or a reset clears them. Nil: clear.
    static func classChanges(
        _ command: FleetCommand, id: String, at: Double, stations: [String], acted: [String], records: [String: FleetClassRecord]
    ) -> [String: FleetClassRecord?] {
        var changed: [String: FleetClassRecord?] = [:]
        switch command {
        case .classStart(let start, _):
            for station in acted { changed[station] = FleetClassRecord(id: id, workBegins: start) }
        case .pause, .resume:
            for station in acted {
                guard var record = records[station] else { continue }
                if command == .pause ? record.pause(at: at) : record.resume(at: at) { changed[station] = record }
            }
        case .cancel, .reset:
            for station in stations where records[station] != nil { changed[station] = .some(nil) }
        default: break
        }
        return changed
    }

    /// The retained `status` of every station seen within `wait` seconds (less once every
    /// station `target` names has been seen).
    private func statuses(_ client: MQTTClient, wanted target: FleetTarget, wait: Double) throws(FleetLinkError) -> [String: String] {
        do {
            try client.subscribe(FleetTopics.everyStation(prefix: prefix).status, qos: 1)
        } catch {
            throw .broker(broker: options.broker, detail: Self.reason(error))
        }
        var seen: [String: String] = [:]
        _ = client.pump(for: wait) { events in
            for case .message(let message) in events {
                guard let station = FleetTopics.validStation(in: message.topic, prefix: prefix) else { continue }
                seen[station] = message.text
            }
            guard case .stations(let names) = target else { return false }
            return names.allSatisfy { seen[$0] != nil }
        }
        return seen
    }

    /// A client connected to the broker, or why not.
    private func connected() throws(FleetLinkError) -> MQTTClient {
        let client: MQTTClient
        do {
            client = try MQTTClient(options)
            try client.connect()
        } catch {
            throw .broker(broker: options.broker, detail: Self.reason(error))
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

    /// What went wrong, without naming the broker again (the error names it once).
    static func reason(_ error: any Error) -> String {
        if case .client(let operation, _, let detail)? = error as? MQTTError { return "\(operation) failed: \(detail)" }
        return "\(error)"
    }
}
