/// What happened on an MQTT connection, as the client reports it to its event loop.
public enum MQTTEvent: Hashable, Sendable {
    /// The broker accepted the connection (subscribe and publish the retained status now).
    case connected
    /// The broker refused the connection (bad credentials, not authorised), in its words.
    case refused(reason: String)
    /// The connection ended; reconnect after a back-off.
    case disconnected(reason: String)
    /// A message arrived on a subscribed topic.
    case message(MQTTMessage)
    /// The broker has the message with this id (QoS 1: acknowledged; QoS 0: sent).
    case delivered(mid: Int32)
    /// The broker granted the subscription with this id: messages on it now reach the client.
    case subscribed(mid: Int32)
}
