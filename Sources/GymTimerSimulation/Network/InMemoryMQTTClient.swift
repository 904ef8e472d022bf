import GymTimerMQTT

/// A client of an `InMemoryBroker`, the twin of `MQTTClient` behind `MQTTTransport`: the same
/// calls and events, no socket (`socket` is -1, so a loop has nothing to poll for it). What the
/// broker sends waits in `takeEvents()` (`hasEvents`) until the loop's next step; what the
/// client sends reaches the broker at once, or, with `deferWrites`, at the next `writable()`
/// (acknowledgements of received QoS 1 messages included, so a durable subscriber lets the
/// broker forget a message only once it has stored it, as with libmosquitto).
public final class InMemoryMQTTClient: MQTTTransport {
    public let options: MQTTClient.Options
    private unowned let broker: InMemoryBroker
    private enum Link { case closed, connecting, open }
    private var link = Link.closed
    private var pending: [MQTTEvent] = []
    /// What `deferWrites` holds until `writable()`.
    private enum Packet {
        case publish(MQTTMessage, mid: Int32)
        case subscribe(String, qos: Int, mid: Int32)
        case acknowledge(Int)
    }
    private var outgoing: [Packet] = []
    /// QoS 1 messages delivered, not yet taken (acknowledged when taken, or with
    /// `deferWrites` at the `writable()` after), by their place in `pending`.
    private var unacknowledged: [Int] = []
    private var lastMID: Int32 = 0

    init(broker: InMemoryBroker, options: MQTTClient.Options) {
        self.broker = broker
        self.options = options
    }

    public func connect() throws(MQTTError) {
        if link != .closed { broker.disconnect(self, clean: false) }
        pending.removeAll()
        unacknowledged.removeAll()
        outgoing.removeAll()
        link = .connecting
        do {
            try broker.connect(self)
        } catch {
            link = .closed
            throw error
        }
    }

    public func reconnect() throws(MQTTError) { try connect() }

    public func disconnect() {
        guard link != .closed else { return }
        if options.deferWrites { send() }
        broker.disconnect(self, clean: true)
        link = .closed
        outgoing.removeAll()
        pending.append(.disconnected(reason: "disconnected"))
    }

    public func drop() throws(MQTTError) {
        pending.removeAll()
        unacknowledged.removeAll()
        outgoing.removeAll()
        if link != .closed { broker.disconnect(self, clean: false) }
        link = .closed
    }

    public var socket: Int32 { -1 }
    public var isOpen: Bool { link != .closed }
    public var wantsWrite: Bool { !outgoing.isEmpty }

    public var hasEvents: Bool {
        broker.expire()
        return !pending.isEmpty
    }

    public func readable() -> [MQTTEvent] { takeEvents() }

    /// Writes what is queued. The broker's answers (SUBACK, PUBACK) come as events to take
    /// later, as a real broker's come on a later read: none is returned here.
    public func writable() -> [MQTTEvent] {
        send()
        return []
    }

    public func maintain() -> [MQTTEvent] {
        // The keep-alive's PINGREQ (the broker hears us), or nothing while no link is up.
        if link == .open { broker.heard(from: self) }
        return takeEvents()
    }

    public var keepAliveInterval: Duration { .seconds(max(1, options.keepAlive / 2)) }

    @discardableResult
    public func publish(_ message: MQTTMessage) throws(MQTTError) -> Int32 {
        guard link == .open else { throw notConnected("publish to \(message.topic)") }
        guard InMemoryBroker.isValid(topic: message.topic), (0...2).contains(message.qos) else {
            throw .client(operation: "publish to \(message.topic)", broker: options.broker, detail: "Invalid arguments provided.")
        }
        let mid = nextMID()
        if options.deferWrites {
            outgoing.append(.publish(message, mid: mid))
        } else {
            published(message, mid: mid)
        }
        return mid
    }

    @discardableResult
    public func subscribe(_ topic: String, qos: Int) throws(MQTTError) -> Int32 {
        guard link == .open else { throw notConnected("subscribe to \(topic)") }
        guard InMemoryBroker.isValid(filter: topic), (0...2).contains(qos) else {
            throw .client(operation: "subscribe to \(topic)", broker: options.broker, detail: "Invalid arguments provided.")
        }
        let mid = nextMID()
        if options.deferWrites {
            outgoing.append(.subscribe(topic, qos: qos, mid: mid))
        } else {
            broker.subscribe(topic, qos: qos, mid: mid, from: self)
        }
        return mid
    }

    public func takeEvents() -> [MQTTEvent] {
        broker.expire()
        let taken = pending
        pending.removeAll()
        // Taken QoS 1 messages are acknowledged: at once, or with the next write.
        for id in unacknowledged {
            if options.deferWrites { outgoing.append(.acknowledge(id)) } else { broker.acknowledge(id, from: self) }
        }
        unacknowledged.removeAll()
        return taken
    }

    // MARK: What the broker calls

    /// The broker accepted the connection.
    func attached() { link = .open }

    /// An event from the broker.
    func receive(_ event: MQTTEvent) { pending.append(event) }

    /// A message from the broker; `id` is the delivery to acknowledge (QoS 1).
    func deliver(_ message: MQTTMessage, id: Int) {
        pending.append(.message(message))
        if message.qos > 0 { unacknowledged.append(id) }
    }

    /// The broker ended the link (it went down, cut it, or gave up on the keep-alive).
    func lost(_ reason: String) {
        link = .closed
        outgoing.removeAll()
        unacknowledged.removeAll()
        pending.append(.disconnected(reason: reason))
    }

    // MARK: Inside

    /// Writes what `deferWrites` held, in order.
    private func send() {
        guard link == .open else { return }
        let packets = outgoing
        outgoing.removeAll()
        for packet in packets {
            switch packet {
            case .publish(let message, let mid): published(message, mid: mid)
            case .subscribe(let topic, let qos, let mid): broker.subscribe(topic, qos: qos, mid: mid, from: self)
            case .acknowledge(let id): broker.acknowledge(id, from: self)
            }
        }
    }

    /// The broker has the message: its PUBACK (QoS 1) or its sending (QoS 0) is `delivered`.
    private func published(_ message: MQTTMessage, mid: Int32) {
        broker.publish(message, from: self)
        pending.append(.delivered(mid: mid))
    }

    private func nextMID() -> Int32 {
        lastMID = lastMID >= 65535 ? 1 : lastMID + 1
        return lastMID
    }

    private func notConnected(_ operation: String) -> MQTTError {
        .client(operation: operation, broker: options.broker, detail: "The client is not currently connected.")
    }
}
