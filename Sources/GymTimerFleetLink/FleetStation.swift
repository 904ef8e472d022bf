#if canImport(Glibc)
import Glibc
#endif
import Foundation
import GymTimerConfig
import GymTimerCore
import GymTimerDrivers
import GymTimerFleet
import GymTimerHistory
import GymTimerMQTT

/// The station's end of the fleet (fleet.md), hosted by the kiosk's one event loop: no thread
/// of its own. The loop polls `pollRequest` beside its input lines and calls `serve(revents:)`
/// when poll says so; as a `TimedDriver` it wakes the loop for the keep-alive, a reconnect's
/// back-off and a start scheduled with `at`. After each wake-up the loop hands it the kiosk
/// (`observe`), which becomes the retained `state` when it changed. Commands become kiosk
/// events through `deliver`; a refused one is one `error` event and changes nothing. Workout
/// records go through the durable outbox (`record`). The broker being away never stops the
/// kiosk: the station retries with back-off and loses no record.
public final class FleetStation: TimedDriver {
    public let settings: FleetSettings
    public let topics: FleetTopics
    /// Hands the kiosk an event (a command), as of a moment on its timeline.
    public var deliver: (ControlEvent, Moment) -> Void = { _, _ in }
    /// Told of each event the station publishes (its name and fields, as JSON values), and of
    /// `online` once connected, whether or not it could publish them (the terminal lists them).
    public var onEvent: (String, [String: String]) -> Void = { _, _ in }
    /// Seconds per knob detent in rest mode (the kiosk's `[rest] step_seconds`), for `set`.
    public let restStep: Int

    /// The broker connection's life cycle (nil when no client could be made: the kiosk runs alone).
    private let connection: FleetConnection?
    private var client: MQTTClient? { connection?.client }
    private var connected: Bool { connection?.isConnected == true }
    private let outbox: FleetOutbox?
    private let now: () -> Moment
    private let unixNow: () -> Double
    private let log: (String) -> Void
    /// Home Assistant's discovery (nil with `home_assistant = false`).
    private let discovery: HomeAssistantDiscovery?
    /// Whether the old per-component discovery topics were cleared (once per run).
    private var retiredCleared = false
    /// When discovery was last sent for Home Assistant's birth message (at most once a second).
    private var lastBirthReply: Moment?
    /// Outbox records published and not yet acknowledged, by message id.
    private var inflight: [Int32: String] = [:]
    /// Records waiting in memory when the outbox file cannot be written.
    private var unsaved: [FleetOutbox.Entry] = []
    private var scheduledStart: Moment?
    private var lastReport: FleetStateReport?
    /// The kiosk as last observed (what `select` navigates the menu of).
    private var lastKiosk: Kiosk?
    private var lastDisplay: String?
    /// Kinds of refused commands already logged (once per kind, not per message).
    private var loggedKinds: Set<String> = []

    /// How long before a scheduled start the loop wakes, to be at the instant awake.
    public static let startLead: Duration = .milliseconds(1)
    /// How far in the past a start's `at` may be and still be obeyed.
    public static let startSlack = 2.0

    /// `now` is the kiosk's timeline, `unixNow` the wall clock; `outbox` keeps records across
    /// restarts (nil: in memory only); `log` takes one line per problem.
    public init(
        settings: FleetSettings, password: String?, outbox: FleetOutbox?, restRange: ClosedRange<Int> = 1...3600,
        restStep: Int = 1, programs: [String] = [], now: @escaping () -> Moment, unixNow: @escaping () -> Double = { Date().timeIntervalSince1970 },
        log: @escaping (String) -> Void
    ) {
        self.settings = settings
        self.restStep = max(1, restStep)
        topics = FleetTopics(prefix: settings.topicPrefix, station: settings.station)
        self.outbox = outbox
        self.now = now
        self.unixNow = unixNow
        self.log = log
        discovery = settings.homeAssistant
            ? HomeAssistantDiscovery(
                topics: topics, restRange: restRange, restStep: restStep, modes: FleetCommand.modes.sorted(), programs: programs)
            : nil
        let options = MQTTClient.Options(
            clientID: "gymtimer-\(settings.station)", host: settings.broker.host, port: settings.broker.port,
            tls: settings.broker.tls, caFile: settings.caFile, username: settings.username, password: password,
            keepAlive: 30, cleanSession: true,
            will: MQTTMessage(topic: topics.status, text: "offline", qos: 1, retain: true))
        do {
            connection = FleetConnection(
                client: try MQTTClient(options), name: "fleet", broker: "\(settings.broker)",
                whileAway: "retrying with back-off; the kiosk runs alone meanwhile", now: now, log: log)
        } catch {
            log("fleet: \(error) (the kiosk runs alone)")
            connection = nil
        }
        resumeScheduledStart()
    }

    /// A start scheduled before a restart is kept: on time if its instant is still to come
    /// (or at most `startSlack` past), else dropped with one line.
    private func resumeScheduledStart() {
        guard let outbox, let at = try? outbox.scheduledStart() else { return }
        let late = unixNow() - at
        if late <= Self.startSlack {
            scheduledStart = now() + .nanoseconds(Int64((-late * 1e9).rounded()))
        } else {
            log("fleet: the start scheduled for \(String(format: "%.3f", at)) passed while the station was down; not started")
            remember(start: nil)
        }
    }

    /// Keeps the scheduled start in the outbox's file (nil: forgets it).
    private func remember(start at: Double?) {
        do {
            try outbox?.setScheduledStart(at)
        } catch {
            log("fleet: \(error)")
        }
    }

    // MARK: The loop's side

    /// The current moment on the kiosk's timeline (the one `nextDeadline` is on).
    public var moment: Moment { now() }

    /// The socket to poll and for what, or nil while there is none.
    public var pollRequest: pollfd? { connection?.pollRequest }

    /// Poll said the socket is ready (`revents`): reads and writes what is due.
    public func serve(revents: Int16) {
        guard let connection else { return }
        handle(connection.serve(revents: revents))
    }

    public var nextDeadline: Moment? {
        var candidates: [Moment?] = [scheduledStart.map { $0 - Self.startLead }]
        candidates.append(connection?.nextDeadline)
        return candidates.compactMap { $0 }.min()
    }

    public func fire(at now: Moment) {
        if let start = scheduledStart, start - Self.startLead <= now {
            scheduledStart = nil
            // Woken `startLead` early (a process woken from sleep on a busy machine is late by
            // milliseconds, and a class start is worth being exact): wait out the rest awake.
            while self.now() < start { sched_yield() }
            defer { remember(start: nil) }
            deliver(.pressed(.start), start)
            deliver(.released(.start), start)
            event("started", ["at": String(format: "%.3f", unix(start))])
        }
        guard let connection else { return }
        handle(connection.fire(at: now))
    }

    /// The kiosk after a wake-up, and what its display shows: its state is published
    /// (retained) when it changed.
    public func observe(_ kiosk: Kiosk, display shown: DisplayContent?) {
        lastKiosk = kiosk
        let report = FleetStateReport(kiosk)
        let display = shown?.text ?? "    "
        guard report != lastReport else { return }
        let before = lastReport
        lastReport = report
        lastDisplay = display
        publishState()
        // A change of phase (a rest started, the alarm, back to idle) is also an event.
        if let before, before.mode != report.mode || before.phase != report.phase {
            event("phase", ["mode": FleetStateReport.quoted(report.mode), "phase": FleetStateReport.quoted(report.phase)])
        }
    }

    /// A finished workout: into the outbox, then to the broker when it is there.
    public func record(_ workout: StoredWorkout) {
        let (id, payload) = FleetWorkoutMessage.encode(workout, station: settings.station)
        do {
            try outbox?.add(id: id, payload: payload)
            if outbox == nil { unsaved.append(.init(id: id, payload: payload)) }
        } catch {
            log("fleet: \(error)")
            unsaved.append(.init(id: id, payload: payload))
        }
        if connected { sendOutbox() }
        event("completed", ["kind": FleetStateReport.quoted(workout.kind.rawValue), "sets": String(workout.sets)])
    }

    /// Says goodbye (retained `offline`, then DISCONNECT), for a clean stop.
    public func stop() {
        guard let client, connected else { return }
        _ = try? client.publish(MQTTMessage(topic: topics.status, text: "offline", qos: 1, retain: true))
        for _ in 0..<3 where client.wantsWrite { _ = client.writable() }
        connection?.disconnect()
    }

    // MARK: Connection

    /// How long a connection may take before it counts as lost.
    public static let connectTimeout: Duration = FleetConnection.connectTimeout

    /// What the client said, through the connection's life cycle.
    private func handle(_ events: [FleetConnection.Event]) {
        for event in events {
            switch event {
            case .connected:
                // Records in flight on the lost connection are sent again.
                inflight.removeAll()
                online()
            case .message(let message) where message.topic == discovery?.birthTopic:
                homeAssistantStarted(message)
            case .message(let message):
                command(message)
            case .subscribed:
                break
            case .delivered(let mid):
                guard let id = inflight.removeValue(forKey: mid) else { continue }
                do {
                    try outbox?.remove(id: id)
                } catch {
                    log("fleet: \(error)")
                }
                unsaved.removeAll { $0.id == id }
            }
        }
    }

    /// Just connected: subscribe, say online, describe ourselves, publish the state and the outbox.
    private func online() {
        guard let client else { return }
        do {
            for topic in topics.commandTopics { try client.subscribe(topic, qos: 1) }
            // Discovery first, so whoever sees `online` finds the entities already retained.
            if let discovery {
                try client.subscribe(discovery.birthTopic, qos: 1)
                if !retiredCleared {
                    for message in discovery.retired { try publishRetained(message) }
                    retiredCleared = true
                }
                try publishRetained(discovery.device)
            }
            try client.publish(MQTTMessage(topic: topics.status, text: "online", qos: 1, retain: true))
        } catch {
            connection?.lose("\(error)")
            return
        }
        publishState()
        sendOutbox()
        onEvent("online", [:])
    }

    private func publishRetained(_ message: HomeAssistantDiscovery.Message) throws(MQTTError) {
        _ = try client?.publish(MQTTMessage(topic: message.topic, text: message.payload, qos: 1, retain: true))
    }

    /// Home Assistant's birth message: it (re)started and may have lost the discovery (a broker
    /// without persistence), so it is sent again — at most once a second, whatever arrives.
    private func homeAssistantStarted(_ message: MQTTMessage) {
        guard let discovery, message.text == "online" else { return }
        let at = now()
        if let last = lastBirthReply, at - last < .seconds(1) { return }
        lastBirthReply = at
        do {
            try publishRetained(discovery.device)
        } catch {
            connection?.lose("\(error)")
        }
    }

    private func publishState() {
        guard connected, let client, let report = lastReport else { return }
        let payload = report.json(display: lastDisplay ?? "    ", at: unixNow(), unix: unix)
        _ = try? client.publish(MQTTMessage(topic: topics.state, text: payload, qos: 1, retain: true))
    }

    /// Publishes every outbox record not in flight (QoS 1; acknowledged ones leave the outbox).
    private func sendOutbox() {
        guard connected, let client else { return }
        var entries: [FleetOutbox.Entry] = []
        do {
            entries = try outbox?.pending() ?? []
        } catch {
            log("fleet: \(error)")
        }
        for entry in unsaved where !entries.contains(where: { $0.id == entry.id }) { entries.append(entry) }
        let sending = Set(inflight.values)
        for entry in entries where !sending.contains(entry.id) {
            do {
                let mid = try client.publish(MQTTMessage(topic: topics.workout, text: entry.payload, qos: 1))
                inflight[mid] = entry.id
            } catch {
                return
            }
        }
    }

    // MARK: Commands

    private func command(_ message: MQTTMessage) {
        // Only the station's own topics are subscribed; anything else is not a command for it.
        guard topics.commandTopics.contains(message.topic) else { return }
        switch FleetCommand.parse(message.payload) {
        case .failure(let error): refuse(error)
        case .success(let command): obey(command)
        }
    }

    private func obey(_ command: FleetCommand) {
        let at = now()
        switch command {
        case .start(nil):
            deliver(.pressed(.start), at)
            deliver(.released(.start), at)
            event("command", ["do": "\"start\""])
        case .start(let unixTime?):
            let late = unixNow() - unixTime
            guard late <= Self.startSlack else { return refuse(.startInThePast(by: late)) }
            guard lastReport?.phase == "idle" else {
                return refuse(.notAllowed(command: "start", reason: "the station is busy (\(lastReport?.phase ?? "starting"))"))
            }
            scheduledStart = at + .nanoseconds(Int64((-late * 1e9).rounded()))
            remember(start: unixTime)
            event("scheduled", ["at": String(format: "%.3f", unixTime)])
        case .dismiss:
            deliver(.pressed(.dismiss), at)
            deliver(.released(.dismiss), at)
            event("command", ["do": "\"dismiss\""])
        case .setRest(let seconds):
            guard let report = lastReport, report.mode == "rest", report.phase == "idle", let current = report.restSeconds else {
                return refuse(.notAllowed(command: "set", reason: "only while the rest timer is idle"))
            }
            let detents = (seconds - current) / restStep
            if detents != 0 { deliver(.turned(detents), at) }
            event("command", ["do": "\"set\""])
        case .select(let mode, let name):
            guard let kiosk = lastKiosk, kiosk.isIdle else {
                return refuse(.notAllowed(command: "select", reason: "only while the station is idle"))
            }
            switch Self.menuSteps(to: mode, name: name, from: kiosk) {
            case .failure(let error): refuse(error)
            case .success(let detents):
                // As a person picks it: a press of start held opens the menu (undoing the
                // press), the knob goes to the entry, a press of start picks it.
                for event: ControlEvent in [.pressed(.start), .held(.start), .released(.start)] { deliver(event, at) }
                if detents != 0 { deliver(.turned(detents), at) }
                deliver(.pressed(.start), at)
                deliver(.released(.start), at)
                event("command", ["do": "\"select\"", "mode": FleetStateReport.quoted(mode)])
            }
        }
    }

    /// How many detents the mode menu, opened from idle `kiosk` as a person would open it,
    /// must turn to show `mode` (and the preset or program `name`). Without a name, a workout
    /// or program already chosen stays; otherwise the first preset or program.
    static func menuSteps(to mode: String, name: String?, from kiosk: Kiosk) -> Result<Int, FleetCommandError> {
        guard let menu = kiosk.menu(at: .origin) else {
            return .failure(.notAllowed(command: "select", reason: "only while the station is idle"))
        }
        let settings = kiosk.settings
        let target: ModeMenu.Entry
        switch (mode, name) {
        case ("rest", nil): target = .rest
        case ("interval", nil): target = .interval
        case ("rest", _?), ("interval", _?): return .failure(.unexpected(field: "name", command: "select \(mode)"))
        case ("workout", nil):
            if case .workout = menu.selection { return .success(0) }
            target = .workout(preset: 0)
        case ("workout", let name?):
            guard let found = settings.workout.presets.firstIndex(where: { $0.name == name }) else {
                return .failure(.notAllowed(command: "select", reason: "no workout preset named \"\(name)\""))
            }
            target = .workout(preset: found)
        case (_, nil):
            if case .program = menu.selection { return .success(0) }
            target = .program(0)
        case (_, let name?):
            let programs = Kiosk.freshProgram(settings).programs
            guard let found = programs.firstIndex(where: { $0.name == name }) else {
                return .failure(.notAllowed(command: "select", reason: "no program named \"\(name)\""))
            }
            target = .program(found)
        }
        guard let index = menu.entries.firstIndex(of: target) else {
            return .failure(.notAllowed(command: "select", reason: "the menu has no such entry"))
        }
        return .success(index - menu.selected)
    }

    private func refuse(_ error: FleetCommandError) {
        if loggedKinds.insert(error.kind).inserted {
            log("fleet: refused a command (\(error.kind)): \(error) (further ones of this kind are not logged)")
        }
        event("error", ["kind": FleetStateReport.quoted(error.kind), "reason": FleetStateReport.quoted(error.description)])
    }

    /// Publishes `{"t": …, "event": name, …fields}` (fields are JSON values already).
    private func event(_ name: String, _ fields: [String: String] = [:]) {
        onEvent(name, fields)
        guard connected, let client else { return }
        var text = "{\"t\":\(String(format: "%.3f", unixNow())),\"event\":\(FleetStateReport.quoted(name))"
        for key in fields.keys.sorted() { text += ",\(FleetStateReport.quoted(key)):\(fields[key]!)" }
        _ = try? client.publish(MQTTMessage(topic: topics.event, text: text + "}", qos: 0))
    }

    private func unix(_ moment: Moment) -> Double {
        unixNow() + Double((moment - now()).nanoseconds) / 1e9
    }
}
