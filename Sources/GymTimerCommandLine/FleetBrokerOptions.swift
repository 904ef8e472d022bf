import ArgumentParser
import GymTimerConfig
import GymTimerMQTT

/// How the gym's tools (`collect`, `fleet status`, `fleet start`, `console`) reach the broker.
public struct FleetBrokerOptions: ParsableArguments {
    @Option(name: .long, help: "The broker: mqtt://host:port or mqtts://host:port.")
    public var broker: String

    @Option(name: .customLong("topic-prefix"), help: "The first level of every fleet topic.")
    public var topicPrefix = "gymtimer"

    @Option(name: .long, help: "MQTT user name.")
    public var username: String?

    @Option(name: .customLong("password-file"), help: "File whose first line is the MQTT password.")
    public var passwordFile: String?

    @Option(name: .customLong("ca-file"), help: "CA certificate(s) for an mqtts:// broker.")
    public var caFile: String?

    public init() {}

    /// The client options for `clientID`, checked.
    public func options(clientID: String, cleanSession: Bool = true) throws -> MQTTClient.Options {
        let parsed: FleetSettings.Broker
        switch FleetSettings.parseBroker(broker) {
        case .success(let value): parsed = value
        case .failure(let problem): throw CLIError.usage("--broker \(broker): \(problem)")
        }
        return MQTTClient.Options(
            clientID: clientID, host: parsed.host, port: parsed.port, tls: parsed.tls, caFile: caFile, username: username,
            password: try passwordFile.map(readPassword), keepAlive: 30, cleanSession: cleanSession)
    }
}

/// The broker password from a `password_file`, or a one-line usage error.
public func readPassword(_ path: String) throws -> String {
    do {
        return try FleetPassword.read(from: path)
    } catch {
        throw CLIError.usage("\(error)")
    }
}
