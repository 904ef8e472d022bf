#if canImport(Glibc)
import Glibc
#endif
import Foundation
import GymTimerConfig
import GymTimerCore
import GymTimerFleet
import GymTimerFleetLink
import GymTimerHistory
import GymTimerMQTT
import GymTimerSystem
import GymTimerUpgrade

/// The station's end of the fleet (fleet.md), hosted by the kiosk's one event loop: no thread
/// of its own. The loop polls `pollRequest` beside its input lines and calls `serve(revents:)`
/// when poll says so; as a `TimedDriver` it wakes the loop for the keep-alive, a reconnect's
/// back-off and a start scheduled with `at`. After each wake-up the loop hands it the kiosk
/// (`observe`), which becomes the retained `state` when it changed. Commands become kiosk
/// events through `deliver`; a refused one is one `error` event and changes nothing. Workout
/// records go through the durable outbox until the gym's collector acknowledges them
/// (`record`, `FleetRecordSender`). The broker being away never stops the kiosk: the station
/// retries with back-off and loses no record.
public final class FleetStation: TimedDriver {
    public let settings: FleetSettings
    public let topics: FleetTopics
    /// Hands the kiosk an event (a command), as of a moment on its timeline, and returns the
    /// effects (a `.refused` among them says the kiosk did not obey).
    public var deliver: (ControlEvent, Moment) -> [Effect] = { _, _ in [] }
    /// Told of each event the station publishes (before its `t` is set), and of `online` once
    /// connected, whether or not it could publish them (the terminal lists them).
    public var onEvent: (FleetEvent) -> Void = { _ in }
    /// Deletes what the kiosk holds of a forgotten card beyond the outbox (its history's rows,
    /// the journal's earlier saves: `KioskFleet` sets it); nil when done, else why it could not.
    public var forgetHeld: (CardID) -> String? = { _ in nil }
    /// Seconds per knob detent in rest mode (the kiosk's `[rest] step_seconds`), for `set`.
    public let restStep: Int

    /// The broker connection's life cycle (nil when no client could be made: the kiosk runs alone).
    private let connection: FleetConnection?
    var client: (any MQTTTransport)? { connection?.client }
    private var connected: Bool { connection?.isConnected == true }
    /// Whether the station is connected to its broker now (the bench's drills wait for it).
    public var isOnline: Bool { connected }
    private let outbox: FleetOutbox?
    let now: () -> Moment
    let wall: WallClock
    private let log: (String) -> Void
    /// Home Assistant's discovery (nil with `home_assistant = false`).
    private let discovery: HomeAssistantDiscovery?
    /// When discovery was last sent for Home Assistant's birth message (at most once a second).
    private var lastBirthReply: Moment?
    /// Workout records on their way to the gym's database (outbox, acknowledgements, retries).
    private let records: FleetRecordSender
    private var scheduledStart: Moment?
    /// What was selected when the scheduled start was asked for (nil after a restart: whatever
    /// is selected): at its instant the kiosk starts only if still idle in it.
    private var scheduledEntry: ModeMenu.Entry?
    /// The id the scheduled start's command carried: its instant's `started` or `error` answers it too.
    private var scheduledID: String?
    /// A class program's own lead-in: its run starts this long before the class's instant, so
    /// that its work begins at the instant (zero: the start is at the instant, as a plain start).
    private var scheduledLeadIn: Duration = .zero
    /// When the scheduled start was asked for: a class's run begins no sooner than
    /// `callOffWindow` after it, so a coach's tool that hears another station refuse can still
    /// call it off before anything shows.
    private var scheduledAt: Moment?
    /// The instant of the class whose run began early for its lead-in: until then, `cancel`
    /// still calls it off (the run is ended, nothing recorded).
    private var classInstant: Moment?

    /// How long after a class start arrives its run may begin (see `scheduledAt`).
    public static let callOffWindow: Duration = .seconds(1)
    private var lastReport: FleetStateReport?
    /// The kiosk as last observed (what `select` navigates the menu of).
    private(set) var lastKiosk: Kiosk?
    /// The athlete last published on `P/athlete` (nil: nothing on this connection yet).
    private var publishedAthlete: CardID??
    private var lastDisplay: String?
    /// Kinds of refused commands already logged (once per kind, not per message).
    private var loggedKinds: Set<String> = []
    /// What the gym answered of the cards tapped on this station (`FleetStation+AthleteCards`).
    var cards = FleetAthleteCards()
    /// The folder shared with the station's upgrade agent, when it has one (`KioskFleet`).
    public var upgrade: StationUpgrade?
    /// The station's health (`P/S/health`), when the kiosk gave it a reporter (`KioskFleet`).
    public var health: FleetHealthReporter?

    /// The largest packet the broker may send the station: a command (4 KiB at most) or an
    /// answer with an athlete's card (8 KiB and its card at most) with its topic and headers. Larger messages are dropped
    /// by the broker, never read (fleet.md).
    public static let maximumPacketSize = max(FleetCommand.maximumSize, FleetCardAnswer.maximumBytes) + 1024

    /// How long before a scheduled start the loop wakes, to be at the instant awake.
    public static let startLead: Duration = .milliseconds(1)
    /// How far in the past a start's `at` may be and still be obeyed.
    public static let startSlack = FleetCommand.startSlack

    /// How long before a scheduled start this station wakes (`startLead`; zero in virtual
    /// time, where the clock stands still while the station waits).
    private let lead: Duration

    /// `now` is the kiosk's timeline, `wall` the wall clock; `outbox` keeps records across
    /// restarts (nil: in memory only); `log` takes one line per problem. `transport` makes the
    /// MQTT client (the real one, or an in-memory twin's in virtual time, with `startLead` zero).
    public init(
        settings: FleetSettings, password: String?, outbox: FleetOutbox?, restRange: ClosedRange<Int> = 1...3600,
        restStep: Int = 1, programs: [String] = [], now: @escaping () -> Moment,
        wall: WallClock = .system,
        transport: MQTTTransportFactory = MQTTClient.factory, startLead: Duration = FleetStation.startLead,
        log: @escaping (String) -> Void
    ) {
        lead = startLead
        self.settings = settings
        self.restStep = max(1, restStep)
        topics = FleetTopics(prefix: settings.topicPrefix, station: settings.station)
        self.outbox = outbox
        records = FleetRecordSender(outbox: outbox, topics: topics, log: log)
        self.now = now
        self.wall = wall
        self.log = log
        discovery = settings.homeAssistant
            ? HomeAssistantDiscovery(
                topics: topics, restRange: restRange, restStep: restStep, modes: FleetCommand.modes.sorted(), programs: programs,
                consoleURL: settings.consoleURL)
            : nil
        let options = MQTTClient.Options(
            clientID: Self.clientID(of: settings.station), host: settings.broker.host, port: settings.broker.port,
            tls: settings.broker.tls, caFile: settings.caFile, username: settings.username, password: password,
            keepAlive: 30, cleanSession: true,
            will: MQTTMessage(topic: topics.status, text: "offline", qos: 1, retain: true),
            maximumPacketSize: Self.maximumPacketSize)
        do {
            connection = FleetConnection(
                client: try transport(options), name: "fleet", broker: "\(settings.broker)",
                whileAway: "retrying with back-off; the kiosk runs alone meanwhile", now: now, log: log)
        } catch {
            log("fleet: \(error) (the kiosk runs alone)")
            connection = nil
        }
        resumeScheduledStart()
        records.publish = { [weak self] message in
            guard let self, self.connected, let client = self.client else { return nil }
            return try? client.publish(message)
        }
    }

    /// A start scheduled before a restart is kept: on time if its instant is still to come
    /// (or at most `startSlack` past), else dropped with one line; a class program's lead-in
    /// still ends at the instant, and its `started` still answers the command's id.
    private func resumeScheduledStart() {
        guard let outbox, let stored = try? outbox.scheduledStart() else { return }
        // The stored instant is checked as a command's is: a damaged file cannot trap.
        switch FleetCommand.startDelay(at: stored.at, wall: wall) {
        case .success:
            scheduledStart = moment(ofUnix: stored.at)
            // A lead-in out of a program's limits (a damaged file) is none: a plain start.
            let longest = Double(Program.numberLimits["lead_in_seconds"]?.range.upperBound ?? 0)
            scheduledLeadIn = stored.leadIn.isFinite && (0...longest).contains(stored.leadIn)
                ? .nanoseconds(Int64((stored.leadIn * 1e9).rounded())) : .zero
            scheduledID = stored.id.flatMap { FleetRequest.isValidID($0) ? $0 : nil }
        case .failure(let error):
            log("fleet: the stored scheduled start is dropped: \(error)")
            remember(start: nil)
        }
    }

    /// Keeps the scheduled start in the outbox's file (nil: forgets it).
    private func remember(start: FleetOutbox.ScheduledStart?) {
        do {
            try outbox?.setScheduledStart(start)
        } catch {
            log("fleet: \(error)")
        }
    }

    // MARK: The loop's side

    /// The current moment on the kiosk's timeline (the one `nextDeadline` is on).
    public var moment: Moment { now() }

    /// The MQTT client id of the station named `station` (one per station: a second process
    /// with the same name takes the session over).
    public static func clientID(of station: String) -> String { "gymtimer-\(station)" }

    /// The socket to poll and for what, or nil while there is none.
    public var pollRequest: pollfd? { connection?.pollRequest }

    /// Poll said the socket is ready (`revents`): reads and writes what is due.
    public func serve(revents: Int16) {
        guard let connection else { return }
        handle(connection.serve(revents: revents))
    }

    public var nextDeadline: Moment? {
        var candidates: [Moment?] = [scheduledBegin.map { $0 - lead }]
        candidates.append(connection?.nextDeadline)
        candidates.append(records.nextDeadline)
        candidates.append(health?.nextAt)
        return candidates.compactMap { $0 }.min()
    }

    public func fire(at now: Moment) {
        if let start = scheduledStart, let begin = scheduledBegin, begin - lead <= now {
            scheduledStart = nil
            // A class program's lead-in ends at the instant: its run begins that much earlier
            // (or later, its lead-in shortened, when the class's lead was shorter), on the same
            // deadlines on every station whenever each began.
            let leadIn = scheduledLeadIn
            scheduledLeadIn = .zero
            scheduledAt = nil
            classInstant = leadIn > .zero ? start : nil
            // Woken `startLead` early (a process woken from sleep on a busy machine is late by
            // milliseconds, and a class start is worth being exact): wait out the rest awake.
            while self.now() < begin { sched_yield() }
            defer { remember(start: nil) }
            // At its instant, the kiosk checks it is still where the coach left it. The start is
            // handled at `begin` itself, not at the moment the loop got here: a station preempted
            // for a few milliseconds on a busy Pi still counts down from the class's instant, to
            // the same deadline as every other station.
            let workBegins: Moment? = leadIn > .zero ? start : nil
            let effects = deliver(.command(.classStart(expecting: scheduledEntry, workBegins: workBegins)), begin)
            let id = scheduledID
            scheduledEntry = nil
            scheduledID = nil
            if let refusal = Self.refusal(in: effects) {
                refuse(.notAllowed(command: refusal.command, reason: refusal.reason), answering: id)
            } else {
                event(.started(at: unix(start)), answering: id)
            }
        }
        if let due = health?.nextAt, due <= now {
            publishHealth()
            // The agent's latest check reaches Home Assistant's update entity with the heartbeat.
            publishUpdate()
        }
        guard let connection else { return }
        handle(connection.fire(at: now))
        if !connected { records.disconnected() }
        records.fire(at: now)
    }

    /// When the scheduled start's run begins: at its instant; a class program's, its lead-in
    /// before, but not sooner than `callOffWindow` after it was asked for.
    private var scheduledBegin: Moment? {
        guard let start = scheduledStart else { return nil }
        guard scheduledLeadIn > .zero else { return start }
        let earliest = scheduledAt.map { $0 + Self.callOffWindow } ?? start - scheduledLeadIn
        return min(max(start - scheduledLeadIn, earliest), start)
    }

    /// The kiosk after a wake-up, and what its display shows: its state is published
    /// (retained) when it changed.
    public func observe(_ kiosk: Kiosk, display shown: DisplayContent?) {
        lastKiosk = kiosk
        if health?.faultsMoved == true { publishHealth() }
        let report = FleetStateReport(kiosk)
        let display = shown?.text ?? "    "
        guard report != lastReport else { return }
        let before = lastReport
        lastReport = report
        lastDisplay = display
        publishState()
        // A change of phase (a rest started, the alarm, back to idle) is also an event.
        if let before, before.mode != report.mode || before.phase != report.phase {
            event(.phase(mode: report.mode, phase: report.phase))
        }
    }

    /// A finished workout: into the outbox, then to the gym's collector until it has stored it.
    public func record(_ workout: StoredWorkout) {
        let (id, payload) = FleetWorkoutMessage.encode(workout, station: settings.station)
        records.add(id: id, payload: payload, at: now())
        remember(workout)
        event(.completed(kind: workout.kind.rawValue, sets: workout.sets))
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
                online()
            case .message(let message) where message.topic == discovery?.birthTopic:
                homeAssistantStarted(message)
            case .message(let message) where discovery?.retired.contains(where: { $0.topic == message.topic }) == true:
                if message.retain, !message.payload.isEmpty {
                    _ = try? publishRetained(HomeAssistantDiscovery.Message(topic: message.topic, payload: ""))
                }
            case .message(let message) where message.topic == topics.classRecord:
                follow(message)
            case .message(let message) where message.topic == topics.card:
                learn(message)
            case .message(let message):
                // Acknowledgements and the collector's announcements are the record path's.
                if records.receive(message, at: now()) { continue }
                command(message)
            case .subscribed:
                break
            case .delivered(let mid):
                records.delivered(mid: mid)
            }
        }
        if !connected { records.disconnected() }
    }

    /// Just connected: subscribe, say online, describe ourselves, publish the state and the outbox.
    private func online() {
        guard let client else { return }
        do {
            // The answers to this station's card asks, and no other station's.
            for topic in topics.commandTopics + [topics.classRecord, topics.card]
                + records.subscriptions { try client.subscribe(topic, qos: 1) }
            // Discovery first, so whoever sees `online` finds the entities already retained.
            if let discovery {
                try client.subscribe(discovery.birthTopic, qos: 1)
                // What earlier versions announced per component is cleared only where the broker
                // still retains it (an empty payload on a topic Home Assistant's device holds is a
                // conflicting discovery to it, logged on every restart).
                for message in discovery.retired { try client.subscribe(message.topic, qos: 1) }
                try publishRetained(discovery.device)
            }
            try client.publish(MQTTMessage(topic: topics.status, text: "online", qos: 1, retain: true))
        } catch {
            connection?.lose("\(error)")
            return
        }
        publishedAthlete = nil
        publishState()
        publishUpdate()
        publishHealth()
        // The athlete on the station is asked for again: what changed while away comes back.
        if let card = lastKiosk?.athlete?.card { ask(for: card, at: wall.now) }
        // Every record not acknowledged goes again: what the last connection sent may be lost.
        records.connected(at: now())
        onEvent(.online)
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
        let payload = report.json(display: lastDisplay ?? "    ", at: wall.now, unix: unix, startsAt: scheduledStart.map(unix))
        _ = try? client.publish(MQTTMessage(topic: topics.state, text: payload, qos: 1, retain: true))
        publishAthlete(report.athlete)
    }

    /// The athlete on the station, on its own retained topic (the state names nobody), when it
    /// changed or the connection is new; nobody: the retained card is cleared.
    private func publishAthlete(_ card: CardID?) {
        guard connected, let client, publishedAthlete != .some(card) else { return }
        let payload = card.map { Array(#"{"card":"\#($0.hex)"}"#.utf8) } ?? []
        if (try? client.publish(MQTTMessage(topic: topics.athlete, payload: payload, qos: 1, retain: true))) != nil {
            publishedAthlete = .some(card)
        }
    }

    /// Publishes the health (retained) and schedules the next heartbeat; while disconnected,
    /// nothing and no heartbeat (connecting publishes it).
    private func publishHealth() {
        guard let health else { return }
        guard connected, let client else { return health.nextAt = nil }
        let payload = health.sample(at: now()).json
        _ = try? client.publish(MQTTMessage(topic: topics.health, text: payload, qos: 1, retain: true))
    }

    // MARK: Commands

    private func command(_ message: MQTTMessage) {
        // Only the station's own topics are subscribed; anything else is not a command for it.
        guard topics.commandTopics.contains(message.topic) else { return }
        // The id first: whatever is wrong with the command, its answer carries the id.
        let (id, parsed) = FleetRequest.parse(message.payload)
        // A retained command is old news replayed by the broker at (re)subscription: never obeyed.
        guard !message.retain else { return refuse(.retained, answering: id) }
        switch parsed {
        case .failure(let error): refuse(error, answering: id)
        case .success(let command): obey(command, answering: id)
        }
    }

    /// Obeys a command, answering under `id` (when it carried one): done or refused.
    private func obey(_ command: FleetCommand, answering id: String?) {
        func send(_ command: KioskCommand, _ name: String, mode: String? = nil) {
            self.send(command, name, mode: mode, answering: id)
        }
        switch command {
        case .start(nil): send(.press(.start), "start")
        case .dismiss: send(.press(.dismiss), "dismiss")
        case .pause: send(.pause, "pause")
        case .resume: send(.resume, "resume")
        case .reset:
            // A reset in a class's lead-in calls its start off too: nothing starts after it.
            callOffScheduledStart()
            send(.reset, "reset")
        case .ping:
            event(.command("ping"), answering: id)
        case .cancel:
            if scheduledStart == nil, let instant = classInstant, now() < instant {
                // The class's run is in its lead-in: called off before its instant, it ends unrecorded.
                classInstant = nil
                return send(.reset, "cancel")
            }
            guard scheduledStart != nil else {
                return refuse(.notAllowed(command: "cancel", reason: "no start is scheduled"), answering: id)
            }
            callOffScheduledStart()
            event(.command("cancel"), answering: id)
        case .setRest(let seconds): send(.setRest(seconds: seconds), "set")
        case .lock: send(.lockButtons(true), "lock")
        case .unlock: send(.lockButtons(false), "unlock")
        case .brightness(let percent): send(.setBrightness(percent: percent), "brightness")
        case .sleep(let window): send(.setSleepWindow(window), "sleep")
        case .message(let text, let seconds): send(.showMessage(text: text, seconds: seconds), "message")
        case .athlete(let tap):
            // A card alone (the class list) shows the name and knows the bests the gym told, and
            // is asked for (what the gym knows comes with the answer).
            if let card = tap?.card { ask(for: card, at: wall.now) }
            send(.setAthlete(tap.map { $0.completed(from: cards.tap(for: $0.card)) }), "athlete")
        case .forget(let card): forget(card, answering: id)
        case .upgrade: askForUpgrade(answering: id)
        case .select(let mode, let name):
            guard let kiosk = lastKiosk else {
                return refuse(.notAllowed(command: "select", reason: "the station is starting"), answering: id)
            }
            guard let startMode = StartMode(rawValue: mode) else { return refuse(.unknown(mode), answering: id) }
            switch kiosk.menuEntry(for: startMode, named: name) {
            case .failure(let refusal): refuse(.notAllowed(command: refusal.command, reason: refusal.reason), answering: id)
            case .success(let entry): send(.select(entry), "select", mode: mode)
            }
        case .start(let unixTime?):
            schedule(at: unixTime, selecting: nil, answering: id)
        case .classStart(let unixTime, let runs):
            schedule(at: unixTime, selecting: runs, answering: id)
        }
    }

    /// The gym forgot `card`'s athlete (the collector's `forget`): taken off the station if on it
    /// (first: leaving closes a rest workout as theirs, which the deletions then take too), their
    /// waiting records deleted from the outbox (not sent as a guest's: they are the member's),
    /// their rows from the history and every earlier save from the journal (`forgetHeld`).
    /// Answered done, or refused with what failed (the collector asks again later). The log
    /// names no card: a forgotten member is not written anywhere anew.
    private func forget(_ card: CardID, answering id: String?) {
        if lastKiosk?.athlete?.card == card, let refusal = Self.refusal(in: deliver(.command(.setAthlete(nil)), now())) {
            return refuse(.notAllowed(command: "forget", reason: refusal.reason), answering: id)
        }
        var problems: [String] = []
        do {
            try records.forget(card: card)
        } catch {
            problems.append("\(error)")
        }
        if let problem = forgetHeld(card) { problems.append(problem) }
        cards.forget(card)
        guard problems.isEmpty else {
            return refuse(.notAllowed(command: "forget", reason: problems.joined(separator: "; ")), answering: id)
        }
        event(.command("forget"), answering: id)
    }

    /// Hands an upgrade to the station's agent (`StationUpgrade`): done once its request is
    /// written (the agent waits for the station to be idle), refused when the station has no
    /// agent, nothing newer is offered, or the request cannot be written.
    private func askForUpgrade(answering id: String?) {
        guard let upgrade else {
            return refuse(.notAllowed(command: "upgrade", reason: "this station takes no upgrades from the network"), answering: id)
        }
        if let reason = upgrade.refusal() { return refuse(.notAllowed(command: "upgrade", reason: reason), answering: id) }
        do {
            try upgrade.request(id: id, at: wall.now)
        } catch {
            return refuse(.notAllowed(command: "upgrade", reason: "\(error)"), answering: id)
        }
        publishUpdate()
        event(.command("upgrade"), answering: id)
    }

    /// Publishes the software version and upgrade (retained `update`), when the station has an
    /// upgrade folder.
    func publishUpdate() {
        guard let upgrade, connected, let client else { return }
        _ = try? client.publish(MQTTMessage(topic: topics.update, text: upgrade.update().json, qos: 1, retain: true))
    }

    /// The class's instants, retained by the coach's console (`FleetClassRecord`): a run that
    /// is that class's moves to them, said as a `class` event with how far it `moved` (a station
    /// restarted, or offline through a pause, catches up with the others). Anything else (no
    /// class runs here, another run, a hostile record) changes nothing and is logged once per kind.
    private func follow(_ message: MQTTMessage) {
        let record: FleetClassRecord
        switch FleetClassRecord.parse(message.payload) {
        case .failure(let error): return logOnce("class", "fleet: the class record is ignored: \(error)")
        case .success(nil): return
        case .success(let parsed?): record = parsed
        }
        guard let timeline = record.timeline(wall: wall, moment: moment(ofUnix:)) else {
            return logOnce("class-far", "fleet: the class record \(record.id) is ignored: its instants are more than a day away")
        }
        let at = now()
        let before = lastKiosk?.hostedRun
        let effects = deliver(.command(.followClass(timeline)), at)
        if let refusal = Self.refusal(in: effects) {
            // One kind per reason, not per status line it quotes (a record left retained after
            // its class is met again at every reconnection, whatever the station is doing).
            let kind = refusal.reason.split(separator: "(", maxSplits: 1).first.map(String.init) ?? refusal.reason
            return logOnce("class-" + kind, "fleet: class \(record.id): \(refusal.reason)")
        }
        guard !effects.isEmpty, let before, case .running(let was) = before.phase else { return }
        // How much more (or less) of the run is left than before: what the station caught up.
        let left: Duration
        switch timeline.timing(total: was.total, leadIn: .seconds(before.plan.leadInSeconds)) {
        case .running(let end): left = max(end - at, .zero)
        case .paused(let remaining): left = remaining
        }
        let moved = Double((left - was.remainingTotal(at: at)).nanoseconds) / 1e9
        // A catch-up worth telling (a missed pause, a restart), not a receipt's milliseconds.
        if abs(moved) >= 0.1 { log("fleet: class \(record.id): moved \(String(format: "%+.3f", moved)) s to the class's time") }
        event(.classFollowed(id: record.id, moved: moved, paused: record.isPaused))
    }

    /// Logs `line` the first time a problem of `kind` is met (a retained record is delivered
    /// again at every reconnection: its problem is said once).
    func logOnce(_ kind: String, _ line: String) {
        guard loggedKinds.insert(kind).inserted else { return }
        log(line)
    }

    /// Schedules a start at `unixTime` (a class's): refused whole, nothing changed, when the
    /// instant is out of the window, the station is busy, or `selecting` names what its menu
    /// has not; else what `selecting` names (or defines) is picked now, and at the instant the
    /// kiosk starts if it is still idle in it. Answered `scheduled` (or the refusal) under `id`.
    private func schedule(at unixTime: Double, selecting: FleetClassProgram?, answering id: String?) {
        if case .failure(let error) = FleetCommand.startDelay(at: unixTime, wall: wall) {
            return refuse(error, answering: id)
        }
        guard let kiosk = lastKiosk, kiosk.isIdle || kiosk.showsResult else {
            return refuse(
                .notAllowed(command: "start", reason: "the station is busy (\(lastReport?.phase ?? "starting"))"), answering: id)
        }
        // A finished class (its result on the display, its record kept) is no obstacle to the
        // next: confirmed done as a press of dismiss would, the station is idle again.
        if kiosk.showsResult { _ = deliver(.command(.press(.dismiss)), now()) }
        var entry = kiosk.menu(at: .origin)?.selection
        var leadIn = Duration.zero
        switch selecting {
        case nil: break
        case .named(let mode, let name)?:
            guard let startMode = StartMode(rawValue: mode) else { return refuse(.unknown(mode), answering: id) }
            switch kiosk.menuEntry(for: startMode, named: name) {
            case .failure(let refusal):
                return refuse(.notAllowed(command: "start", reason: refusal.reason), answering: id)
            case .success(let picked):
                if let refusal = Self.refusal(in: deliver(.command(.select(picked)), now())) {
                    return refuse(.notAllowed(command: "start", reason: refusal.reason), answering: id)
                }
                entry = picked
                let programs = Kiosk.freshProgram(kiosk.settings).programs
                if case .program(let index) = picked, programs.indices.contains(index) {
                    leadIn = .seconds(programs[index].leadInSeconds)
                }
            }
        case .defined(let program)?:
            if let refusal = Self.refusal(in: deliver(.command(.selectProgram(program)), now())) {
                return refuse(.notAllowed(command: "start", reason: refusal.reason), answering: id)
            }
            // Where the kiosk put it: the configured program of that definition, else after them.
            let configured = Kiosk.freshProgram(kiosk.settings).programs
            entry = .program(configured.firstIndex(of: program) ?? configured.count)
            leadIn = .seconds(program.leadInSeconds)
        }
        // Mapped once the selection is done (which may write the journal): the instant, not the
        // delay measured before that work, is what every station shares.
        scheduledStart = moment(ofUnix: unixTime)
        scheduledEntry = entry
        scheduledID = id
        scheduledLeadIn = leadIn
        scheduledAt = now()
        remember(start: FleetOutbox.ScheduledStart(at: unixTime, leadIn: Double(leadIn.nanoseconds) / 1e9, id: id))
        publishState()
        event(.scheduled(at: unixTime), answering: id)
    }

    /// Forgets the scheduled start, if any (in memory and in the outbox's file).
    private func callOffScheduledStart() {
        guard scheduledStart != nil else { return }
        scheduledStart = nil
        scheduledEntry = nil
        scheduledID = nil
        scheduledLeadIn = .zero
        scheduledAt = nil
        remember(start: nil)
        publishState()
    }

    /// Hands the kiosk `command` now; its refusal becomes an `error` event, else a `command`
    /// event (either answering `id`).
    private func send(_ command: KioskCommand, _ name: String, mode: String?, answering id: String?) {
        if let refusal = Self.refusal(in: deliver(.command(command), now())) {
            return refuse(.notAllowed(command: refusal.command, reason: refusal.reason), answering: id)
        }
        event(.command(name, mode: mode), answering: id)
    }

    private static func refusal(in effects: [Effect]) -> KioskRefusal? {
        for case .refused(let refusal) in effects { return refusal }
        return nil
    }

    private func refuse(_ error: FleetCommandError, answering id: String?) {
        if loggedKinds.insert(error.kind).inserted {
            log("fleet: refused a command (\(error.kind)): \(error) (further ones of this kind are not logged)")
        }
        event(.error(kind: error.kind, reason: error.description), answering: id)
    }

    /// Publishes `event` (`FleetEvent`), stamped with the time. An event that answers a command
    /// carries its `id` and goes at QoS 1: the sender waits for it.
    private func event(_ event: FleetEvent, answering id: String? = nil) {
        var event = event
        if let id { event.id = id }
        onEvent(event)
        guard connected, let client else { return }
        event.t = WireSeconds(wall.now)
        _ = try? client.publish(MQTTMessage(topic: topics.event, text: event.json, qos: id == nil ? 0 : 1))
    }

    /// Unix time of a moment on the kiosk's timeline.
    private func unix(_ moment: Moment) -> Double {
        let pair = clockPair()
        return pair.unix + Double((moment - pair.moment).nanoseconds) / 1e9
    }

    /// The moment on the kiosk's timeline of a Unix instant (one `startDelay` accepted, so finite
    /// and within the start horizon).
    private func moment(ofUnix unixTime: Double) -> Moment {
        let pair = clockPair()
        return pair.moment + .nanoseconds(Int64(((unixTime - pair.unix) * 1e9).rounded()))
    }

    /// Both clocks read as one pair: the kiosk's timeline at the middle of the two reads around
    /// the wall clock's, retried while they straddle more than `clockPairTolerance`. A process
    /// preempted between two reads on a busy machine would otherwise map every instant off by
    /// the preemption (a class start, the deadline in the state); after a few tries, the tightest.
    private func clockPair() -> (moment: Moment, unix: Double) {
        var best: (gap: Duration, moment: Moment, unix: Double)?
        for _ in 0..<8 {
            let before = now()
            let unix = wall.now
            let gap = now() - before
            if best.map({ gap < $0.gap }) ?? true { best = (gap, before + gap / 2, unix) }
            if gap <= Self.clockPairTolerance { break }
        }
        return best.map { ($0.moment, $0.unix) } ?? (now(), wall.now)
    }

    /// How far apart the reads of one clock pair may be (see `clockPair`).
    static let clockPairTolerance: Duration = .microseconds(200)
}

extension FleetStation {
    /// The outbox's records from before pseudonyms carried to them under `key` (logged), before
    /// any is sent: no UID leaves the station.
    func carryCards(with key: CardKey) {
        do {
            if let carried = try outbox?.carryCards(with: key), carried > 0 {
                log("fleet: \(carried) waiting record(s) from before card pseudonyms now carry the card's pseudonym")
            }
        } catch {
            log("\(error)")
        }
    }
}
