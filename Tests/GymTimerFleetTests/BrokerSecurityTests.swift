import Foundation
import Glibc
import GymTimerBenchSupport
import GymTimerSystem
import GymTimerCollector
import GymTimerFleetCommands
import GymTimerFleetLink
import GymTimerStationLink
import GymTimerUpgrade
import GymTimerMQTT
import Testing
import GymTimerTestSupport
import GymTimerSystem

/// A gym's broker is not open: user names with passwords, and TLS with the gym's own CA. The
/// client and a station (its `password_file`, its `ca_file`) against a real Mosquitto set up so.
@Suite(.serialized) struct BrokerSecurityTests {
    let directory: String
    let gymtimer = URL(fileURLWithPath: CommandLine.arguments[0]).deletingLastPathComponent().appendingPathComponent("gymtimer").path

    init() throws {
        directory = testDirectory("fleet-security")
        _ = chmod(directory, 0o755)
    }

    /// Whether a client with these options is let in within 5 s.
    func connects(_ options: MQTTClient.Options) throws -> Bool {
        let client = try MQTTClient(options)
        defer { client.disconnect() }
        do { try client.connect() } catch { return false }
        let events = client.pump(for: 5) { events in
            events.contains { if case .connected = $0 { true } else if case .refused = $0 { true } else { false } }
        }
        return events.contains(.connected)
    }

    @Test func onlyTheRightPasswordGetsInAndAStationReadsItsPasswordFile() throws {
        let broker = try LocalBroker(users: ["rack-1": "chalk-and-iron", "coach": "whistle"])
        let base = MQTTClient.Options(clientID: "probe", host: "127.0.0.1", port: broker.port)
        var right = base, wrong = base, anonymous = base
        (right.username, right.password) = ("coach", "whistle")
        (wrong.username, wrong.password) = ("coach", "guess")
        anonymous.clientID = "anonymous"
        #expect(try connects(right))
        #expect(try !connects(wrong), "a wrong password is refused")
        #expect(try !connects(anonymous), "no anonymous clients")

        // A station with its user name and password file comes online.
        try "chalk-and-iron\n".write(toFile: "\(directory)/mqtt.pass", atomically: true, encoding: .utf8)
        try """
        [fleet]
        broker = "mqtt://127.0.0.1:\(broker.port)"
        station = "rack-1"
        username = "rack-1"
        password_file = "\(directory)/mqtt.pass"

        """.write(toFile: "\(directory)/rack-1.toml", atomically: true, encoding: .utf8)
        let station = try RunningProcess(
            gymtimer, ["simulate", "--headless", "--config", "\(directory)/rack-1.toml", "--data-dir", "\(directory)/rack-1"],
            stdout: "\(directory)/rack-1.jsonl", stderr: "\(directory)/rack-1.log", pipeInput: true)
        var coach = right
        coach.clientID = "coach"
        let observer = try MQTTClient(coach)
        try observer.connect()
        _ = observer.pump(for: 5) { $0.contains(.connected) }
        try observer.subscribe("gymtimer/rack-1/status", qos: 1)
        let seen = observer.pump(for: 10) { events in
            events.contains { if case .message(let m) = $0 { m.text == "online" } else { false } }
        }
        #expect(seen.contains { if case .message(let m) = $0 { m.text == "online" } else { false } },
                "the station logged in with its password file: \((try? String(contentsOfFile: "\(directory)/rack-1.log", encoding: .utf8)) ?? "")")
        observer.disconnect()
        station.send("0 end")
        #expect(station.wait(upTo: 10) == 0)
    }

    @Test func tlsWithTheGymsCAConnectsAndWithoutItDoesNot() throws {
        // A self-signed certificate for 127.0.0.1: its own CA, as a gym's server would have.
        let tls = try LocalBroker.TLS.selfSigned(in: directory, name: "broker")
        let certificate = tls.certificate
        let broker = try LocalBroker(tls: tls)
        var trusted = MQTTClient.Options(clientID: "trusted", host: "127.0.0.1", port: broker.port, tls: true)
        trusted.caFile = certificate
        #expect(try connects(trusted), "mqtts with the gym's CA file")
        let untrusted = MQTTClient.Options(clientID: "untrusted", host: "127.0.0.1", port: broker.port, tls: true)
        #expect(try !connects(untrusted), "a certificate no system CA signed is refused")
        let plain = MQTTClient.Options(clientID: "plain", host: "127.0.0.1", port: broker.port)
        #expect(try !connects(plain), "no plain MQTT on a TLS listener")
    }
}
