import CMosquittoShim
import Glibc
import GymTimerHAL
import SystemPackage

/// An MQTT client over libmosquitto that runs inside the caller's event loop: no thread of its
/// own. The loop polls `socket` (for writing too while `wantsWrite`), calls `readable()` /
/// `writable()` when poll says so and `maintain()` at `keepAliveInterval` at the latest (the
/// keep-alive ping); what happened comes back as `MQTTEvent`s. Reconnecting is the caller's
/// call (`reconnect()`), so the back-off is one more deadline in the same loop.
public final class MQTTClient {
    /// How to reach the broker and who we are.
    public struct Options: Sendable {
        public var clientID: String
        public var host: String
        public var port: Int
        public var tls: Bool
        public var caFile: String?
        public var username: String?
        public var password: String?
        /// Seconds between keep-alive pings the broker expects (and after 1.5× of which it
        /// publishes the will).
        public var keepAlive: Int
        /// A clean session forgets subscriptions and queued QoS 1 messages at disconnect; a
        /// durable subscriber (the collector) keeps them.
        public var cleanSession: Bool
        /// Published by the broker when the connection ends without a DISCONNECT.
        public var will: MQTTMessage?
        /// Queue every packet, acknowledgements of received QoS 1 messages included, until the
        /// next `writable()`, instead of writing it at once: a durable subscriber stores what
        /// `readable()` brought, and only then lets the broker forget it (or `drop()`s the
        /// connection, and the broker sends it again). See `deferringWrites` below for why
        /// libmosquitto 2.0 does this.
        public var deferWrites: Bool
        /// The largest packet the broker may send this client, in bytes (MQTT v5's maximum
        /// packet size, so the client speaks v5): the broker drops a larger message for it
        /// rather than send it, so an oversized one is never read into memory. nil: no limit, v3.1.1.
        public var maximumPacketSize: Int?

        public init(
            clientID: String, host: String, port: Int, tls: Bool = false, caFile: String? = nil,
            username: String? = nil, password: String? = nil, keepAlive: Int = 30, cleanSession: Bool = true,
            will: MQTTMessage? = nil, deferWrites: Bool = false, maximumPacketSize: Int? = nil
        ) {
            self.clientID = clientID
            self.host = host
            self.port = port
            self.tls = tls
            self.caFile = caFile
            self.username = username
            self.password = password
            self.keepAlive = keepAlive
            self.cleanSession = cleanSession
            self.will = will
            self.deferWrites = deferWrites
            self.maximumPacketSize = maximumPacketSize
        }

        /// `mqtt://host:port` for messages.
        public var broker: String { "\(tls ? "mqtts" : "mqtt")://\(host):\(port)" }
    }

    public let options: Options
    private let handle: OpaquePointer
    /// Events the callbacks produced since the last `takeEvents()`.
    private var pending: [MQTTEvent] = []

    /// Sets the client up; nothing is sent until `connect()`.
    public init(_ options: Options) throws(MQTTError) {
        if let missing = gt_mosquitto_load() {
            throw .client(
                operation: "load libmosquitto", broker: options.broker,
                detail: String(cString: missing) + " (apt-get install libmosquitto1; deploy/install.sh does)")
        }
        _ = Self.libraryReady
        self.options = options
        guard let handle = gt_mosquitto_new(options.clientID, options.cleanSession, nil) else {
            throw .client(operation: "create client", broker: options.broker, detail: Errno.last.text)
        }
        self.handle = handle
        try configure()
    }

    /// Applies `options` and the callbacks to the libmosquitto client (again after `drop()`).
    private func configure() throws(MQTTError) {
        gt_mosquitto_user_data_set(handle, Unmanaged.passUnretained(self).toOpaque())
        _ = gt_mosquitto_int_option(handle, MOSQ_OPT_PROTOCOL_VERSION, Int32(MQTT_PROTOCOL_V311))
        gt_mosquitto_connect_callback_set(handle, onConnect)
        gt_mosquitto_disconnect_callback_set(handle, onDisconnect)
        gt_mosquitto_message_callback_set(handle, onMessage)
        gt_mosquitto_publish_callback_set(handle, onPublish)
        gt_mosquitto_subscribe_callback_set(handle, onSubscribe)
        if options.username != nil || options.password != nil {
            try check(gt_mosquitto_username_pw_set(handle, options.username, options.password), "set the user name")
        }
        if let will = options.will {
            try check(will.payload.withUnsafeBytes {
                gt_mosquitto_will_set(handle, will.topic, Int32($0.count), $0.baseAddress, Int32(will.qos), will.retain)
            }, "set the will")
        }
        if options.tls {
            try check(gt_mosquitto_tls_set(handle, options.caFile, options.caFile == nil ? "/etc/ssl/certs" : nil, nil, nil, nil),
                      "set up TLS")
        }
        if options.deferWrites { try check(gt_mosquitto_threaded_set(handle, true), "defer writes") }
        if let limit = options.maximumPacketSize {
            let bytes = UInt32(clamping: max(limit, 64))
            try check(gt_mosquitto_limit_incoming(handle, bytes, options.cleanSession ? 0 : UInt32.max), "limit the packet size")
        }
    }

    // Why `deferWrites` holds a QoS 1 message's PUBACK back until `writable()`, in
    // libmosquitto 2.0.11's source (Debian 12; lib/ paths):
    // - handle_publish.c `handle__publish`, case 1: `send__puback` is called before
    //   `on_message`, and `on_message` runs right there, inside `mosquitto_loop_read`
    //   (loop.c `mosquitto_loop_read` → packet_mosq.c `packet__read` → read_handle.c
    //   `handle__packet`): our callback only records the message, so without deferring, the
    //   broker has its PUBACK before we have stored anything.
    // - packet_mosq.c `packet__queue` writes a packet at once only when
    //   `mosq->threaded == mosq_ts_none` (and not inside a callback); `mosquitto_threaded_set(
    //   mosq, true)` (thread_mosq.c) makes it `mosq_ts_external`, and the packet waits in
    //   `out_packet`. The only other caller of `packet__write` is `mosquitto_loop_write`
    //   (loop.c): `mosquitto_loop_read` and `mosquitto_loop_misc` (util_mosq.c
    //   `mosquitto__check_keepalive`, which queues a PINGREQ or closes the socket) write nothing.
    // - dropping: `mosquitto_reinitialise` (mosquitto.c) runs `mosquitto__destroy`, which closes
    //   the socket (net_mosq.c `net__socket_close`: `close(2)`, plus SSL_shutdown's TLS alert
    //   under TLS, no MQTT packet) and frees `out_packet` unwritten. `mosquitto_reconnect`
    //   would also free the queue first (connect.c `mosquitto__reconnect`:
    //   `packet__cleanup_all` before `net__socket_close`), but it reconnects at once, without
    //   the back-off; `mosquitto_disconnect` only queues a DISCONNECT behind the PUBACKs
    //   (connect.c `mosquitto_disconnect_v5` → `send__disconnect` → `packet__queue`), which a
    //   later write would send first, so it is no way to refuse them.
    // The broker keeps an unacknowledged QoS 1 message of a persistent session (clean session
    // false) and sends it again when the client id reconnects (MQTT 3.1.1, 4.4).

    deinit {
        gt_mosquitto_destroy(handle)
    }

    /// libmosquitto's global set-up, once per process.
    private static let libraryReady: Void = { _ = gt_mosquitto_lib_init() }()

    /// Starts connecting without blocking on the TCP handshake (a host name is still resolved
    /// here; a gym's broker is an address or a local name). `connected` follows as an event.
    public func connect() throws(MQTTError) {
        dropped = false
        try check(gt_mosquitto_connect_async(handle, options.host, Int32(options.port), Int32(options.keepAlive)), "connect")
    }

    /// Connects again after a lost connection or a `drop()`, with the same options.
    public func reconnect() throws(MQTTError) {
        if dropped { return try connect() }
        try check(gt_mosquitto_reconnect_async(handle), "reconnect")
    }

    /// Sends DISCONNECT (so no will is published) and closes the socket. With `deferWrites`
    /// it writes what is queued before it too: `drop()` instead while a message is not handled.
    public func disconnect() {
        _ = gt_mosquitto_disconnect(handle)
        if options.deferWrites {
            for _ in 0..<3 where wantsWrite && socket >= 0 { _ = gt_mosquitto_loop_write(handle, 16) }
        }
    }

    /// Closes the connection at once and writes nothing still queued: with `deferWrites`, the
    /// broker never gets the acknowledgements of the messages read since the last `writable()`,
    /// so it sends them again to the persistent session. No event follows; `reconnect()` (or
    /// `connect()`) starts again with the same options.
    public func drop() throws(MQTTError) {
        pending.removeAll()
        dropped = true
        try check(gt_mosquitto_reinitialise(handle, options.clientID, options.cleanSession, nil), "drop the connection")
        try configure()
    }

    /// Whether the client was reset by `drop()` and has not connected since (libmosquitto forgot the host).
    private var dropped = false

    /// The connection's socket for poll(2), or -1 while there is none.
    public var socket: Int32 { gt_mosquitto_socket(handle) }

    /// Whether data is waiting to be written (poll for POLLOUT too).
    public var wantsWrite: Bool { gt_mosquitto_want_write(handle) }

    /// The socket was readable: reads what arrived. A lost connection is a `disconnected` event.
    public func readable() -> [MQTTEvent] {
        let code = gt_mosquitto_loop_read(handle, 16)
        lost(code)
        return takeEvents()
    }

    /// The socket was writable: writes what is queued.
    public func writable() -> [MQTTEvent] {
        let code = gt_mosquitto_loop_write(handle, 16)
        lost(code)
        return takeEvents()
    }

    /// Keep-alive and retries of unacknowledged messages; call at least every `keepAliveInterval`.
    public func maintain() -> [MQTTEvent] {
        let code = gt_mosquitto_loop_misc(handle)
        lost(code)
        return takeEvents()
    }

    /// How often `maintain()` must run while connected.
    public var keepAliveInterval: Duration { .seconds(max(1, options.keepAlive / 2)) }

    /// Queues a message; its id comes back in a `delivered` event once the broker has it (QoS 1:
    /// its PUBACK). Returns the message id.
    @discardableResult
    public func publish(_ message: MQTTMessage) throws(MQTTError) -> Int32 {
        var mid: Int32 = 0
        try check(message.payload.withUnsafeBytes {
            gt_mosquitto_publish(handle, &mid, message.topic, Int32($0.count), $0.baseAddress, Int32(message.qos), message.retain)
        }, "publish to \(message.topic)")
        return mid
    }

    /// Subscribes to `topic` (wildcards allowed) at `qos`.
    /// Returns the subscription's id, which `.subscribed` names once the broker grants it.
    @discardableResult
    public func subscribe(_ topic: String, qos: Int = 1) throws(MQTTError) -> Int32 {
        var mid: Int32 = 0
        try check(gt_mosquitto_subscribe(handle, &mid, topic, Int32(qos)), "subscribe to \(topic)")
        return mid
    }

    /// The events since the last call.
    public func takeEvents() -> [MQTTEvent] {
        defer { pending.removeAll() }
        return pending
    }

    /// A result that means the connection is gone becomes a `disconnected` event, once (the
    /// disconnect callback may already have said so).
    private func lost(_ code: Int32) {
        guard code != Int32(MOSQ_ERR_SUCCESS.rawValue) else { return }
        if case .disconnected = pending.last { return }
        pending.append(.disconnected(reason: MQTTError.from(code, operation: "connection", broker: options.broker).description))
    }

    private func check(_ code: Int32, _ operation: String) throws(MQTTError) {
        guard code == Int32(MOSQ_ERR_SUCCESS.rawValue) else {
            throw MQTTError.from(code, operation: operation, broker: options.broker)
        }
    }

    fileprivate func received(_ event: MQTTEvent) { pending.append(event) }
}

/// The client whose user data pointer `object` is.
private func client(_ object: UnsafeMutableRawPointer?) -> MQTTClient? {
    object.map { Unmanaged<MQTTClient>.fromOpaque($0).takeUnretainedValue() }
}

private func onConnect(_ handle: OpaquePointer?, _ object: UnsafeMutableRawPointer?, _ code: Int32) {
    // MQTT v5 (`maximumPacketSize`) answers with a reason code (128 and up), v3.1.1 with 1–5.
    let reason = code == 0 ? nil : String(cString: code >= 128 ? gt_mosquitto_reason_string(code) : gt_mosquitto_connack_string(code))
    client(object)?.received(reason.map { .refused(reason: $0) } ?? .connected)
}

private func onDisconnect(_ handle: OpaquePointer?, _ object: UnsafeMutableRawPointer?, _ code: Int32) {
    client(object)?.received(.disconnected(reason: code == 0 ? "disconnected" : "connection lost"))
}

private func onPublish(_ handle: OpaquePointer?, _ object: UnsafeMutableRawPointer?, _ mid: Int32) {
    client(object)?.received(.delivered(mid: mid))
}

private func onSubscribe(
    _ handle: OpaquePointer?, _ object: UnsafeMutableRawPointer?, _ mid: Int32, _ count: Int32, _ granted: UnsafePointer<Int32>?
) {
    client(object)?.received(.subscribed(mid: mid))
}

private func onMessage(_ handle: OpaquePointer?, _ object: UnsafeMutableRawPointer?, _ message: UnsafePointer<mosquitto_message>?) {
    guard let message = message?.pointee, let topic = message.topic else { return }
    let payload = message.payload.map {
        Array(UnsafeRawBufferPointer(start: $0, count: Int(max(0, message.payloadlen))))
    } ?? []
    client(object)?.received(.message(MQTTMessage(topic: String(cString: topic), payload: payload, qos: Int(message.qos), retain: message.retain)))
}
