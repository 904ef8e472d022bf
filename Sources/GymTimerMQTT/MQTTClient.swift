import CMosquittoShim
import Glibc
import GymTimerHAL

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

        public init(
            clientID: String, host: String, port: Int, tls: Bool = false, caFile: String? = nil,
            username: String? = nil, password: String? = nil, keepAlive: Int = 30, cleanSession: Bool = true,
            will: MQTTMessage? = nil
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
            throw .client(operation: "create client", broker: options.broker, detail: String(cString: strerror(errno)))
        }
        self.handle = handle
        gt_mosquitto_user_data_set(handle, Unmanaged.passUnretained(self).toOpaque())
        _ = gt_mosquitto_int_option(handle, MOSQ_OPT_PROTOCOL_VERSION, Int32(MQTT_PROTOCOL_V311))
        gt_mosquitto_connect_callback_set(handle, onConnect)
        gt_mosquitto_disconnect_callback_set(handle, onDisconnect)
        gt_mosquitto_message_callback_set(handle, onMessage)
        gt_mosquitto_publish_callback_set(handle, onPublish)
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
    }

    deinit {
        gt_mosquitto_destroy(handle)
    }

    /// libmosquitto's global set-up, once per process.
    private static let libraryReady: Void = { _ = gt_mosquitto_lib_init() }()

    /// Starts connecting without blocking on the TCP handshake (a host name is still resolved
    /// here; a gym's broker is an address or a local name). `connected` follows as an event.
    public func connect() throws(MQTTError) {
        try check(gt_mosquitto_connect_async(handle, options.host, Int32(options.port), Int32(options.keepAlive)), "connect")
    }

    /// Connects again after a lost connection, with the same options.
    public func reconnect() throws(MQTTError) {
        try check(gt_mosquitto_reconnect_async(handle), "reconnect")
    }

    /// Sends DISCONNECT (so no will is published) and closes the socket.
    public func disconnect() {
        _ = gt_mosquitto_disconnect(handle)
    }

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
    public func subscribe(_ topic: String, qos: Int = 1) throws(MQTTError) {
        try check(gt_mosquitto_subscribe(handle, nil, topic, Int32(qos)), "subscribe to \(topic)")
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
    let reason = code == 0 ? nil : String(cString: gt_mosquitto_connack_string(code))
    client(object)?.received(reason.map { .refused(reason: $0) } ?? .connected)
}

private func onDisconnect(_ handle: OpaquePointer?, _ object: UnsafeMutableRawPointer?, _ code: Int32) {
    client(object)?.received(.disconnected(reason: code == 0 ? "disconnected" : "connection lost"))
}

private func onPublish(_ handle: OpaquePointer?, _ object: UnsafeMutableRawPointer?, _ mid: Int32) {
    client(object)?.received(.delivered(mid: mid))
}

private func onMessage(_ handle: OpaquePointer?, _ object: UnsafeMutableRawPointer?, _ message: UnsafePointer<mosquitto_message>?) {
    guard let message = message?.pointee, let topic = message.topic else { return }
    let payload = message.payload.map {
        Array(UnsafeRawBufferPointer(start: $0, count: Int(max(0, message.payloadlen))))
    } ?? []
    client(object)?.received(.message(MQTTMessage(topic: String(cString: topic), payload: payload, qos: Int(message.qos), retain: message.retain)))
}
