import Foundation
import Glibc
import GymTimerCore
import GymTimerFleet
import GymTimerMQTT
import GymTimerSystem
import Synchronization

/// The console's connection to the broker, on a thread of its own: the existing poll-driven
/// MQTT client (`MQTTClient`), never run on the HTTP server's event loop. It keeps the floor
/// (`ConsoleFloor`) from the stations' retained topics, publishes each change of the tiles to
/// the pages (`ConsoleBroadcast`), and publishes the commands the HTTP side queues (`send`),
/// woken at once through a pipe, each with an id whose answers it gathers (`answers(_:)`:
/// fleet.md, "Commands are answered"). It asks the gym's collector what its database holds and
/// to change it (`askDesk`: the console opens no database) and passes the collector's retained
/// scores to the pages (`ConsoleScoresEvent`). A lost broker is tried again every 2 s.
///
/// What the HTTP side and the thread share is one `State` behind a `Mutex`. `@unchecked
/// Sendable` only for `thread` and `wake`, written once by `start` before the thread runs and
/// only read after; the MQTT client is the thread's alone (`OwnedClient`); the rest is `let`.
public final class ConsoleLink: @unchecked Sendable {
    public let options: MQTTClient.Options
    public let prefix: String
    private let broadcast: ConsoleBroadcast
    private let wall: WallClock
    private let log: @Sendable (String) -> Void
    /// How soon a failed, lost or refused connection is tried again.
    private let retry: Retry

    /// What the HTTP side and the thread share.
    private struct State {
        /// Connections tried so far (the first and every retry), for the tests' waits.
        var attempts = 0
        var floor: ConsoleFloor
        /// On a chain's central broker (`--chain`): every gym's floor and the leaderboard (`floor` then stays empty).
        var chain: ConsoleChainFloor?
        var outbox: [MQTTMessage] = []
        /// Classes that repeat: their starts are queued by the thread as they fall due.
        var schedules: [ConsoleSchedule] = []
        /// The class each station is in: its instants, retained on the station's `class` topic.
        var classes = ConsoleClasses()
        /// The answers to the commands sent lately, by id (the oldest dropped beyond `maximumAwaited`).
        var awaited: [String: FleetAnswers] = [:]
        var awaitedOrder: [String] = []
        /// The collector's answers to the asks sent lately, by id (nil: not answered yet).
        var deskAnswers: [String: GymDeskAnswer?] = [:]
        var deskOrder: [String] = []
        /// The collector's retained scores as last received (nil: none yet).
        var scores: [UInt8]?
        var connected = false
        var brokerProblem: String? = "connecting"
        var stopping = false

        /// Queues each changed class record, retained on its station's `class` topic.
        mutating func queueRecords(_ changed: [String: FleetClassRecord?], prefix: String) {
            for (station, record) in changed.sorted(by: { $0.key < $1.key }) where outbox.count < ConsoleLink.maximumQueued {
                outbox.append(MQTTMessage(
                    topic: FleetTopics(prefix: prefix, station: station).classRecord, text: record?.json ?? "", qos: 1, retain: true))
            }
        }
    }

    private let state: Mutex<State>
    private var thread: Thread?
    /// Signalled by the thread as it ends: `stop` joins it (Foundation's `Thread` has no join).
    private let done = DispatchSemaphore(value: 0)
    /// Written to wake the thread for a queued command; read end polled beside the socket.
    private var wake: [Int32] = [-1, -1]

    /// The most commands waiting for the broker; more are refused rather than queued.
    public static let maximumQueued = 1024
    /// The most commands whose answers are kept (a page asks within seconds of sending).
    public static let maximumAwaited = 256
    /// How long a page's action waits for every station's answer (it stops once all answered).
    public static let answerWait = 5.0

    /// The refusal when the collector does not answer within `answerWait`: what the coach does.
    public static let deskSilent = "the collector did not answer within \(Int(answerWait)) s: is `gymtimer collect` running on the gym's server?"

    /// What `send` queued: one id per command (in order), and the stations it was for that
    /// are offline (they will not get it).
    public struct Sent: Hashable, Sendable {
        public var ids: [String]
        public var offline: [String]
    }

    /// How soon the link tries the broker again: after a failed or lost connection, and after
    /// the broker refused it (a wrong password is not fixed by asking five times a second).
    public struct Retry: Sendable {
        public var afterFailure: Duration
        public var afterRefusal: Duration

        public init(afterFailure: Duration = .seconds(2), afterRefusal: Duration = .seconds(5)) {
            self.afterFailure = afterFailure
            self.afterRefusal = afterRefusal
        }

        /// "2 s", as the log says it.
        var failureText: String {
            let (seconds, attoseconds) = afterFailure.components
            return attoseconds == 0 ? "\(seconds) s" : "\(Double(seconds) + Double(attoseconds) / 1e18) s"
        }
    }

    /// `retry` is the production one unless a test shortens it.
    public init(
        options: MQTTClient.Options, prefix: String, broadcast: ConsoleBroadcast,
        chain: ConsoleChainFloor? = nil, wall: WallClock = .system, retry: Retry = Retry(),
        log: @escaping @Sendable (String) -> Void = { FileHandle.standardError.write(Data(($0 + "\n").utf8)) }
    ) {
        self.retry = retry
        var options = options
        // A station's state is a few hundred bytes: nothing on these topics needs more.
        options.maximumPacketSize = 64 * 1024
        self.options = options
        self.prefix = prefix
        self.broadcast = broadcast
        self.wall = wall
        self.log = log
        self.state = Mutex(State(floor: ConsoleFloor(prefix: prefix), chain: chain))
    }

    /// Where the collector answers this console's asks.
    public var deskAnswerTopic: String { FleetTopics.gymAnswer(prefix: prefix, to: options.clientID) }

    /// Starts the thread. Throws when the MQTT client cannot even be made (libmosquitto missing).
    public func start() throws(MQTTError) {
        let client = try MQTTClient(options)
        _ = pipe(&wake)
        for fd in wake { _ = fcntl(fd, F_SETFL, fcntl(fd, F_GETFL) | O_NONBLOCK) }
        publishTiles()
        broadcast.publish(event: "scores", data: ConsoleScoresEvent.waiting)
        let owned = OwnedClient(client)
        let thread = Thread { [self] in run(owned.client) }
        thread.name = "console-mqtt"
        self.thread = thread
        thread.start()
    }

    /// Stops the thread (disconnecting from the broker) and waits for it.
    public func stop() {
        state.withLock { $0.stopping = true }
        poke()
        if thread != nil { done.wait() }
    }

    /// The tiles now, and whether the broker is connected.
    /// How many times the link has tried to connect (the first attempt and each retry).
    public var attempts: Int { state.withLock { $0.attempts } }

    public func snapshot() -> (tiles: [ConsoleTile], connected: Bool, problem: String?) {
        let now = wall.now
        return state.withLock { ($0.floor.tiles(now: now), $0.connected, $0.brokerProblem) }
    }

    /// Every station seen, its retained health and its retained version and upgrade (nil: none
    /// published), by name, for `/health`.
    public func healthSnapshot() -> [ConsoleHealthPage.Station] {
        state.withLock { state in
            Set(state.floor.names).union(state.floor.health.keys).union(state.floor.updates.keys).sorted().map {
                ConsoleHealthPage.Station(name: $0, health: state.floor.health[$0], update: state.floor.updates[$0])
            }
        }
    }

    /// Why a command was not queued.
    public enum Refusal: Error, Hashable, Sendable, CustomStringConvertible {
        case notConnected(String)
        case unknownStations([String])
        case noStations
        case busy
        /// The collector's desk could not be asked or did not answer (the sentence says what to do).
        case desk(String)

        public var description: String {
            switch self {
            case .notConnected(let why): "the console is not connected to the broker (\(why)): nothing was sent"
            case .unknownStations(let names): "no such station on the broker: \(names.joined(separator: ", "))"
            case .noStations: "choose at least one station"
            case .busy: "too many commands waiting for the broker: try again"
            case .desk(let why): why
            }
        }
    }

    /// Queues `commands` (each made at the moment they are queued, once the stations are
    /// checked, so a start's `at` counts from then) for each of `stations`, in order, each with
    /// an id whose answers are gathered, and wakes the thread. Every station must have been seen
    /// on the broker; says which are offline.
    public func send(_ commands: () -> [FleetCommand], to stations: [String]) -> Result<Sent, Refusal> {
        guard !stations.isEmpty else { return .failure(.noStations) }
        let prefix = prefix
        let queued: Result<Sent, Refusal> = state.withLock { state in
            let known = state.floor.names
            let unknown = stations.filter { !known.contains($0) }
            guard unknown.isEmpty else { return .failure(.unknownStations(unknown)) }
            guard state.connected else { return .failure(.notConnected(state.brokerProblem ?? "disconnected")) }
            let made = commands()
            guard state.outbox.count + made.count * stations.count <= Self.maximumQueued else { return .failure(.busy) }
            let online = Set(state.floor.online)
            let offline = stations.filter { !online.contains($0) }
            var ids: [String] = []
            for command in made {
                let request = FleetRequest(command, id: FleetRequest.newID())
                let id = request.id ?? ""
                ids.append(id)
                state.awaited[id] = FleetAnswers(id: id, asked: stations.filter { online.contains($0) }, offline: offline)
                state.awaitedOrder.append(id)
                for station in stations {
                    state.outbox.append(MQTTMessage(topic: FleetTopics(prefix: prefix, station: station).command, text: request.json, qos: 1))
                }
            }
            while state.awaitedOrder.count > Self.maximumAwaited { state.awaited[state.awaitedOrder.removeFirst()] = nil }
            return .success(Sent(ids: ids, offline: offline))
        }
        if case .success = queued { poke() }
        return queued
    }

    /// The answers gathered so far to the commands `ids` named (nil for one no longer kept).
    public func answers(_ ids: [String]) -> [FleetAnswers?] {
        state.withLock { state in ids.map { state.awaited[$0] } }
    }

    /// The answers to `ids` once every station asked has answered each, or as they are after
    /// `seconds` (what did not answer by then is reported as silent).
    public func awaitAnswers(_ ids: [String], within seconds: Double = ConsoleLink.answerWait) async -> [FleetAnswers] {
        // Elapsed time, on the monotonic clock: a step of the wall clock neither ends nor stretches the wait.
        let end = ContinuousClock.now + .seconds(seconds)
        while true {
            let got = answers(ids).compactMap { $0 }
            if got.allSatisfy(\.isComplete) || ContinuousClock.now >= end { return got }
            try? await Task.sleep(for: .milliseconds(20))
        }
    }

    /// Asks the gym's collector (`GymDeskAsk` of `kind`, its fields filled by `fill`) and waits
    /// for its answer, at most `seconds`: the answer (done or refused: the collector's
    /// sentence), or the console's own refusal (not connected, no answer in time).
    public func askDesk(
        _ kind: GymDeskAsk.Kind, within seconds: Double = ConsoleLink.answerWait, _ fill: (inout GymDeskAsk) -> Void = { _ in }
    ) async -> Result<GymDeskAnswer, Refusal> {
        guard GymDeskAsk.isValidToken(options.clientID) else {
            return .failure(.desk("the console's --client-id \(options.clientID) cannot name a topic for the collector's answers"))
        }
        var ask = GymDeskAsk(id: FleetRequest.newID(), reply: options.clientID, ask: kind)
        fill(&ask)
        if let refusal = queue(ask) { return .failure(refusal) }
        poke()
        let end = ContinuousClock.now + .seconds(seconds)
        while true {
            if let answer = deskAnswer(ask.id) { return .success(answer) }
            if ContinuousClock.now >= end { return .failure(.desk(Self.deskSilent)) }
            try? await Task.sleep(for: .milliseconds(20))
        }
    }

    /// Queues `ask` for the broker, its answer awaited; why not.
    private func queue(_ ask: GymDeskAsk) -> Refusal? {
        let message = MQTTMessage(topic: FleetTopics.gymAsk(prefix: prefix), payload: ask.payload, qos: 1)
        return state.withLock { state in
            guard state.connected else { return .notConnected(state.brokerProblem ?? "disconnected") }
            guard state.outbox.count < Self.maximumQueued else { return .busy }
            state.outbox.append(message)
            state.deskAnswers[ask.id] = .some(nil)
            state.deskOrder.append(ask.id)
            while state.deskOrder.count > Self.maximumAwaited { state.deskAnswers[state.deskOrder.removeFirst()] = nil }
            return nil
        }
    }

    /// The collector's answer to the ask `id`, once it came.
    private func deskAnswer(_ id: String) -> GymDeskAnswer? {
        state.withLock { $0.deskAnswers[id] ?? nil }
    }

    /// Repeats a class (`ConsoleSchedule`): its first start is checked and queued like a class
    /// started by hand (the stations must be known, the broker connected); later ones are queued
    /// by the thread as they fall due. Says which stations are offline.
    public func repeatClass(_ schedule: ConsoleSchedule) -> Result<Sent, Refusal> {
        var schedule = schedule
        let first = schedule.due(now: schedule.next - schedule.lead)
        let result = send({ first.flatMap(schedule.commands(at:)) }, to: schedule.stations)
        if case .success = result, !schedule.isOver {
            state.withLock { $0.schedules.append(schedule) }
        }
        return result
    }

    /// Keeps what a taken action did to the classes (`ConsoleClasses`) and queues each changed
    /// record, retained on its station's `class` topic (an empty payload clears one).
    public func keepClasses(_ change: (inout ConsoleClasses) -> [String: FleetClassRecord?]) {
        let prefix = prefix
        state.withLock { state in state.queueRecords(change(&state.classes), prefix: prefix) }
        poke()
    }

    /// Ends every repeating class (a start already sent stays sent); how many there were.
    public func stopRepeating() -> Int {
        state.withLock { state in
            defer { state.schedules.removeAll() }
            return state.schedules.count
        }
    }

    /// Queues the starts of repeating classes that fall due at `now` (called by the thread).
    private func queueRepeats(now: Double) {
        let prefix = prefix
        state.withLock { state in
            for index in state.schedules.indices {
                for at in state.schedules[index].due(now: now) {
                    for command in state.schedules[index].commands(at: at) {
                        let request = FleetRequest(command, id: FleetRequest.newID())
                        for station in state.schedules[index].stations where state.outbox.count < Self.maximumQueued {
                            state.outbox.append(
                                MQTTMessage(topic: FleetTopics(prefix: prefix, station: station).command, text: request.json, qos: 1))
                        }
                        // A repeat with a program is a class too: its instants, for every station
                        // asked (one that refused it runs no run of that instant, so follows nothing).
                        guard case .classStart = command else { continue }
                        let stations = state.schedules[index].stations
                        state.queueRecords(state.classes.begin(id: request.id ?? "", workBegins: at, on: stations), prefix: prefix)
                    }
                }
            }
            state.schedules.removeAll { $0.isOver }
        }
    }

    private func poke() {
        var byte: UInt8 = 1
        if wake[1] >= 0 { _ = write(wake[1], &byte, 1) }
    }

    // MARK: The thread

    private func run(_ client: MQTTClient) {
        defer {
            client.disconnect()
            done.signal()
        }
        var retryAt: ContinuousClock.Instant? = nil
        connect(client, retry: &retryAt)
        var lastTiles = ContinuousClock.now - .seconds(Self.tilesRefresh)
        while true {
            let (stop, nextRepeat) = state.withLock { ($0.stopping, $0.schedules.compactMap(\.nextSend).min()) }
            if stop { return }
            if let due = retryAt, ContinuousClock.now >= due {
                retryAt = nil
                reconnect(client, retry: &retryAt)
            }
            queueRepeats(now: wall.now)
            // Asleep until something is due: a retry, a repeating class's start, the tiles'
            // refresh, the keep-alive; a command from a page or the broker wakes it sooner.
            // (The retry and the refresh are elapsed time, on the monotonic clock; a class's start is a wall instant.)
            let now = ContinuousClock.now
            let repeatIn = nextRepeat.map { Duration.seconds(max(0, $0 - wall.now)) }
            let wait = [retryAt.map { now.duration(to: $0) }, repeatIn, now.duration(to: lastTiles + .seconds(Self.tilesRefresh))]
                .compactMap { $0 }.min() ?? .zero
            let changed = handle(waitForEvents(client, for: wait), client, retry: &retryAt)
            if changed || lastTiles.duration(to: ContinuousClock.now) >= .seconds(Self.tilesRefresh) {
                publishTiles()
                // And the scores again: past midnight, yesterday's are no longer today's.
                publishScores()
                lastTiles = ContinuousClock.now
            }
        }
    }

    /// How often the tiles go out with nothing new, so a page's "online" and clock stay fresh.
    static let tilesRefresh = 10.0

    /// Waits up to `wait` (at most the client's keep-alive interval) for the broker's socket or
    /// a poke from the HTTP side, sends what is queued, and returns what the client has to say.
    private func waitForEvents(_ client: MQTTClient, for wait: Duration) -> [MQTTEvent] {
        var fds = [pollfd(fd: wake[0], events: Int16(POLLIN), revents: 0)]
        let socket = client.socket
        if socket >= 0 {
            fds.append(pollfd(fd: socket, events: Int16(POLLIN) | (client.wantsWrite ? Int16(POLLOUT) : 0), revents: 0))
        }
        let wait = min(max(wait, .zero), client.keepAliveInterval)
        let milliseconds = wait.components.seconds * 1000 + (wait.components.attoseconds + 999_999_999_999_999) / 1_000_000_000_000_000
        _ = poll(&fds, nfds_t(fds.count), Int32(milliseconds))
        if fds[0].revents != 0 {
            var sink = [UInt8](repeating: 0, count: 64)
            while read(wake[0], &sink, sink.count) > 0 {}
        }
        var events = client.takeEvents()
        if fds.count > 1 {
            if fds[1].revents & Int16(POLLIN | POLLERR | POLLHUP) != 0 { events += client.readable() }
        }
        flush(client)
        // Without a socket there is nothing to write or keep alive: libmosquitto's loop would
        // say "not connected" each time, a loss that put the next attempt off again and again
        // (a console started before its broker never connected).
        if client.socket >= 0 {
            events += client.writable()
            events += client.maintain()
        }
        events += client.takeEvents()
        return events
    }

    /// The floor and the connection's state from `events`; whether the tiles changed.
    private func handle(_ events: [MQTTEvent], _ client: MQTTClient, retry retryAt: inout ContinuousClock.Instant?) -> Bool {
        var changed = false
        for event in events {
            switch event {
            case .connected:
                subscribe(client)
                // On a chain's central broker the console watches: it commands no station.
                if state.withLock({ $0.chain == nil }) { ping() }
                setConnected(true, problem: nil)
                log("console: connected to \(options.broker)")
                changed = true
            case .refused(let reason):
                setConnected(false, problem: "refused: \(reason)")
                log("console: \(options.broker) refused the connection: \(reason)")
                retryAt = ContinuousClock.now + retry.afterRefusal
                changed = true
            case .disconnected(let reason):
                // Said once a loss, not once an attempt: "connected to" says when it is back.
                if setConnected(false, problem: reason) {
                    log("console: lost \(options.broker): \(reason); trying again every \(retry.failureText)")
                }
                retryAt = ContinuousClock.now + retry.afterFailure
                changed = true
            case .message(let message):
                let (applied, isScores) = state.withLock { state in
                    if state.chain != nil {
                        // The leaderboard is the chain's scores; the rest is a gym's floor.
                        let board = message.topic == state.chain?.subscriptions.last
                        return (state.chain!.apply(message) && !board, board)
                    }
                    return (state.floor.apply(message), take(message, into: &state))
                }
                if applied { changed = true }
                if isScores { publishScores() }
            case .delivered, .subscribed:
                break
            }
        }
        return changed
    }

    private func connect(_ client: MQTTClient, retry retryAt: inout ContinuousClock.Instant?) {
        state.withLock { $0.attempts += 1 }
        do {
            try client.connect()
        } catch {
            setConnected(false, problem: "\(error)")
            log("console: cannot connect to \(options.broker): \(error); trying again every \(retry.failureText)")
            retryAt = ContinuousClock.now + retry.afterFailure
        }
    }

    private func reconnect(_ client: MQTTClient, retry retryAt: inout ContinuousClock.Instant?) {
        state.withLock { $0.attempts += 1 }
        do {
            try client.reconnect()
        } catch {
            setConnected(false, problem: "\(error)")
            retryAt = ContinuousClock.now + retry.afterFailure
        }
    }

    private func subscribe(_ client: MQTTClient) {
        if let chain = state.withLock({ $0.chain }) {
            for topic in chain.subscriptions { _ = try? client.subscribe(topic, qos: 1) }
            return
        }
        let every = FleetTopics.everyStation(prefix: prefix)
        _ = try? client.subscribe(every.status, qos: 1)
        _ = try? client.subscribe(every.state, qos: 1)
        _ = try? client.subscribe(FleetTopics.everyStationAthlete(prefix: prefix), qos: 1)
        _ = try? client.subscribe(FleetTopics.everyStationHealth(prefix: prefix), qos: 1)
        _ = try? client.subscribe(FleetTopics.everyStationUpdate(prefix: prefix), qos: 1)
        // At QoS 1: the answers to commands come as events, and the pages wait for them.
        _ = try? client.subscribe("\(prefix)/+/event", qos: 1)
        // The collector's answers to this console's asks, and its retained scores.
        _ = try? client.subscribe(deskAnswerTopic, qos: 1)
        _ = try? client.subscribe(FleetTopics.gymScores(prefix: prefix), qos: 1)
    }

    /// Asks every station to answer (`ping`, on `all/cmd`, after the subscriptions: the broker
    /// routes the answers here): the stations that do are live (`ConsoleFloor`), those known only
    /// from retained messages are not, and the page does not tick them for a class.
    private func ping() {
        let request = FleetRequest(.ping, id: FleetRequest.newID())
        let message = MQTTMessage(topic: "\(prefix)/all/cmd", text: request.json, qos: 1)
        state.withLock { $0.outbox.append(message) }
    }

    /// Keeps into `state` (its lock held) what `message` answers: a station's event that answers
    /// a command sent lately goes to that command's answers; the collector's answer to an ask
    /// sent lately, or its scores, are kept. True for the scores.
    private func take(_ message: MQTTMessage, into state: inout State) -> Bool {
        if !message.retain, message.topic.hasSuffix("/event"),
           let station = FleetTopics.validStation(in: message.topic, prefix: prefix),
           let (id, _) = FleetAnswer.parse(event: message.payload) {
            state.awaited[id]?.take(event: message.payload, from: station)
        }
        if message.topic == FleetTopics.gymScores(prefix: prefix) {
            state.scores = message.payload.isEmpty ? nil : message.payload
            return true
        }
        guard message.topic == deskAnswerTopic, let answer = GymDeskAnswer.read(message.payload),
              state.deskAnswers[answer.id] != nil else { return false }
        state.deskAnswers[answer.id] = .some(answer)
        return false
    }

    /// The scores' event to the pages (an equal one is not sent again).
    private func publishScores() {
        let (payload, chain) = state.withLock { ($0.scores, $0.chain) }
        if let chain {
            let today = ConsoleScoresEvent.day(wall.now)
            broadcast.publish(
                event: "scores", data: chain.leaderboardEvent(today: today), guestData: chain.leaderboardEvent(today: today, for: .guest))
            return
        }
        let today = ConsoleScoresEvent.day(wall.now)
        broadcast.publish(
            event: "scores", data: ConsoleScoresEvent.json(payload, today: today),
            guestData: ConsoleScoresEvent.json(payload, today: today, for: .guest))
    }

    /// Publishes what is queued, while connected (a command waits for the broker otherwise).
    private func flush(_ client: MQTTClient) {
        let messages: [MQTTMessage] = state.withLock { state in
            guard state.connected else { return [] }
            defer { state.outbox.removeAll() }
            return state.outbox
        }
        for message in messages {
            do {
                _ = try client.publish(message)
            } catch {
                log("console: could not publish to \(message.topic): \(error)")
            }
        }
    }

    /// Sets the connection's state; says whether it was connected before.
    @discardableResult
    private func setConnected(_ value: Bool, problem: String?) -> Bool {
        state.withLock { state in
            defer { (state.connected, state.brokerProblem) = (value, problem) }
            return state.connected
        }
    }

    private func publishTiles() {
        let (tiles, connected, problem) = snapshot()
        var floor = ConsoleFloorEvent(now: wall.now, connected: connected, broker: options.broker, problem: problem, tiles: tiles)
        if let chain = state.withLock({ $0.chain }) {
            // The gym picker's floors: each gym's tiles, the page shows the chosen one's.
            let now = wall.now
            floor.gyms = Dictionary(uniqueKeysWithValues: chain.gyms.map { ($0, chain.tiles(gym: $0, now: now)) })
        }
        broadcast.publish(event: "floor", data: floor.json, guestData: floor.forGuests.json)
    }
}

/// The MQTT client handed to the link's thread, which is its only user from then on.
/// `@unchecked Sendable` only to cross into that thread's closure: it is never shared (the
/// client itself is not thread-safe, libmosquitto's calls are made from that thread alone).
private final class OwnedClient: @unchecked Sendable {
    let client: MQTTClient
    init(_ client: MQTTClient) { self.client = client }
}
