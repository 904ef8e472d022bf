import GymTimerFleet

/// The `[fleet]` section (fleet.md): the MQTT broker a station reports to and takes commands
/// from. Absent (no `broker`), the kiosk runs alone and nothing of the fleet runs.
public struct FleetSettings: Hashable, Sendable, Codable {
    /// Where the broker is, from `broker = "mqtt://host:port"` or `mqtts://` (TLS).
    public struct Broker: Hashable, Sendable, Codable, CustomStringConvertible {
        public var host: String
        public var port: Int
        public var tls: Bool

        public init(host: String, port: Int, tls: Bool) {
            self.host = host
            self.port = port
            self.tls = tls
        }

        /// The URL as the config writes it.
        public var description: String {
            "\(tls ? "mqtts" : "mqtt")://\(host.contains(":") ? "[\(host)]" : host):\(port)"
        }
    }

    public var broker: Broker
    /// The station's name, unique in the gym: `[a-z0-9-]{1,32}`, not `all`.
    public var station: String
    /// The first level of every topic (`gymtimer`).
    public var topicPrefix: String
    public var username: String?
    /// A file holding the password (never the password itself in the config).
    public var passwordFile: String?
    /// The CA certificate(s) a `mqtts://` broker's certificate is checked against.
    public var caFile: String?
    /// Whether to publish Home Assistant MQTT discovery.
    public var homeAssistant: Bool
    /// The coach's console (`console_url = "http://gym-server.local:8080/"`): Home Assistant's
    /// link from the device to where the gym runs it, and its origin's support page.
    public var consoleURL: String?

    public init(
        broker: Broker, station: String, topicPrefix: String = "gymtimer", username: String? = nil,
        passwordFile: String? = nil, caFile: String? = nil, homeAssistant: Bool = true, consoleURL: String? = nil
    ) {
        self.broker = broker
        self.station = station
        self.topicPrefix = topicPrefix
        self.username = username
        self.passwordFile = passwordFile
        self.caFile = caFile
        self.homeAssistant = homeAssistant
        self.consoleURL = consoleURL
    }

    /// The name that addresses every station at once (`{prefix}/all/cmd`): no station may take it.
    public static let everyStation = FleetStationName.every

    /// What a station name must be, as every check says it.
    public static let stationRule = FleetStationName.rule

    /// Whether `name` is a valid station name (the fleet's rule, `FleetStationName`).
    public static func isValidStation(_ name: String) -> Bool { FleetStationName.isValid(name) }

    /// Whether `prefix` can be the first topic level: not empty, no `/`, `+`, `#` or NUL.
    public static func isValidTopicLevel(_ prefix: String) -> Bool {
        !prefix.isEmpty && prefix.utf8.count <= 64 && !prefix.contains { "/+#\u{0}".contains($0) }
    }

    /// Whether `url` can be the console's address: `http://` or `https://` and a host, printable
    /// ASCII without spaces or quotes, at most 200 characters (Home Assistant shows it as a link).
    public static func isValidConsoleURL(_ url: String) -> Bool {
        guard url.utf8.count <= 200, url.hasPrefix("http://") || url.hasPrefix("https://") else { return false }
        let host = url.drop { $0 != "/" }.dropFirst(2).prefix { $0 != "/" && $0 != ":" && $0 != "?" && $0 != "#" }
        return !host.isEmpty && url.unicodeScalars.allSatisfy { $0.value > 0x20 && $0.value < 0x7F && !"\"'<>\\`".unicodeScalars.contains($0) }
    }

    /// Parses a broker URL; nil with the reason when it cannot be used.
    public static func parseBroker(_ url: String) -> Result<Broker, BrokerURLProblem> {
        let tls: Bool
        var rest: Substring
        if url.hasPrefix("mqtt://") {
            tls = false
            rest = url.dropFirst(7)
        } else if url.hasPrefix("mqtts://") {
            tls = true
            rest = url.dropFirst(8)
        } else {
            return .failure(.scheme)
        }
        if rest.hasSuffix("/") { rest = rest.dropLast() }
        if rest.contains("@") { return .failure(.credentials) }
        if rest.contains("/") || rest.contains("?") { return .failure(.path) }
        var host: Substring
        var port: Substring?
        if rest.hasPrefix("[") {
            guard let close = rest.firstIndex(of: "]") else { return .failure(.host) }
            host = rest[rest.index(after: rest.startIndex)..<close]
            let after = rest[rest.index(after: close)...]
            if !after.isEmpty {
                guard after.hasPrefix(":") else { return .failure(.host) }
                port = after.dropFirst()
            }
        } else if let colon = rest.lastIndex(of: ":") {
            host = rest[..<colon]
            port = rest[rest.index(after: colon)...]
        } else {
            host = rest
        }
        guard !host.isEmpty, host.allSatisfy({ $0.isASCII && ($0.isLetter || $0.isNumber || "-._:".contains($0)) }) else {
            return .failure(.host)
        }
        var number = tls ? 8883 : 1883
        if let port {
            guard let parsed = Int(port), (1...65535).contains(parsed) else { return .failure(.port) }
            number = parsed
        }
        return .success(Broker(host: String(host), port: number, tls: tls))
    }

    /// Why a broker URL was refused, as the config error says it.
    public enum BrokerURLProblem: Error, Hashable, Sendable, CustomStringConvertible {
        case scheme, credentials, path, host, port

        public var description: String {
            switch self {
            case .scheme: return "must start with mqtt:// or mqtts:// (TLS)"
            case .credentials: return "must not hold a user or password: use username and password_file"
            case .path: return "must be mqtt://HOST[:PORT], with no path"
            case .host: return "has no usable host name"
            case .port: return "has a port that is not between 1 and 65535"
            }
        }
    }
}
