/// The network rule of the installed service (deploy/gymtimer.service): that unit keeps no
/// network (`PrivateNetwork=yes`, `IPAddressDeny=any`, `RestrictAddressFamilies=AF_UNIX`); with a
/// `[fleet]` this systemd drop-in opens it to the broker and nothing else: the IPv4/IPv6 socket
/// families, and IP traffic only to the broker's addresses, to localhost and, when the broker is a
/// host name, to the name servers of /etc/resolv.conf. Written by `gymtimer unit-network` at
/// install and again when the config changes (gymtimer-config.path). Pure: the addresses are
/// resolved by the caller, so its output is tested for every kind of broker.
public struct UnitNetworkRule: Hashable, Sendable {
    /// The broker as the config names it.
    public var broker: FleetSettings.Broker
    /// What the broker's host resolved to (itself when it is an address).
    public var brokerAddresses: [String]
    /// The name servers the service may ask (none when the broker is an address).
    public var resolvers: [String]

    /// Where install.sh and the package put the drop-in.
    public static let defaultPath = "/etc/systemd/system/gymtimer.service.d/fleet-network.conf"

    /// The rule for `fleet`, or nil without a `[fleet]` (the service keeps no network).
    /// `resolve` turns a host name into its addresses (getaddrinfo in the command);
    /// `resolvConf` is the text of /etc/resolv.conf. Throws when the broker has no address.
    public static func make(
        fleet: FleetSettings?, resolvConf: String, resolve: (String) -> Result<[String], UnitNetworkError>
    ) throws(UnitNetworkError) -> UnitNetworkRule? {
        guard let fleet else { return nil }
        let host = fleet.broker.host
        if let literal = address(host) {
            return UnitNetworkRule(broker: fleet.broker, brokerAddresses: [literal], resolvers: [])
        }
        let resolved = try resolve(host).get().compactMap(address)
        guard !resolved.isEmpty else { throw .unresolvable(host: host, reason: "no IPv4 or IPv6 address") }
        // None listed is not an error: /etc/hosts or avahi (over a local socket) may be all it uses.
        return UnitNetworkRule(broker: fleet.broker, brokerAddresses: unique(resolved), resolvers: nameservers(resolvConf))
    }

    /// The `nameserver` addresses of a resolv.conf text, in order, without duplicates.
    public static func nameservers(_ resolvConf: String) -> [String] {
        let servers = resolvConf.split(whereSeparator: \.isNewline).compactMap { line -> String? in
            let words = line.split(whereSeparator: { $0 == " " || $0 == "\t" })
            guard words.count >= 2, words[0] == "nameserver" else { return nil }
            return address(String(words[1]))
        }
        return unique(servers)
    }

    /// The drop-in's text.
    public var dropIn: String {
        let allowed = Self.unique(brokerAddresses + resolvers.filter { !Self.isLoopback($0) })
        var lines = [
            "# Written by `gymtimer unit-network` from the [fleet] of /etc/gymtimer/config.toml, and",
            "# rewritten when that file changes (gymtimer-config.path): edit the config, not this file.",
            "# The service may reach its broker \(broker) (\(brokerAddresses.joined(separator: ", "))) and nothing else.",
        ]
        if !resolvers.isEmpty {
            lines.append("# The broker is a host name: the name servers of /etc/resolv.conf (\(resolvers.joined(separator: ", "))) too;")
            lines.append("# .local names go through avahi or systemd-resolved over a local socket, so no multicast is needed.")
        }
        lines += [
            "[Service]",
            "PrivateNetwork=no",
            // The station's health reads its Wi-Fi signal from /proc/net/wireless, a system file
            // of /proc that the unit's ProcSubset=pid hides (other processes stay invisible).
            "ProcSubset=all",
            "RestrictAddressFamilies=",
            "RestrictAddressFamilies=AF_UNIX AF_INET AF_INET6",
            "IPAddressDeny=any",
            "IPAddressAllow=",
            "IPAddressAllow=localhost \(allowed.joined(separator: " "))",
        ]
        return lines.joined(separator: "\n") + "\n"
    }

    /// `text` as an IPv4 or IPv6 address for `IPAddressAllow=` (an IPv6 zone such as `%eth0`
    /// dropped), or nil when it is not one.
    static func address(_ text: String) -> String? {
        let bare = text.split(separator: "%", maxSplits: 1).first.map(String.init) ?? ""
        if isIPv4(bare) { return bare }
        if bare.contains(":"), bare.count <= 45, bare.allSatisfy({ $0.isHexDigit || $0 == ":" || $0 == "." }),
           bare.split(separator: ":", omittingEmptySubsequences: false).count >= 3 {
            return bare.lowercased()
        }
        return nil
    }

    static func isIPv4(_ text: String) -> Bool {
        let parts = text.split(separator: ".", omittingEmptySubsequences: false)
        return parts.count == 4 && parts.allSatisfy { $0.count <= 3 && UInt8($0) != nil }
    }

    static func isLoopback(_ address: String) -> Bool {
        address == "::1" || address.hasPrefix("127.")
    }

    static func unique(_ items: [String]) -> [String] {
        var seen = Set<String>()
        return items.filter { seen.insert($0).inserted }
    }
}
