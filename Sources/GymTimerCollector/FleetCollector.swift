#if canImport(Glibc)
import Glibc
#endif
import Foundation
import GymTimerConfig
import GymTimerCore
import GymTimerFleet
import GymTimerFleetLink
import GymTimerHAL
import GymTimerHistory
import GymTimerMQTT
import GymTimerSystem

/// `gymtimer collect` (fleet.md): a durable subscriber (persistent session, QoS 1) that stores
/// every station's workout records in one history database, each once (the record's `id` is
/// unique in the gym; a retry's repeat is skipped), with its `station`, and tells each station
/// which of its records the database now holds (`FleetRecordAck` on `P/ack`): only those leave
/// the station's outbox, so a record lost at the broker (killed, wiped, over its queue, or
/// sent before any collector subscribed) is sent again. Records are checked before they are
/// stored (`FleetWorkoutMessage.decode`): an implausible one is refused, logged once per kind,
/// and the station told to stop sending it. Once subscribed it announces itself (retained
/// `online` on `{prefix}/all/collector`, `offline` as its will), and stations send it what
/// they hold. A message is acknowledged to the broker only once stored: the client defers its
/// writes (`MQTTClient.Options.deferWrites`), and a batch that cannot be stored (disk full,
/// database locked) drops the connection unacknowledged, so the broker sends it again after
/// the back-off. It is also the coach's console's one way to the gym's database: its desk
/// (`CollectorDesk`) answers the console's asks and retains today's scores for it. Runs one
/// poll loop of its own on the connection's life cycle (`FleetConnection`).
/// A chain's central collector (chain.md) is the same loop over other topics (`CollectorTopics`:
/// every gym's stations, the records shared among the centre's collectors) and another store
/// (`CollectorStore`: PostgreSQL); with a `RosterSource`, the chain's athletes' cards retained
/// for every gym's stations, and its desk (the same `CollectorDesk`) answering every gym's
/// console from that gym's rows.
public final class FleetCollector {
    /// One gym's history database (nil at a chain's centre, whose store is `records`).
    public let history: HistoryStore?
    /// Where the records go: `history`, or a chain's central store.
    private let records: any CollectorStore
    /// The athletes' cards it retains for the stations (one gym's, or the chain's) and the forgets it carries to them.
    private let roster: FleetRosterPublisher?
    /// What it answers the coach's console, and today's scores it retains for it (at a chain's centre, every gym's).
    private let desk: CollectorDesk?
    private let connection: FleetConnection
    private let topics: CollectorTopics
    private let log: (String) -> Void
    /// The collector's timeline (the one its deadlines are on).
    private let now: () -> Moment
    /// Records stored since the start (repeats not counted).
    public private(set) var stored = 0
    /// True while connected with the subscription granted: a record sent from now on reaches
    /// this collector (and, with its persistent session, one sent while it is away waits for it).
    public var isSubscribed: Bool { connection.isConnected && granted }
    /// The id of the subscription asked for on this connection, until the broker grants it.
    /// The stop signals' pipe while `run` runs: polled beside the socket, so a signal wakes the wait.
    private var stopRequest: pollfd?
    private var subscription: Int32?
    private var granted = false
    /// Whether a subscription was ever granted (said once in the log).
    private var everGranted = false
    private let clientID: String
    private let wall: WallClock
    /// Kinds of refused records already logged (once per kind, not per record).
    private var loggedRefusals: Set<String> = []
    /// Records refused since the start.
    public private(set) var refused = 0
    /// When the current connection came up, and how many connections in a row the broker
    /// closed soon after (another client with the same id takes the session over).
    private var connectedAt: Moment?
    private var quickLosses = 0
    /// Whether the takeover was said (the connection's own lines are held back meanwhile).
    public private(set) var takenOver = false
    /// A connection the broker closes within this time after it came up counts as taken over.
    static let takeoverWindow: Duration = .seconds(10)
    /// How many such losses in a row mean another collector uses the same client id.
    static let takeoverLosses = 2
    /// How long after connecting a record without its card's ask, from a station not heard
    /// asking on this connection yet, is held back rather than filed as a guest's: what the
    /// broker queued for this session before it read the asks (a collector from before card
    /// asks, upgraded) comes first, ahead of any ask; its station sends it again, after its
    /// ask, when this collector announces itself. Once a station's ask came, its records come
    /// after theirs.
    static let askGrace: Duration = .seconds(30)
    /// Records held back so, since the start.
    public private(set) var heldBack = 0

    /// Collects into the history database at `database` (created if missing) from the broker in
    /// `options` (give it a fixed client id and `cleanSession: false`, so records sent while the
    /// collector is down wait at the broker; its writes are deferred here whatever `options` say).
    /// `transport` makes the client (the real one, or an in-memory broker's), `now` is the
    /// timeline its deadlines are on (nil: the monotonic clock's, for `run`), `wall` the wall
    /// clock records are checked against.
    public convenience init(
        options: MQTTClient.Options, prefix: String, database: String, cardKey: CardKey? = nil,
        transport: MQTTTransportFactory = MQTTClient.factory,
        now: (() -> Moment)? = nil, wall: WallClock = .system, log: @escaping (String) -> Void
    ) throws {
        // Another collector writing the same database waits for its turn rather than failing.
        let store = try HistoryStore(path: database, faults: FaultLog(sink: log), timeZone: .current, busyTimeout: .seconds(1))
        // With the gym's card key, the UIDs stored before pseudonyms (and any an old station
        // still sends) become the cards' pseudonyms; without it they are said, left as they are.
        if let cardKey {
            store.cardKey = cardKey
        } else if let uids = store.storedUIDCount(), uids > 0 {
            log("collector: \(database) stores \(uids) card UID(s) from before card pseudonyms: run the collector once with --card-key FILE (the stations' [athletes] card_key) to turn them into pseudonyms")
        }
        let gym = GymSides(
            history: store, roster: FleetRosterPublisher(store: store, topics: .gym(prefix: prefix), wall: wall, log: log),
            desk: CollectorDesk(database: GymDatabase(path: database, wall: wall), prefix: prefix, log: log))
        try self.init(options: options, topics: .gym(prefix: prefix), store: store, gym: gym, transport: transport, now: now, wall: wall, log: log)
    }

    /// Collects into `store` from the topics `topics` names: a chain's central collector (no
    /// roster file: that is one gym's). With `roster`, it retains the chain's athletes' cards for
    /// every gym's stations (`FleetRosterPublisher`); with `desk`, its desk answers every gym's
    /// console (chain.md, "The chain's desk": the same `CollectorDesk` as one gym's, over each
    /// gym's rows in `desk`). The rest as the gym's initializer says.
    public convenience init(
        options: MQTTClient.Options, topics: CollectorTopics, store: any CollectorStore, roster: (any RosterSource)? = nil,
        desk: GymDeskStores? = nil, transport: MQTTTransportFactory = MQTTClient.factory, now: (() -> Moment)? = nil,
        wall: WallClock = .system, log: @escaping (String) -> Void
    ) throws {
        let sides = GymSides(
            history: nil, roster: roster.map { FleetRosterPublisher(store: $0, topics: topics, wall: wall, log: log) },
            desk: desk.map { CollectorDesk(stores: $0, topics: topics, log: log) })
        try self.init(options: options, topics: topics, store: store, gym: sides, transport: transport, now: now, wall: wall, log: log)
    }

    /// What a collector has beside its store: one gym's history file, the athletes' publisher
    /// (one gym's roster or the chain's) and the desk.
    private struct GymSides {
        var history: HistoryStore?
        var roster: FleetRosterPublisher?
        var desk: CollectorDesk?
    }

    private init(
        options: MQTTClient.Options, topics: CollectorTopics, store: any CollectorStore, gym: GymSides,
        transport: MQTTTransportFactory, now: (() -> Moment)?, wall: WallClock, log: @escaping (String) -> Void
    ) throws {
        records = store
        history = gym.history
        roster = gym.roster
        desk = gym.desk
        var options = options
        options.deferWrites = true
        options.will = MQTTMessage(topic: topics.status, text: "offline", qos: 1, retain: true)
        let client = try transport(options)
        let origin = ContinuousClock.now
        let now = now ?? { Moment(origin.duration(to: .now)) }
        self.now = now
        // The connection's lines go through `said`, which holds them back while another
        // collector with the same client id keeps taking the session over.
        var said: (String) -> Void = log
        connection = FleetConnection(
            client: client, name: "collect", broker: options.broker, whileAway: "retrying with back-off",
            now: now, log: { said($0) })
        self.topics = topics
        self.log = log
        self.clientID = options.clientID
        self.wall = wall
        said = { [weak self] line in
            guard let self else { return log(line) }
            if !self.takenOver { self.log(line) }
        }
        let publish: (MQTTMessage) -> Bool = { [weak self] message in
            guard let self, self.connection.isConnected else { return false }
            return (try? self.connection.client.publish(message)) != nil
        }
        roster?.publish = publish
        desk?.publish = publish
        roster?.changed = { [weak self] in self?.desk?.rosterChanged() }
        desk?.onEdit = { [weak self] in self?.roster?.edited() }
    }

    /// The current moment on the collector's timeline (the one its deadlines are on).
    var moment: Moment { now() }

    /// Does what fell due (connecting first, so a new connection's CONNACK can come in the
    /// same wait), then waits up to `timeout` for the broker or the connection's next deadline
    /// and handles what came; call in a loop.
    public func step(timeout: Duration) {
        let now = moment
        if connection.nextDeadline <= now { handle(connection.fire(at: now)) }
        fireSides(at: now)
        let until = [sidesDeadline].compactMap { $0 }.reduce(min(connection.nextDeadline, now + timeout), min)
        var revents = wait(until: until)
        guard revents != 0 else { return noticeLoss() }
        // libmosquitto reads one packet per call: read on while more is there (the broker
        // sends up to its max_inflight_messages before our acknowledgements), and store what
        // came in one transaction.
        var events = connection.serve(revents: revents)
        for _ in 1..<Self.batchReads {
            revents = wait(until: moment)
            guard revents & Int16(POLLIN) != 0 else { break }
            events += connection.serve(revents: revents)
        }
        handle(events)
        noticeLoss()
    }

    /// When the connection next needs `fireConnection(at:)` (see `TimedDriver`).
    var connectionDeadline: Moment { connection.nextDeadline }

    /// Does what fell due on the connection at `now` and handles what came of it.
    func fireConnection(at now: Moment) {
        handle(connection.fire(at: now))
        noticeLoss()
        fireSides(at: now)
    }

    /// What fell due of the athletes' side (the roster check, a resend) and the desk's (the scores).
    private func fireSides(at now: Moment) {
        if let roster, let due = roster.nextDeadline, due <= now { roster.fire(at: now) }
        if let desk, let due = desk.nextDeadline, due <= now { desk.fire(at: now) }
    }

    /// When the athletes' side or the desk next needs `fireConnection(at:)`.
    var sidesDeadline: Moment? { [roster?.nextDeadline, desk?.nextDeadline].compactMap { $0 }.min() }

    /// The most reads whose records are stored in one transaction.
    static let batchReads = 64

    /// Runs until `signals` says stop (SIGTERM, SIGINT): their pipe is polled beside the broker's
    /// socket in the one wait, so a signal wakes the collector at once and an idle collector
    /// sleeps until the broker, its connection's next deadline (keep-alive, reconnect) or the
    /// roster's — never on a tick of its own.
    public func run(until signals: StopSignals) {
        stopRequest = signals.pollRequest
        defer { stopRequest = nil }
        while !signals.stopRequested { step(timeout: Self.idleWait) }
        stop()
    }

    /// Runs until SIGTERM or SIGINT (`run(until:)` on the process's stop signals, which wake the
    /// one wait, so the collector stops cleanly); throws only when those cannot be set up.
    public func runUntilStopped() throws {
        run(until: try StopSignals())
    }

    /// The longest `run` sleeps with nothing due (a bound, not a tick: the connection's keep-alive comes sooner).
    static let idleWait = Duration.seconds(3_600)

    /// Says `offline` (retained) and disconnects, for a clean stop.
    public func stop() {
        if connection.isConnected {
            _ = try? connection.client.publish(
                MQTTMessage(topic: topics.status, text: "offline", qos: 1, retain: true))
        }
        connection.disconnect()
    }

    /// Sleeps in poll(2) on the connection's socket until it is ready or `deadline` comes;
    /// returns what poll said of it (0: nothing, or no socket).
    private func wait(until deadline: Moment) -> Int16 {
        let socket = connection.pollRequest
        var fds = [socket, stopRequest].compactMap { $0 }
        do {
            _ = try SystemCall.poll(&fds, timeout: deadline - moment, device: "the broker's connection")
        } catch {
            // poll itself failed (EINVAL, ENOMEM): nothing was seen; the next step tries again.
            log("collect: \(error)")
            return 0
        }
        return socket == nil ? 0 : fds[0].revents
    }

    /// Stores the records among `events` in one transaction, then acknowledges them; a batch
    /// that cannot be stored is not acknowledged (the connection drops, the broker resends).
    private func handle(_ events: [FleetConnection.Event]) {
        defer { noticeLoss() }
        var batch = Batch()
        for event in events {
            switch event {
            case .connected:
                guard subscribeOnConnection() else { return }
            case .subscribed(let mid) where mid == subscription:
                recordsGranted()
            case .subscribed, .delivered: break
            case .message(let message) where roster?.receive(message) == true || desk?.receive(message) == true:
                continue
            case .message(let message) where message.topic == topics.status:
                statusSaid(message.text)
            case .message(let message):
                take(message, into: &batch)
            }
        }
        if !batch.records.isEmpty {
            do {
                stored += try records.store(batch.records)
            } catch {
                connection.drop("cannot store \(batch.records.count) record(s): \(error)")
                return
            }
        }
        roster?.stored(cards: Set(batch.records.compactMap(\.workout.athlete)))
        if !batch.records.isEmpty { desk?.stored(gyms: Set(batch.records.map(\.gym))) }
        var acknowledged = batch.dropped
        // Each record's station is the one its topic named (`take`).
        for record in batch.records {
            guard let station = record.workout.station else { continue }
            acknowledged[Origin(gym: record.gym, station: station), default: []].append(record.workout.id)
        }
        acknowledge(acknowledged, batch.refusals)
        connection.acknowledge()
    }

    /// What one step's messages bring: records to store, records to acknowledge without storing
    /// (a forgotten member's), and refusals to tell each station.
    private struct Batch {
        var records: [CollectedRecord] = []
        var dropped: [Origin: [String]] = [:]
        var refusals: [Origin: [FleetRecordAck.Refusal]] = [:]
    }

    /// The station a record came from, and its gym at a chain's centre (nil: the collector's own).
    private struct Origin: Hashable, Comparable {
        var gym: String?
        var station: String

        static func < (a: Origin, b: Origin) -> Bool { (a.gym ?? "", a.station) < (b.gym ?? "", b.station) }
    }

    /// On a (new) connection: the records' subscription, then the roster's; false when the
    /// connection was lost asking.
    private func subscribeOnConnection() -> Bool {
        connectedAt = moment
        granted = false
        roster?.connected()
        desk?.connected()
        do {
            // The stations' card asks first, at QoS 1: those sent while this collector was away
            // wait in its session, each ahead of the record it vouches for.
            if let roster { _ = try connection.client.subscribe(roster.askSubscription, qos: 1) }
            subscription = try connection.client.subscribe(topics.records, qos: 1)
            // After the records': granted once that one is, the retained cards and statuses
            // follow. At QoS 0: the broker queues none of them for this persistent session
            // while it is away, so they never take a record's place in its queue (what was
            // missed is read again as retained, and a forget is asked again).
            for topic in roster?.subscriptions ?? [] { _ = try connection.client.subscribe(topic, qos: 0) }
            // The console's asks, at QoS 0 too: none is queued for this persistent session while
            // it is away (the console gave up on it after `ConsoleLink.answerWait`).
            for topic in desk?.subscriptions ?? [] { _ = try connection.client.subscribe(topic, qos: 0) }
            // Collectors sharing the records share one announcement: when one of them dies, its
            // will says `offline` there, and the others say `online` again.
            if topics.sharedGroup != nil { _ = try connection.client.subscribe(topics.status, qos: 0) }
            return true
        } catch {
            connection.lose("\(error)")
            return false
        }
    }

    /// The records' subscription granted: the collector announces itself (stations send what
    /// they hold to a collector that does).
    private func recordsGranted() {
        granted = true
        subscription = nil
        roster?.subscribed(at: moment)
        desk?.subscribed(at: moment)
        if !everGranted {
            everGranted = true
            log("collect: subscribed to \(topics.records); storing every station's records")
        }
        announce()
    }

    /// The retained `online` that makes stations send what they hold.
    private func announce() {
        _ = try? connection.client.publish(MQTTMessage(topic: topics.status, text: "online", qos: 1, retain: true))
    }

    /// The shared announcement says `offline` (another collector of the group died) while this
    /// one serves: it says `online` again, so the stations keep sending.
    private func statusSaid(_ text: String) {
        if text == "offline", granted { announce() }
    }

    /// One station's record message into `batch`: a record to store, a forgotten member's to
    /// drop, or a refusal (logged once per kind).
    private func take(_ message: MQTTMessage, into batch: inout Batch) {
        guard let (gym, station) = topics.origin(of: message.topic) else {
            // A record on a name no station may have: stored by nobody, acknowledged to nobody.
            refused += 1
            if loggedRefusals.insert("station name").inserted {
                log("collect: refused a record on a topic whose station name is not valid (a station's name "
                    + "\(FleetSettings.stationRule)) (further ones of this kind are not logged)")
            }
            return
        }
        switch FleetWorkoutMessage.decode(message.payload, station: station, receivedAt: wall.date) {
        case .success(let workout) where workout.athlete.map { roster?.isForgotten($0) ?? false } ?? false:
            // A forgotten member's record still on its way (an outbox that was away):
            // acknowledged, so the station lets it go, and never stored.
            batch.dropped[Origin(gym: gym, station: station), default: []].append(workout.id)
        case .success(var workout):
            let origin = gym.map { "\($0)/\(station)" } ?? station
            if let roster, !roster.vouches(for: workout, from: origin) {
                if let since = connectedAt, moment - since < Self.askGrace, !roster.hasAsked(origin) {
                    // Neither stored nor acknowledged: its station sends it again after its ask.
                    heldBack += 1
                    if loggedRefusals.insert("held back").inserted {
                        log("collect: held back a record from \(origin) whose card's ask this connection has not heard yet; "
                            + "its station sends it again after the ask (further ones are not logged)")
                    }
                    return
                }
                // A card its station never said was on it then: the result is kept, as a guest's.
                workout.athlete = nil
                log("collect: \(origin) filed \(workout.id) for a card it did not ask for around that run; stored as a guest's result")
            }
            batch.records.append(CollectedRecord(gym: gym, workout: workout))
        case .failure(let refusal):
            refused += 1
            if loggedRefusals.insert(refusal.kind).inserted {
                log("collect: refused a record from \(station) (\(refusal.kind)): \(refusal.detail) "
                    + "(further ones of this kind are not logged)")
            }
            if let id = refusal.id {
                batch.refusals[Origin(gym: gym, station: station), default: []].append(.init(id: id, kind: refusal.kind, reason: refusal.detail))
            }
        }
    }

    /// Tells each station which of its records the database now holds (`stored`, repeats
    /// included) and which it refuses, in acknowledgements of at most `FleetRecordAck.maximumIDs`.
    private func acknowledge(_ stored: [Origin: [String]], _ refused: [Origin: [FleetRecordAck.Refusal]]) {
        for origin in Set(stored.keys).union(refused.keys).sorted() {
            var ids = stored[origin] ?? []
            var refusals = refused[origin] ?? []
            let topic = topics.ack(gym: origin.gym, station: origin.station)
            while !ids.isEmpty || !refusals.isEmpty {
                let taken = Array(ids.prefix(FleetRecordAck.maximumIDs))
                ids.removeFirst(taken.count)
                let refusing = Array(refusals.prefix(FleetRecordAck.maximumIDs - taken.count))
                refusals.removeFirst(refusing.count)
                let ack = FleetRecordAck(stored: taken, refused: refusing)
                // Not sent (the connection is going): the station sends the records again.
                _ = try? connection.client.publish(MQTTMessage(topic: topic, text: ack.payload, qos: 1))
            }
        }
    }

    /// After each batch of events: a connection the broker closed soon after it came up,
    /// twice in a row, is another collector with the same client id taking the session over
    /// (each one's reconnection closes the other's): said once, in one line.
    private func noticeLoss() {
        if !connection.isConnected {
            roster?.disconnected()
            desk?.disconnected()
        }
        guard let since = connectedAt else { return }
        if connection.isConnected {
            // A connection that holds: the other collector is gone (or was never there).
            if takenOver, moment - since >= Self.takeoverWindow {
                takenOver = false
                quickLosses = 0
                log("collect: the connection holds again (no other collector with --client-id \(clientID) now)")
            }
            return
        }
        connectedAt = nil
        if moment - since < Self.takeoverWindow {
            quickLosses += 1
        } else {
            quickLosses = 0
        }
        if quickLosses >= Self.takeoverLosses, !takenOver {
            takenOver = true
            log("collect: the broker keeps closing this collector's connection right after it connects: another collector "
                + "uses the same --client-id \(clientID) (give each its own, or stop one); retrying with back-off")
        }
    }
}
