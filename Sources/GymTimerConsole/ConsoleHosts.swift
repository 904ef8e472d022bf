/// The names and addresses the console answers to, checked against every request's `Host`.
/// A request naming any other is refused before it reaches a route: a web page on another site
/// whose name an attacker points at the console's address (DNS rebinding) would otherwise be
/// "same origin" with the console in the coach's browser. Pure; `ConsoleHosts+Machine` reads
/// the machine's own addresses and name.
public struct ConsoleHosts: Hashable, Sendable {
    /// The port the console listens on: a `Host` must name it (or none, on port 80).
    public let port: Int
    /// Host names and addresses, lowercased, IPv6 addresses in brackets, without the port.
    public let names: Set<String>
    /// What the refusal tells the browser to use instead.
    public let preferred: String

    /// The hosts of a console listening on `listen`: its address; with a wildcard address
    /// (`0.0.0.0`, `::`) every address in `machineAddresses`; the machine's `hostname` and
    /// `hostname.local` (mDNS) unless it listens on loopback only; `localhost` when loopback
    /// is served; and the names the owner gave (`--name`, the gym's DNS name for the server).
    public init(listen: ConsoleListen, extraNames: [String] = [], machineAddresses: [String] = [], hostname: String? = nil) {
        port = listen.port
        let host = Self.normalized(listen.host)
        let wildcard = host == "0.0.0.0" || host == "[::]"
        let loopbackOnly = Self.isLoopback(host)
        var names = Set(extraNames.map(Self.normalized))
        if wildcard {
            names.formUnion(machineAddresses.map(Self.normalized))
        } else {
            names.insert(host)
        }
        if wildcard || loopbackOnly { names.formUnion(["localhost", "127.0.0.1", "[::1]"]) }
        if !loopbackOnly, let hostname, !hostname.isEmpty {
            names.formUnion([Self.normalized(hostname), Self.normalized(hostname) + ".local"])
        }
        self.names = names.filter { !$0.isEmpty }
        let first = extraNames.first.map(Self.normalized) ?? (wildcard ? (hostname.map(Self.normalized) ?? "localhost") : host)
        preferred = port == 80 ? first : "\(first):\(port)"
    }

    /// Whether `name` may be given with `--name`: a DNS name (letters, digits, `-` and `.`) or
    /// an IP address, at most 253 characters.
    public static func isValidName(_ name: String) -> Bool {
        !name.isEmpty && name.count <= 253
            && name.allSatisfy { $0.isASCII && ($0.isLetter || $0.isNumber || $0 == "." || $0 == "-" || $0 == ":") }
    }

    /// Whether a request whose `Host` is `authority` is for this console.
    public func allows(_ authority: String?) -> Bool {
        guard let authority, let parts = Self.split(authority) else { return false }
        return parts.port == port && names.contains(parts.host)
    }

    /// `authority` as host (normalized) and port (80 when absent), nil when malformed.
    static func split(_ authority: String) -> (host: String, port: Int)? {
        guard !authority.isEmpty, authority.count <= 260, authority.allSatisfy({ $0.isASCII && !$0.isWhitespace }) else { return nil }
        var host = Substring(authority)
        var port = 80
        if authority.hasPrefix("[") {
            guard let close = authority.firstIndex(of: "]") else { return nil }
            host = authority[...close]
            let rest = authority[authority.index(after: close)...]
            if !rest.isEmpty {
                guard rest.hasPrefix(":"), let number = Int(rest.dropFirst()), (1...65535).contains(number) else { return nil }
                port = number
            }
        } else if let colon = authority.lastIndex(of: ":") {
            guard let number = Int(authority[authority.index(after: colon)...]), (1...65535).contains(number) else { return nil }
            host = authority[..<colon]
            port = number
        }
        guard !host.isEmpty, !host.contains(":") || host.hasPrefix("[") else { return nil }
        return (normalized(String(host)), port)
    }

    /// Lowercased, without a trailing dot; a bare IPv6 address gets its brackets.
    static func normalized(_ host: String) -> String {
        var name = host.lowercased()
        if name.hasSuffix(".") { name.removeLast() }
        if name.contains(":") && !name.hasPrefix("[") { name = "[\(name)]" }
        return name
    }

    static func isLoopback(_ host: String) -> Bool {
        host == "localhost" || host == "[::1]" || host.hasPrefix("127.")
    }
}
