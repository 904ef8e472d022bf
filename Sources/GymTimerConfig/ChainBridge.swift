import GymTimerCore
import GymTimerFleet

/// A gym's Mosquitto bridge to a chain's central broker (chain.md), as a conf.d snippet: the
/// gym's records, floor, events and card asks go out under `C/{gym}/`, its acks, commands and
/// answers about cards come back, and the chain's collector status comes in under `P/all/`. Every input is
/// checked so that nothing a caller passes can add a line to the broker's configuration.
public struct ChainBridge: Sendable {
    /// The gym's name (a station name: `FleetStationName`), its level under the chain's prefix.
    public let gym: String
    /// The central broker; `tls` false only when asked for (`insecure`).
    public let centre: FleetSettings.Broker
    /// The gym's account on the central broker and its password (the content of its file).
    public let username: String
    public let password: String
    /// The CA certificate(s) the central broker's certificate is checked against (TLS only).
    public let caFile: String?
    /// The gym's own prefix `P` and the chain's prefix `C`.
    public let prefix: String
    public let chain: String
    /// The bridge's reconnect back-off (seconds: first wait, longest wait) and its keepalive.
    public let restartTimeout: (base: Int, cap: Int)
    public let keepalive: Int

    /// Checks every input; the error says which one and what to give instead.
    public init(
        gym: String, centre: String, insecure: Bool = false, username: String, password: String, caFile: String?,
        prefix: String = "gymtimer", chain: String = "gyms", restartTimeout: (base: Int, cap: Int) = (5, 60), keepalive: Int = 30
    ) throws(ChainBridgeError) {
        if let problem = FleetStationName.problem(gym) { throw ChainBridgeError("gym name \"\(Self.shown(gym))\" \(problem)") }
        self.gym = gym
        self.centre = try Self.broker(centre, insecure: insecure)
        guard Self.isName(username) else {
            throw ChainBridgeError("username \"\(Self.shown(username))\": 1 to 64 of A-Z, a-z, 0-9, . _ @ - (the gym's account on the central broker)")
        }
        guard Self.isConfigValue(password) else {
            throw ChainBridgeError("the password must be one line of 1 to 256 characters, no control characters, no spaces at either end: fix the password file")
        }
        (self.username, self.password) = (username, password)
        if self.centre.tls {
            guard let caFile else { throw ChainBridgeError("mqtts:// needs --ca-file: the PEM that signed the central broker's certificate") }
            guard Self.isPath(caFile) else {
                throw ChainBridgeError("the CA file must be an absolute path without spaces or control characters (the PEM that signed the central broker's certificate)")
            }
        }
        self.caFile = self.centre.tls ? caFile : nil
        for (flag, value) in [("prefix", prefix), ("chain", chain)] where !Self.isName(value) || value.contains("@") {
            throw ChainBridgeError("--\(flag) \"\(Self.shown(value))\": one topic level of 1 to 64 of A-Z, a-z, 0-9, . _ -")
        }
        (self.prefix, self.chain) = (prefix, chain)
        guard restartTimeout.base >= 1, restartTimeout.cap >= restartTimeout.base, keepalive >= 5 else {
            throw ChainBridgeError("restart timeout must be 1 s or more with its cap at least its base, keepalive 5 s or more")
        }
        (self.restartTimeout, self.keepalive) = (restartTimeout, keepalive)
    }

    /// The bridge's topic lines (pattern, direction, QoS, local prefix, remote prefix). `+/cmd`
    /// carries `all/cmd` too: a second line for it would deliver every command twice.
    public var topics: [String] {
        let (local, remote, every) = ("\(prefix)/", "\(chain)/\(gym)/", "\(FleetStationName.every)/")
        let out = ["workout", "state", "status", "event", "card-ask"].map { "topic +/\($0) out 1 \(local) \(remote)" }
        let back = ["ack", "cmd", "card"].map { "topic +/\($0) in 1 \(local) \(remote)" }
        // No athlete's card crosses: each station's card asks and answers are its own topics.
        let chainWide = ["collector"].map { "topic \($0) in 1 \(local)\(every) \(chain)/\(every)" }
        // The console's desk (chain.md, "The chain's desk"): its asks out, the answers and the gym's scores in.
        let desk = ["topic \(every)gym/ask out 1 \(local) \(remote)"]
            + ["answer/+", "scores"].map { "topic \(every)gym/\($0) in 1 \(local) \(remote)" }
        return out + back + chainWide + desk
    }

    /// Where the bridge says whether it is up (retained `1`, or `0` once it is down), on the gym's
    /// broker only: the central broker lets a gym's account publish nothing outside `C/{gym}/`.
    public var notificationTopic: String { "\(prefix)/\(FleetStationName.every)/bridge" }

    /// The snippet for /etc/mosquitto/conf.d/, ending in a newline.
    public var text: String {
        var lines = [
            "# GymTimer: gym \(gym) bridged to the chain's central broker (docs/chain.md).",
            "# Written by `gymtimer chain bridge`; it holds the gym's password: keep it mode 0600.",
            "# The gym's mosquitto.conf keeps what the bridge queues while the centre is away:",
            "#   persistence true, and max_queued_messages 100000 (a day of records; default 1000).",
            "connection \(prefix)-\(chain)",
            "address \(centre.host):\(centre.port)",
            "remote_clientid bridge-\(gym)",
            "remote_username \(username)",
            "remote_password \(password)",
        ]
        if let caFile { lines += ["bridge_cafile \(caFile)", "bridge_insecure false"] }
        lines += [
            "bridge_protocol_version mqttv311", "try_private true", "cleansession false", "local_cleansession false",
            "start_type automatic", "restart_timeout \(restartTimeout.base) \(restartTimeout.cap)", "keepalive_interval \(keepalive)",
            "notifications true", "notifications_local_only true", "notification_topic \(notificationTopic)",
        ]
        return (lines + topics).joined(separator: "\n") + "\n"
    }

    /// The central broker from its URL: mqtts://, or mqtt:// when `insecure` says so.
    private static func broker(_ url: String, insecure: Bool) throws(ChainBridgeError) -> FleetSettings.Broker {
        let broker: FleetSettings.Broker
        switch FleetSettings.parseBroker(url) {
        case .success(let parsed): broker = parsed
        case .failure(let problem): throw ChainBridgeError("--centre \"\(shown(url))\" \(problem) (e.g. mqtts://central.example.org:8883)")
        }
        guard broker.tls || insecure else {
            throw ChainBridgeError("--centre \(url): plain mqtt:// sends the gym's password and records in clear: use mqtts:// (or --insecure on a private network)")
        }
        return broker
    }

    /// A user name or a prefix: 1 to 64 of `A-Z a-z 0-9 . _ @ -` (nothing a config line splits on).
    static func isName(_ value: String) -> Bool {
        (1...64).contains(value.utf8.count) && value.utf8.allSatisfy { byte in
            (byte >= 0x30 && byte <= 0x39) || (byte >= 0x41 && byte <= 0x5A) || (byte >= 0x61 && byte <= 0x7A) || "._@-".utf8.contains(byte)
        }
    }

    /// A value Mosquitto reads whole to the end of its line: no control character (no line
    /// break of any kind), no blank at either end (Mosquitto would trim it).
    static func isConfigValue(_ value: String) -> Bool {
        (1...256).contains(value.unicodeScalars.count)
            && !value.unicodeScalars.contains { $0.properties.generalCategory == .control || $0 == "\u{2028}" || $0 == "\u{2029}" }
            && value.first?.isWhitespace == false && value.last?.isWhitespace == false
    }

    /// An absolute path with no blank and no control character.
    static func isPath(_ path: String) -> Bool {
        path.hasPrefix("/") && path.utf8.count <= 4096 && isConfigValue(path) && !path.contains { $0.isWhitespace }
    }

    /// A value as an error may show it: its first 80 scalars, control and format characters
    /// escaped (`NameText.escaped`: `\u{202E}`), so it stays one line and in its order.
    static func shown(_ value: String) -> String {
        var head = ""
        head.unicodeScalars.append(contentsOf: value.unicodeScalars.prefix(80))
        return NameText.escaped(head)
    }
}
