#if canImport(Glibc)
import Glibc
#endif
import GymTimerCore
import GymTimerMQTT

/// One MQTT client's connection life cycle on a loop's timeline, the same for the station and
/// the collector: connect (reconnect after the first time), give up on a broker that does not
/// answer within `connectTimeout`, back off with `ReconnectBackoff` after a loss (one log line
/// per outage, one when it is over), keep alive at the client's interval. The loop polls
/// `pollRequest`, calls `serve(revents:)` when poll says so and `fire(at:)` at `nextDeadline`;
/// both hand back what the application hears (connected, a message, a delivery). Time comes
/// from `now` (a `Moment` on the loop's timeline), so the life cycle runs in virtual time too.
///
/// With the client's `deferWrites`, messages are acknowledged only when the application says
/// they are handled (`acknowledge()`), or never, when it cannot handle them (`drop(_:)`).
public final class FleetConnection {
    /// What the application hears of the connection.
    public enum Event: Hashable, Sendable {
        /// The broker accepted the connection: subscribe and publish now.
        case connected
        /// A message on a subscribed topic.
        case message(MQTTMessage)
        /// The broker has the message with this id.
        case delivered(mid: Int32)
        /// The broker granted the subscription with this id.
        case subscribed(mid: Int32)
    }

    public let client: any MQTTTransport
    /// How long a connection may take before it counts as lost (a broker whose host drops
    /// the packets never answers).
    public static let connectTimeout: Duration = .seconds(10)
    /// How often a connection in progress is looked after (written, timed out).
    static let connectingTick: Duration = .seconds(1)

    private let now: () -> Moment
    private let log: (String) -> Void
    private let name: String
    private let broker: String
    private let whileAway: String
    private var backoff = ReconnectBackoff()
    /// Back-off after messages that could not be handled (reset by the first handled ones).
    private var dropBackoff = ReconnectBackoff()
    public private(set) var isConnected = false
    private var connectingSince: Moment?
    private var reconnectAt: Moment?
    private var lastMaintain: Moment?
    private var attempts = 0
    /// Messages handed out whose acknowledgements wait for `acknowledge()` (`deferWrites`).
    private var unacknowledged = false

    /// Looks after `client`'s connection from `now()` on: the first attempt is due at once.
    /// Log lines start with `name` ("fleet", "collect"), name `broker` and end a loss's line
    /// with `whileAway` (what goes on meanwhile).
    public init(client: any MQTTTransport, name: String, broker: String, whileAway: String, now: @escaping () -> Moment,
                log: @escaping (String) -> Void) {
        self.client = client
        self.name = name
        self.broker = broker
        self.whileAway = whileAway
        self.now = now
        self.log = log
        reconnectAt = now()
    }

    /// Whether a connection is being set up (the TCP and MQTT handshakes).
    public var isConnecting: Bool { connectingSince != nil }

    /// The socket to poll and for what (writing too while something is queued and may go),
    /// or nil while there is none.
    public var pollRequest: pollfd? {
        guard client.socket >= 0 else { return nil }
        let write = client.wantsWrite && !unacknowledged
        return pollfd(fd: client.socket, events: Int16(POLLIN) | (write ? Int16(POLLOUT) : 0), revents: 0)
    }

    /// When `fire(at:)` is next due: the keep-alive while connected, the next look at a
    /// connection in progress (and its time-out), the next attempt after a loss.
    public var nextDeadline: Moment {
        // A transport without a socket (the in-memory twin) has its events ready: take them now.
        if client.hasEvents { return now() }
        if isConnected { return (lastMaintain ?? now()) + client.keepAliveInterval }
        if let since = connectingSince {
            return min((lastMaintain ?? since) + Self.connectingTick, since + Self.connectTimeout)
        }
        return reconnectAt ?? now()
    }

    /// Poll said the socket is ready (`revents`): writes what may go, reads what came.
    public func serve(revents: Int16) -> [Event] {
        var events = client.takeEvents()
        if client.options.deferWrites {
            // Write first: what is queued now acknowledges only messages already handled.
            if revents & Int16(POLLOUT) != 0 && !unacknowledged { events += client.writable() }
            if revents & Int16(POLLIN | POLLERR | POLLHUP) != 0 { events += client.readable() }
            return interpret(events)
        }
        if revents & Int16(POLLIN | POLLERR | POLLHUP) != 0 { events += client.readable() }
        if revents & Int16(POLLOUT) != 0 || client.wantsWrite { events += client.writable() }
        return interpret(events)
    }

    /// Does what fell due at or before `at`: an attempt to connect, a time-out, the keep-alive.
    public func fire(at moment: Moment) -> [Event] {
        // What a transport without a socket has ready (the twin's deliveries, a loss).
        let ready = client.hasEvents ? interpret(client.takeEvents()) : []
        return ready + due(at: moment)
    }

    /// The connection's own deadlines that fell due at or before `moment`.
    private func due(at moment: Moment) -> [Event] {
        if !isConnected && connectingSince == nil {
            guard let due = reconnectAt, due <= moment else { return [] }
            connect(at: moment)
            // The CONNECT goes at once (deferred writes would wait for the next poll).
            guard client.wantsWrite, client.isOpen else { return [] }
            return interpret(client.writable())
        }
        if let since = connectingSince, moment - since >= Self.connectTimeout {
            _ = try? client.drop()
            lost("no answer in \(Self.connectTimeout)", at: moment)
            return []
        }
        let interval = isConnected ? client.keepAliveInterval : Self.connectingTick
        guard (lastMaintain ?? moment) + interval <= moment else { return [] }
        lastMaintain = moment
        var events = client.maintain()
        // A loop that polls for reading only (the hardware's) writes what is still queued here.
        if client.wantsWrite && !unacknowledged && client.isOpen { events += client.writable() }
        return interpret(events)
    }

    /// The messages handed out so far are handled (stored): writes their acknowledgements (with
    /// `deferWrites`) and whatever else is queued.
    public func acknowledge() {
        if unacknowledged, dropBackoff.connected() { log("\(name): messages are handled again") }
        unacknowledged = false
        guard client.options.deferWrites, client.wantsWrite, client.isOpen else { return }
        _ = interpret(client.writable())
    }

    /// The messages handed out so far cannot be handled now: closes the connection without
    /// acknowledging them (with `deferWrites`; the broker sends them again to the persistent
    /// session), logs `reason` once until messages are handled again, and reconnects after
    /// a back-off.
    public func drop(_ reason: String) {
        unacknowledged = false
        do {
            try client.drop()
        } catch {
            log("\(name): \(error)")
        }
        let (wait, report) = dropBackoff.lost()
        if report { log("\(name): \(reason) (not acknowledged: the broker sends it again; reconnecting with back-off)") }
        down(until: now() + wait)
    }

    /// The connection is no good (a subscribe or publish failed): closes it and reconnects
    /// after a back-off, as after a loss.
    public func lose(_ reason: String) {
        unacknowledged = false
        _ = try? client.drop()
        lost(reason, at: now())
    }

    /// Says goodbye (DISCONNECT, so no will), for a clean stop; messages not handled are not
    /// acknowledged.
    public func disconnect() {
        if unacknowledged {
            _ = try? client.drop()
        } else {
            client.disconnect()
        }
        unacknowledged = false
        isConnected = false
        connectingSince = nil
    }

    // MARK: The life cycle

    /// The application's events among `events`; a loss or refusal schedules the next attempt.
    func interpret(_ events: [MQTTEvent]) -> [Event] {
        var out: [Event] = []
        for event in events {
            switch event {
            case .connected:
                isConnected = true
                connectingSince = nil
                if backoff.connected() { log("\(name): connected to \(broker)") }
                out.append(.connected)
            case .refused(let reason):
                // A refusal is followed by the closed socket's `disconnected`: one loss.
                if isConnected || connectingSince != nil { lost("refused: \(reason)", at: now()) }
            case .disconnected(let reason):
                if isConnected || connectingSince != nil { lost(reason, at: now()) }
            case .message(let message):
                if client.options.deferWrites { unacknowledged = true }
                out.append(.message(message))
            case .delivered(let mid):
                out.append(.delivered(mid: mid))
            case .subscribed(let mid):
                out.append(.subscribed(mid: mid))
            }
        }
        return out
    }

    private func connect(at moment: Moment) {
        do {
            if attempts == 0 { try client.connect() } else { try client.reconnect() }
            attempts += 1
            connectingSince = moment
            lastMaintain = moment
        } catch {
            attempts += 1
            lost("\(error)", at: moment)
        }
    }

    private func lost(_ reason: String, at moment: Moment) {
        let (wait, report) = backoff.lost()
        if report { log("\(name): broker \(broker) unreachable: \(reason) (\(whileAway))") }
        down(until: moment + wait)
    }

    private func down(until next: Moment) {
        isConnected = false
        connectingSince = nil
        reconnectAt = next
    }
}
