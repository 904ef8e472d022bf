import GymTimerCore
import GymTimerMQTT

/// The twin of a Mosquitto bridge (`connection` … `topic PATTERN in|out QOS LOCAL REMOTE`)
/// between two in-memory brokers, for the chain's tests in virtual time: a client of each, with
/// persistent sessions (`cleansession false`), forwarding what one side's rules match to the
/// other with the prefix swapped. Cut, the link to the remote broker is gone: the local broker
/// queues what its rules match for the bridge's session (and the remote one what it sends
/// back), as Mosquitto does; restored, both queues flow.
public final class InMemoryBridge: TimedDriver {
    /// One `topic` line: `pattern` under `localPrefix` here, under `remotePrefix` there.
    public struct Rule: Sendable {
        public enum Direction: Sendable { case out, `in` }
        public var pattern: String
        public var direction: Direction
        public var localPrefix: String
        public var remotePrefix: String

        public init(_ pattern: String, _ direction: Direction, local localPrefix: String, remote remotePrefix: String) {
            self.pattern = pattern
            self.direction = direction
            self.localPrefix = localPrefix
            self.remotePrefix = remotePrefix
        }
    }

    private let local: any MQTTTransport
    private let remote: any MQTTTransport
    private let rules: [Rule]
    private let now: () -> Moment
    /// Whether the link to the remote broker is up.
    public private(set) var isLinked = false

    /// A bridge named `name` from `localBroker` to `remoteBroker` with `rules`, linked at once.
    public init(
        name: String, local localBroker: InMemoryBroker, remote remoteBroker: InMemoryBroker, rules: [Rule],
        now: @escaping () -> Moment
    ) throws(MQTTError) {
        local = try localBroker.factory(.init(clientID: name, host: "local", port: 1883, keepAlive: 0, cleanSession: false))
        remote = try remoteBroker.factory(.init(clientID: name, host: "remote", port: 1883, keepAlive: 0, cleanSession: false))
        self.rules = rules
        self.now = now
        localBroker.retainAsPublished.insert(name)
        remoteBroker.retainAsPublished.insert(name)
        try local.connect()
        for rule in rules where rule.direction == .out { _ = try local.subscribe(rule.localPrefix + rule.pattern, qos: 1) }
        try restore()
    }

    /// The link to the remote broker goes (a cut cable): nothing crosses until `restore`.
    public func cut() {
        remote.disconnect()
        isLinked = false
    }

    /// The link comes back: the remote session resumes with what was queued for it.
    public func restore() throws(MQTTError) {
        try remote.connect()
        for rule in rules where rule.direction == .in { _ = try remote.subscribe(rule.remotePrefix + rule.pattern, qos: 1) }
        isLinked = true
    }

    public var nextDeadline: Moment? {
        isLinked && (local.hasEvents || remote.hasEvents) ? now() : nil
    }

    /// Forwards what each side received to the other.
    public func fire(at now: Moment) {
        guard isLinked else { return }
        forward(local.takeEvents(), to: remote, .out)
        forward(remote.takeEvents(), to: local, .in)
    }

    private func forward(_ events: [MQTTEvent], to side: any MQTTTransport, _ direction: Rule.Direction) {
        for case .message(let message) in events {
            guard let topic = mapped(message.topic, direction) else { continue }
            _ = try? side.publish(MQTTMessage(topic: topic, payload: message.payload, qos: message.qos, retain: message.retain))
        }
    }

    /// `topic` under the other side's prefix, by the first rule of `direction` whose filter it matches.
    private func mapped(_ topic: String, _ direction: Rule.Direction) -> String? {
        for rule in rules where rule.direction == direction {
            let (from, to) = direction == .out ? (rule.localPrefix, rule.remotePrefix) : (rule.remotePrefix, rule.localPrefix)
            guard InMemoryBroker.matches(filter: from + rule.pattern, topic: topic) else { continue }
            return to + topic.dropFirst(from.count)
        }
        return nil
    }
}
