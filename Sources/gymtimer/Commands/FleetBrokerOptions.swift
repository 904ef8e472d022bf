import ArgumentParser
import GymTimerConfig
import GymTimerMQTT

/// How the gym's tools (`collect`, `fleet status`, `fleet start`) reach the broker.
struct FleetBrokerOptions: ParsableArguments {
    @Option(name: .long, help: "The broker: mqtt://host:port or mqtts://host:port.")
    var broker: String

    @Option(name: .customLong("topic-prefix"), help: "The first level of every fleet topic.")
    var topicPrefix = "gymtimer"

    @Option(name: .long, help: "MQTT user name.")
    var username: String?

    @Option(name: .customLong("password-file"), help: "File whose first line is the MQTT password.")
    var passwordFile: String?

    @Option(name: .customLong("ca-file"), help: "CA certificate(s) for an mqtts:// broker.")
    var caFile: String?

    /// The client options for `clientID`, checked.
    func options(clientID: String, cleanSession: Bool = true) throws -> MQTTClient.Options {
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
