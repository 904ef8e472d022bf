import Testing
@testable import GymTimerConfig

@Suite struct FleetSettingsTests {
    func problems(_ toml: String) -> [String] {
        do {
            _ = try GymTimerConfiguration.parse(toml)
            return []
        } catch {
            return error.problems
        }
    }

    @Test func noFleetSectionNoFleet() throws {
        #expect(try GymTimerConfiguration.parse("").fleet == nil)
    }

    @Test func aFullFleetSection() throws {
        let fleet = try #require(try GymTimerConfiguration.parse("""
            [fleet]
            broker = "mqtts://gym-server.local"
            station = "rack-3"
            username = "rack-3"
            password_file = "/etc/gymtimer/mqtt.pass"
            ca_file = "/etc/ssl/certs/gym-ca.pem"
            home_assistant = false
            console_url = "http://gym-server.local:8080/"
            """).fleet)
        #expect(fleet.broker == .init(host: "gym-server.local", port: 8883, tls: true))
        #expect(fleet.station == "rack-3" && fleet.topicPrefix == "gymtimer" && !fleet.homeAssistant)
        #expect(fleet.username == "rack-3" && fleet.passwordFile == "/etc/gymtimer/mqtt.pass")
        #expect(fleet.consoleURL == "http://gym-server.local:8080/")
    }

    @Test(arguments: ["gym-server.local:8080", "ftp://gym/", "http://", "http://gym server/", "https://gym/\"><script>"])
    func aConsoleURLThatIsNoWebAddressIsRefused(url: String) {
        let toml = "[fleet]\nbroker = \"mqtt://gym\"\nstation = \"rack-1\"\nconsole_url = \"\(url.replacingOccurrences(of: "\"", with: "\\\""))\"\n"
        #expect(problems(toml).contains { $0.contains("console_url") && $0.contains("must be the console's address") })
    }

    @Test(arguments: [
        ("mqtt://10.0.0.2:1884", FleetSettings.Broker(host: "10.0.0.2", port: 1884, tls: false)),
        ("mqtt://[::1]:1883", .init(host: "::1", port: 1883, tls: false)),
        ("mqtt://broker/", .init(host: "broker", port: 1883, tls: false)),
    ])
    func brokerURLs(url: String, broker: FleetSettings.Broker) {
        #expect(FleetSettings.parseBroker(url) == .success(broker))
    }

    @Test(arguments: [
        ("http://broker", "fleet.broker = \"http://broker\": must start with mqtt:// or mqtts:// (TLS)"),
        ("mqtt://coach:secret@broker", "fleet.broker = \"mqtt://coach:secret@broker\": must not hold a user or password: use username and password_file"),
        ("mqtt://broker:99999", "fleet.broker = \"mqtt://broker:99999\": has a port that is not between 1 and 65535"),
        ("mqtt://broker/gym", "fleet.broker = \"mqtt://broker/gym\": must be mqtt://HOST[:PORT], with no path"),
    ])
    func badBrokersAreOneLineEach(url: String, line: String) {
        #expect(problems("[fleet]\nbroker = \"\(url)\"\nstation = \"rack-1\"") == [line])
    }

    @Test func stationPrefixAndTLSFileAreChecked() {
        #expect(problems("[fleet]\nbroker = \"mqtt://b\"") == ["fleet.station: is required: this kiosk's name in the gym, [a-z0-9-]{1,32}, not \"all\""])
        #expect(problems("[fleet]\nbroker = \"mqtt://b\"\nstation = \"Rack 3\"") == ["fleet.station = \"Rack 3\": \(FleetSettings.stationRule)"])
        #expect(problems("[fleet]\nbroker = \"mqtt://b\"\nstation = \"r\"\ntopic_prefix = \"gym/timers\"")
            == ["fleet.topic_prefix = \"gym/timers\": must be one topic level: no /, + or #"])
        #expect(problems("[fleet]\nbroker = \"mqtt://b\"\nstation = \"r\"\nca_file = \"/ca.pem\"")
            == ["fleet.ca_file = \"/ca.pem\": is used only with an mqtts:// broker"])
        #expect(problems("[fleet]\nstation = \"r\"") == ["fleet.broker: is required when [fleet] names a station"])
        #expect(problems("[fleet]\nbroker = \"mqtt://b\"\nstation = \"r\"\npassword = \"x\"").first?.hasPrefix("fleet.password: unknown key") == true)
    }
}
