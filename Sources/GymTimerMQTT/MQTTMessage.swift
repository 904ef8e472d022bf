/// One MQTT message: where it goes, what it carries, how it is delivered.
public struct MQTTMessage: Hashable, Sendable {
    public var topic: String
    public var payload: [UInt8]
    /// 0: at most once; 1: at least once (acknowledged by the broker).
    public var qos: Int
    /// Whether the broker keeps it for subscribers that come later.
    public var retain: Bool

    public init(topic: String, payload: [UInt8], qos: Int = 0, retain: Bool = false) {
        self.topic = topic
        self.payload = payload
        self.qos = qos
        self.retain = retain
    }

    public init(topic: String, text: String, qos: Int = 0, retain: Bool = false) {
        self.init(topic: topic, payload: Array(text.utf8), qos: qos, retain: retain)
    }

    /// The payload as text (UTF-8, invalid bytes replaced).
    public var text: String { String(decoding: payload, as: UTF8.self) }
}
