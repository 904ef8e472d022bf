/// What the fleet's loops use of an MQTT client, so they run over a real broker (`MQTTClient`,
/// libmosquitto on a socket) or over the in-memory twin (GymTimerSimulation's
/// `InMemoryBroker`, in virtual time, no socket). Driven from the caller's loop, never a thread
/// of its own: the loop polls `socket` when there is one, calls `readable()` / `writable()`
/// when poll says so and `maintain()` at `keepAliveInterval` at the latest; a transport with
/// no socket has its events ready at once (`hasEvents`), and the loop takes them at its next
/// step. What happened comes back as `MQTTEvent`s.
public protocol MQTTTransport: AnyObject {
    /// How to reach the broker and who we are.
    var options: MQTTClient.Options { get }
    /// Starts connecting; `connected` (or `refused`) follows as an event.
    func connect() throws(MQTTError)
    /// Connects again after a loss or a `drop()`, with the same options.
    func reconnect() throws(MQTTError)
    /// Says goodbye (DISCONNECT: no will), writing what is queued first.
    func disconnect()
    /// Closes the connection at once, writing nothing still queued (acknowledgements of
    /// messages not handled included: a persistent session gets them again). No event follows.
    func drop() throws(MQTTError)
    /// The socket to poll, or -1 while there is none (always, for a transport without one).
    var socket: Int32 { get }
    /// Whether a connection is open or being opened (a socket, or the twin's link), so that
    /// writing what is queued means something.
    var isOpen: Bool { get }
    /// Whether something is queued to write (poll for POLLOUT too; with `deferWrites`, what
    /// `writable()` would send).
    var wantsWrite: Bool { get }
    /// Whether events are waiting to be taken without any I/O: the loop should take them
    /// (`takeEvents()`) now. Never for the socket client, whose events come from its calls.
    var hasEvents: Bool { get }
    /// The socket was readable: reads what arrived.
    func readable() -> [MQTTEvent]
    /// The socket was writable: writes what is queued.
    func writable() -> [MQTTEvent]
    /// Keep-alive and retries; call at least every `keepAliveInterval`.
    func maintain() -> [MQTTEvent]
    /// How often `maintain()` must run while connected.
    var keepAliveInterval: Duration { get }
    /// Queues a message; returns its id, which a `delivered` event names once the broker has it.
    @discardableResult
    func publish(_ message: MQTTMessage) throws(MQTTError) -> Int32
    /// Subscribes to `topic` (wildcards allowed) at `qos`; returns the id `subscribed` names.
    @discardableResult
    func subscribe(_ topic: String, qos: Int) throws(MQTTError) -> Int32
    /// The events since the last call.
    func takeEvents() -> [MQTTEvent]
}

/// Makes the transport for a connection's options: the real client, or a twin's.
public typealias MQTTTransportFactory = (MQTTClient.Options) throws(MQTTError) -> any MQTTTransport

extension MQTTClient: MQTTTransport {
    /// The real client over libmosquitto.
    public static var factory: MQTTTransportFactory { { (options) throws(MQTTError) in try MQTTClient(options) } }

    public var isOpen: Bool { socket >= 0 }
    public var hasEvents: Bool { false }
}
