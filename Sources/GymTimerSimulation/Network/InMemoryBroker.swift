import GymTimerMQTT

/// An MQTT broker in memory, the twin of Mosquitto for the fleet's tests, fuzzing and the
/// scripted simulator: no socket, no thread, no timer. Its clients (`InMemoryMQTTClient`,
/// made by `factory`) hand it their packets when their loop calls them, and it hands their
/// events back at once, to be taken at their loop's next step; time is the injected `now`
/// (a virtual clock), read for keep-alive only. What it honours of MQTT 3.1.1 as Mosquitto
/// does: QoS 0 and 1 (a QoS 1 message is kept until its receiver acknowledges it, and sent
/// again when a persistent session comes back), retained messages (sent with `retain` set to a
/// new subscription, never to an established one; an empty payload clears one), `+` and `#`
/// filters (not matching `$` topics at the first level), clean and persistent sessions (QoS 1
/// messages queued while away, at most `maxQueued`, as `max_queued_messages`), wills on an
/// unclean end (a dropped client, a severed link, a keep-alive missed by half again), a
/// client id taken over by a new connection, a broker that goes down and comes back with
/// or without its state, and shared subscriptions (`$share/{group}/{filter}`: each message to
/// one session of the group, turn by turn among those connected, to a persistent one away when
/// none is; no retained messages), as Mosquitto 2 gives them to MQTT 3.1.1 clients too.
public final class InMemoryBroker {
    /// The broker's clock (read for keep-alive).
    private let now: () -> Duration
    /// Whether connections are accepted (false: refused, as a closed port).
    public private(set) var isUp = true
    /// Whether a CONNECT is answered (false: a host that drops the packets, connects hang).
    public var answers = true
    /// Refuses a connection with a reason (bad credentials, not authorised), or accepts it (nil).
    public var authorise: (MQTTClient.Options) -> String? = { _ in nil }
    /// At most this many QoS 1 messages wait for a persistent session while it is away; more are dropped.
    public var maxQueued = 1000
    /// The retained messages, by topic.
    public private(set) var retained: [String: MQTTMessage] = [:]
    /// Every message the broker accepted from a client (wills included), in order, for tests.
    public private(set) var published: [MQTTMessage] = []
    /// Messages dropped because a session's queue was full.
    public private(set) var droppedQueued = 0
    private var sessions: [String: Session] = [:]
    /// Clients given messages with the retain flag they were published with (a bridge's, as
    /// Mosquitto does for a bridge that says it is one: `try_private`), not cleared.
    public var retainAsPublished: Set<String> = []

    /// A broker on the timeline `now` (a virtual clock's).
    public init(now: @escaping () -> Duration) {
        self.now = now
    }

    /// Makes clients of this broker: pass it where a `MQTTTransportFactory` is taken.
    public var factory: MQTTTransportFactory {
        { [unowned self] (options) throws(MQTTError) in InMemoryMQTTClient(broker: self, options: options) }
    }

    /// The ids of the clients connected now.
    public var connectedClients: [String] { sessions.values.filter { $0.client != nil }.map(\.clientID).sorted() }

    /// QoS 1 messages waiting for the persistent session `clientID` (queued while away or not
    /// acknowledged yet).
    public func waiting(for clientID: String) -> Int {
        sessions[clientID].map { $0.queue.count + $0.inflight.count } ?? 0
    }

    /// The broker stops: every client loses its connection (no will: the broker is gone).
    /// With `forgetting`, retained messages and sessions are gone too (no persistence, a wiped
    /// broker); otherwise they are there when it comes back (Mosquitto's persistence).
    public func goDown(forgetting: Bool = false) {
        isUp = false
        for session in sessions.values {
            guard let client = session.client else { continue }
            session.client = nil
            client.lost("connection lost")
        }
        if forgetting {
            sessions.removeAll()
            retained.removeAll()
        }
        sessions = sessions.filter { !$0.value.clean }
    }

    /// The broker accepts connections again.
    public func comeUp() { isUp = true }

    /// Cuts `clientID`'s link as a vanished network or a killed process would: an unclean end,
    /// so its will is published; the client finds its connection lost.
    public func sever(_ clientID: String) {
        guard let session = sessions[clientID], let client = session.client else { return }
        end(session, clean: false)
        client.lost("connection lost")
    }

    /// When a connected client's keep-alive runs out next (for a loop that wants to be exact;
    /// it is also checked whenever any client calls the broker).
    public var nextDeadline: Duration? {
        sessions.values.compactMap { session in session.client.map { _ in session.expiry } }.min()
    }

    /// Ends the connections whose keep-alive ran out (half again as long as agreed with no
    /// packet): their wills are published.
    func expire() {
        let at = now()
        for session in sessions.values.sorted(by: { $0.clientID < $1.clientID }) where session.client != nil && session.expiry < at {
            let client = session.client
            end(session, clean: false)
            client?.lost("connection lost (keep-alive)")
        }
    }

    // MARK: What clients call

    /// A CONNECT from `client`: refused (thrown) while down, unanswered while not answering,
    /// else accepted (`connected`, then what the persistent session kept) or refused by `authorise`.
    func connect(_ client: InMemoryMQTTClient) throws(MQTTError) {
        expire()
        let options = client.options
        guard isUp else {
            throw .client(operation: "connect", broker: options.broker, detail: "Connection refused")
        }
        guard answers else { return }
        if let reason = authorise(options) {
            client.receive(.refused(reason: reason))
            client.lost("connection lost")
            return
        }
        if let old = sessions[options.clientID] {
            // A client id taken over: the old connection ends uncleanly (its will is published).
            if let previous = old.client, previous !== client {
                end(old, clean: false)
                previous.lost("session taken over")
            }
            if options.cleanSession || old.clean { sessions[options.clientID] = nil }
        }
        let session = sessions[options.clientID] ?? Session(clientID: options.clientID, clean: options.cleanSession)
        sessions[options.clientID] = session
        session.clean = options.cleanSession
        session.client = client
        session.will = options.will
        session.keepAlive = .seconds(options.keepAlive)
        session.lastSeen = now()
        client.attached()
        client.receive(.connected)
        // Messages sent but not acknowledged before, then those queued while away.
        for (id, message) in session.inflight.sorted(by: { $0.key < $1.key }) { client.deliver(message, id: id) }
        let queued = session.queue
        session.queue.removeAll()
        for message in queued { send(message, to: session) }
    }

    /// A DISCONNECT (`clean`: no will) or a dropped link (a will) from `client`.
    func disconnect(_ client: InMemoryMQTTClient, clean: Bool) {
        guard let session = sessions[client.options.clientID], session.client === client else { return }
        end(session, clean: clean)
    }

    /// A packet from `client`: it is alive.
    func heard(from client: InMemoryMQTTClient) {
        expire()
        guard let session = sessions[client.options.clientID], session.client === client else { return }
        session.lastSeen = now()
    }

    /// A PUBLISH from `client`: kept if retained, sent to every matching subscription.
    func publish(_ message: MQTTMessage, from client: InMemoryMQTTClient) {
        heard(from: client)
        route(message)
    }

    /// A SUBSCRIBE from `client`: granted, then the retained messages it matches, with `retain` set.
    func subscribe(_ filter: String, qos: Int, mid: Int32, from client: InMemoryMQTTClient) {
        heard(from: client)
        guard let session = sessions[client.options.clientID], session.client === client else { return }
        session.subscriptions[filter] = min(max(qos, 0), 1)
        client.receive(.subscribed(mid: mid))
        guard SharedFilter(filter) == nil else { return }
        for topic in retained.keys.sorted() where Self.matches(filter: filter, topic: topic) {
            guard var message = retained[topic] else { continue }
            message.retain = true
            message.qos = min(message.qos, session.subscriptions[filter] ?? 0)
            send(message, to: session)
        }
    }

    /// A PUBACK from `client` for the message it got as `id`.
    func acknowledge(_ id: Int, from client: InMemoryMQTTClient) {
        guard let session = sessions[client.options.clientID], session.client === client else { return }
        session.inflight[id] = nil
    }

    // MARK: Inside

    private func end(_ session: Session, clean: Bool) {
        session.client = nil
        let will = session.will
        if session.clean { sessions[session.clientID] = nil }
        if !clean, let will { route(will) }
    }

    private func route(_ message: MQTTMessage) {
        published.append(message)
        if message.retain {
            if message.payload.isEmpty { retained[message.topic] = nil } else { retained[message.topic] = message }
        }
        let ordered = sessions.values.sorted(by: { $0.clientID < $1.clientID })
        for session in ordered {
            // One copy per session, at the highest QoS of the subscriptions it matches.
            let granted = session.subscriptions.filter { SharedFilter($0.key) == nil && Self.matches(filter: $0.key, topic: message.topic) }
                .map(\.value).max()
            guard let granted else { continue }
            deliver(message, qos: granted, to: session, keepingRetain: retainAsPublished.contains(session.clientID))
        }
        routeShared(message, among: ordered)
    }

    /// One copy for each share group whose filter `message` matches, to one of its sessions.
    private func routeShared(_ message: MQTTMessage, among ordered: [Session]) {
        var groups: [String: [(session: Session, qos: Int)]] = [:]
        for session in ordered {
            for (filter, qos) in session.subscriptions {
                guard let shared = SharedFilter(filter), Self.matches(filter: shared.filter, topic: message.topic) else { continue }
                groups[shared.group, default: []].append((session, qos))
            }
        }
        for group in groups.keys.sorted() {
            guard let members = groups[group] else { continue }
            let connected = members.filter { $0.session.client != nil }
            let turn = shareTurns[group, default: 0]
            shareTurns[group] = turn + 1
            let chosen = connected.isEmpty ? members.first { !$0.session.clean } : connected[turn % connected.count]
            if let chosen { deliver(message, qos: chosen.qos, to: chosen.session) }
        }
    }

    /// A routed copy of `message` (never retained) at the lower of its QoS and `qos`.
    private func deliver(_ message: MQTTMessage, qos: Int, to session: Session, keepingRetain: Bool = false) {
        var copy = message
        copy.retain = keepingRetain && message.retain
        copy.qos = min(message.qos, qos)
        send(copy, to: session)
    }

    /// How many messages each share group was given (whose turn is next).
    private var shareTurns: [String: Int] = [:]

    /// A shared subscription's group and filter (`$share/{group}/{filter}`), nil for any other filter.
    struct SharedFilter {
        let group: String
        let filter: String

        init?(_ text: String) {
            let levels = text.split(separator: "/", maxSplits: 2, omittingEmptySubsequences: false)
            guard levels.count == 3, levels[0] == "$share", !levels[1].isEmpty, !levels[2].isEmpty else { return nil }
            group = String(levels[1])
            filter = String(levels[2])
        }
    }

    /// To the session's client if connected; queued (QoS 1, persistent session) if not.
    private func send(_ message: MQTTMessage, to session: Session) {
        guard let client = session.client else {
            guard message.qos > 0, !session.clean else { return }
            guard session.queue.count < maxQueued else {
                droppedQueued += 1
                return
            }
            session.queue.append(message)
            return
        }
        session.nextID += 1
        if message.qos > 0 { session.inflight[session.nextID] = message }
        client.deliver(message, id: session.nextID)
    }

    /// Whether `topic` matches the subscription `filter` (`+` one level, `#` the rest).
    public static func matches(filter: String, topic: String) -> Bool {
        let f = filter.split(separator: "/", omittingEmptySubsequences: false)
        let t = topic.split(separator: "/", omittingEmptySubsequences: false)
        // Wildcards never match a `$` topic at the first level ($SYS).
        if topic.hasPrefix("$"), let first = f.first, first == "+" || first == "#" { return false }
        for (index, level) in f.enumerated() {
            if level == "#" { return true }
            guard index < t.count else { return false }
            if level != "+" && level != t[index] { return false }
        }
        return f.count == t.count
    }

    /// Whether `filter` is a valid subscription (`#` alone and last, `+` a whole level).
    static func isValid(filter: String) -> Bool {
        guard !filter.isEmpty, filter.utf8.count <= 65535 else { return false }
        let levels = filter.split(separator: "/", omittingEmptySubsequences: false)
        for (index, level) in levels.enumerated() {
            if level.contains("#") && (level != "#" || index != levels.count - 1) { return false }
            if level.contains("+") && level != "+" { return false }
        }
        return true
    }

    /// Whether `topic` may be published to (no wildcards, not empty).
    static func isValid(topic: String) -> Bool {
        !topic.isEmpty && topic.utf8.count <= 65535 && !topic.contains("+") && !topic.contains("#")
    }

    /// What the broker keeps of one client id.
    final class Session {
        let clientID: String
        var clean: Bool
        var client: InMemoryMQTTClient?
        var subscriptions: [String: Int] = [:]
        /// QoS 1 messages waiting while the client is away.
        var queue: [MQTTMessage] = []
        /// QoS 1 messages sent and not acknowledged, by delivery id.
        var inflight: [Int: MQTTMessage] = [:]
        var nextID = 0
        var will: MQTTMessage?
        var keepAlive: Duration = .seconds(60)
        var lastSeen: Duration = .zero

        init(clientID: String, clean: Bool) {
            self.clientID = clientID
            self.clean = clean
        }

        /// When the broker gives up on a silent client (MQTT: one and a half keep-alives; a
        /// keep-alive of 0 is none).
        var expiry: Duration { keepAlive > .zero ? lastSeen + keepAlive * 3 / 2 : .seconds(Int64.max / 4) }
    }
}
