import Testing
@testable import GymTimerConfig

/// The drop-in `gymtimer unit-network` writes for the installed service, for each kind of broker.
@Suite struct UnitNetworkRuleTests {
    let resolvConf = "# from DHCP\nsearch gym.lan\nnameserver 192.168.1.1\nnameserver fe80::1%eth0\nnameserver 127.0.0.53\n"

    func fleet(_ url: String) throws -> FleetSettings {
        try #require(try GymTimerConfiguration.parse("[fleet]\nbroker = \"\(url)\"\nstation = \"rack-1\"").fleet)
    }

    /// The lines after `[Service]`, which systemd reads.
    func settings(_ rule: UnitNetworkRule?) -> [String] {
        guard let text = rule?.dropIn else { return [] }
        return Array(text.split(separator: "\n").map(String.init).drop { $0 != "[Service]" })
    }

    func noLookup(_ host: String) -> Result<[String], UnitNetworkError> {
        Issue.record("looked up \(host)")
        return .success([])
    }

    @Test func noFleetNoDropIn() throws {
        #expect(try UnitNetworkRule.make(fleet: nil, resolvConf: resolvConf, resolve: noLookup) == nil)
    }

    @Test func anIPv4BrokerIsAllTheServiceMayReach() throws {
        let rule = try UnitNetworkRule.make(fleet: fleet("mqtt://10.0.0.2:1884"), resolvConf: resolvConf, resolve: noLookup)
        #expect(settings(rule) == [
            "[Service]", "PrivateNetwork=no", "ProcSubset=all", "RestrictAddressFamilies=",
            "RestrictAddressFamilies=AF_UNIX AF_INET AF_INET6", "IPAddressDeny=any", "IPAddressAllow=", "IPAddressAllow=localhost 10.0.0.2",
        ])
        #expect(rule?.dropIn.contains("mqtt://10.0.0.2:1884 (10.0.0.2)") == true)
    }

    @Test func aHostNameBrokerAddsItsAddressesAndTheNameServers() throws {
        var asked: [String] = []
        let rule = try UnitNetworkRule.make(fleet: fleet("mqtts://gym-server.local"), resolvConf: resolvConf) { host in
            asked.append(host)
            return .success(["192.168.1.10", "192.168.1.10", "fd00::10"])
        }
        #expect(asked == ["gym-server.local"])
        // The stub resolver 127.0.0.53 is localhost's; a zone is not part of IPAddressAllow=.
        #expect(settings(rule).last == "IPAddressAllow=localhost 192.168.1.10 fd00::10 192.168.1.1 fe80::1")
        #expect(rule?.resolvers == ["192.168.1.1", "fe80::1", "127.0.0.53"])
    }

    @Test func anIPv6Broker() throws {
        let rule = try UnitNetworkRule.make(fleet: fleet("mqtt://[2001:DB8::5]:1883"), resolvConf: resolvConf, resolve: noLookup)
        #expect(settings(rule).last == "IPAddressAllow=localhost 2001:db8::5")
        #expect(settings(rule).contains("RestrictAddressFamilies=AF_UNIX AF_INET AF_INET6"))
    }

    @Test func anUnresolvableHostIsOneLineSayingWhatToDo() throws {
        #expect(throws: UnitNetworkError.unresolvable(host: "gym-servr.local", reason: "Name or service not known")) {
            try UnitNetworkRule.make(fleet: try fleet("mqtt://gym-servr.local"), resolvConf: resolvConf) { host in
                .failure(.unresolvable(host: host, reason: "Name or service not known"))
            }
        }
        let line = UnitNetworkError.unresolvable(host: "gym-servr.local", reason: "Name or service not known").description
        #expect(!line.contains("\n") && line.contains("gym-servr.local") && line.contains("systemctl restart gymtimer-config.service"))
        // Resolving to nothing usable is the same failure, not a drop-in allowing only localhost.
        #expect(throws: UnitNetworkError.self) {
            try UnitNetworkRule.make(fleet: try fleet("mqtt://odd"), resolvConf: resolvConf) { _ in .success(["not-an-address"]) }
        }
    }

    @Test func nameServersFromResolvConf() {
        #expect(UnitNetworkRule.nameservers("nameserver 1.1.1.1\n#nameserver 9.9.9.9\nnameserver\tbogus\nnameserver 1.1.1.1\noptions edns0")
            == ["1.1.1.1"])
        #expect(UnitNetworkRule.nameservers("") == [])
    }
}
