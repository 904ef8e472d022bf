/// Where a chain's central database is: `postgresql://USER[:PASS]@HOST[:PORT]/DB` (or
/// `postgres://`), each part percent-decoded, with libpq's TLS options after `?`:
/// `sslmode=disable|prefer|require|verify-ca|verify-full` (`PostgresSSLMode`) and
/// `sslrootcert=PATH` (the CA the server's certificate must chain to). Parsed strictly, so a
/// typo fails in one line at the start rather than as a connection error later; the password
/// never appears in a message.
public struct PostgresURL: Hashable, Sendable, CustomStringConvertible {
    public var user: String
    public var password: String?
    public var host: String
    public var port: Int
    public var database: String
    /// How the connection uses TLS.
    public var sslMode: PostgresSSLMode
    /// The PEM file of the CA(s) the server's certificate must chain to (nil: the system's).
    public var sslRootCertificate: String?

    public init(
        user: String, password: String?, host: String, port: Int = 5432, database: String, sslMode: PostgresSSLMode = .prefer,
        sslRootCertificate: String? = nil
    ) {
        self.user = user
        self.password = password
        self.host = host
        self.port = port
        self.database = database
        self.sslMode = sslMode
        self.sslRootCertificate = sslRootCertificate
    }

    /// The URL without its password: what messages show (the TLS mode when it is not the default).
    public var description: String {
        let shownHost = host.contains(":") ? "[\(host)]" : host
        let tls = sslMode == .prefer ? "" : "?sslmode=\(sslMode.rawValue)"
        return "postgresql://\(user)@\(shownHost):\(port)/\(database)\(tls)"
    }

    /// Whether `text` names a PostgreSQL database (rather than a SQLite file): its scheme.
    public static func isPostgres(_ text: String) -> Bool {
        text.hasPrefix("postgresql://") || text.hasPrefix("postgres://")
    }

    /// A URL that is not one: what is wrong with it (the URL itself is not repeated: it may
    /// hold a password).
    public struct Invalid: Error, Hashable, Sendable, CustomStringConvertible {
        public var problem: String
        public var description: String {
            "bad database URL: \(problem) (expected postgresql://USER[:PASSWORD]@HOST[:PORT]/DATABASE[?sslmode=MODE&sslrootcert=FILE])"
        }
    }

    /// Parses `text`, every part percent-decoded; a missing part, a bad port or escape, a
    /// control character, a fragment or an option other than `sslmode` and `sslrootcert` is
    /// `Invalid`.
    public static func parse(_ text: String) throws(Invalid) -> PostgresURL {
        func bad(_ problem: String) -> Invalid { Invalid(problem: problem) }
        let rest: Substring
        if text.hasPrefix("postgresql://") {
            rest = text.dropFirst("postgresql://".count)
        } else if text.hasPrefix("postgres://") {
            rest = text.dropFirst("postgres://".count)
        } else {
            throw bad("it does not start with postgresql://")
        }
        guard !rest.unicodeScalars.contains(where: { $0.value < 0x21 || $0.value == 0x7F }) else {
            throw bad("it holds a space or a control character (percent-encode them)")
        }
        guard !rest.contains("#") else { throw bad("a # fragment is not part of a database URL") }
        let query = rest.firstIndex(of: "?").map { rest[rest.index(after: $0)...] }
        let address = rest.firstIndex(of: "?").map { rest[..<$0] } ?? rest
        guard let at = address.lastIndex(of: "@") else { throw bad("no USER@ before the host") }
        let userInfo = address[..<at]
        let location = address[address.index(after: at)...]
        guard let slash = location.firstIndex(of: "/") else { throw bad("no /DATABASE after the host") }
        let (user, password) = try credentials(userInfo)
        let (host, port) = try hostAndPort(location[..<slash])
        let database = try decode(location[location.index(after: slash)...], "the database name")
        guard !database.isEmpty else { throw bad("the database name is empty") }
        var url = PostgresURL(user: user, password: password, host: host, port: port, database: database)
        if let query { try url.readOptions(query) }
        return url
    }

    /// The `name=value&…` options after `?`: each known one once.
    private mutating func readOptions(_ query: Substring) throws(Invalid) {
        var seen: Set<String> = []
        for pair in query.split(separator: "&", omittingEmptySubsequences: false) {
            let parts = pair.split(separator: "=", maxSplits: 1, omittingEmptySubsequences: false)
            let name = String(parts[0])
            guard parts.count == 2, seen.insert(name).inserted else {
                throw Invalid(problem: "the option \(name.prefix(32)) is not NAME=VALUE once")
            }
            let value = try Self.decode(parts[1], "the option \(name.prefix(32))")
            switch name {
            case "sslmode":
                guard let mode = PostgresSSLMode(rawValue: value) else {
                    throw Invalid(problem: "sslmode \(value.prefix(32)) is none of \(PostgresSSLMode.allCases.map(\.rawValue).joined(separator: ", "))")
                }
                sslMode = mode
            case "sslrootcert":
                guard !value.isEmpty else { throw Invalid(problem: "sslrootcert is empty: give the CA certificate's file") }
                sslRootCertificate = value
            default:
                throw Invalid(problem: "the option \(name.prefix(32)) is not supported (only sslmode and sslrootcert)")
            }
        }
        if sslRootCertificate != nil, !sslMode.demandsTLS {
            throw Invalid(problem: "sslrootcert needs sslmode=require, verify-ca or verify-full")
        }
    }

    private static func credentials(_ userInfo: Substring) throws(Invalid) -> (String, String?) {
        let parts = userInfo.split(separator: ":", maxSplits: 1, omittingEmptySubsequences: false)
        let user = try decode(parts[0], "the user name")
        guard !user.isEmpty else { throw Invalid(problem: "the user name is empty") }
        return (user, try parts.count > 1 ? decode(parts[1], "the password") : nil)
    }

    private static func hostAndPort(_ location: Substring) throws(Invalid) -> (String, Int) {
        var host = location
        var portText: Substring?
        if location.hasPrefix("[") {
            guard let close = location.firstIndex(of: "]") else { throw Invalid(problem: "an IPv6 address without its ]") }
            host = location[location.index(after: location.startIndex)..<close]
            let after = location[location.index(after: close)...]
            if !after.isEmpty {
                guard after.hasPrefix(":") else { throw Invalid(problem: "something other than :PORT after the IPv6 address") }
                portText = after.dropFirst()
            }
        } else if let colon = location.firstIndex(of: ":") {
            host = location[..<colon]
            portText = location[location.index(after: colon)...]
        }
        guard !host.isEmpty else { throw Invalid(problem: "the host is empty") }
        guard host.allSatisfy({ $0.isASCII && ($0.isLetter || $0.isNumber || "-.:_".contains($0)) }) else {
            throw Invalid(problem: "the host \(host) is not a host name or an address")
        }
        guard let portText else { return (String(host), 5432) }
        guard portText.count <= 5, portText.allSatisfy({ $0.isASCII && $0.isNumber }), let port = Int(portText), (1...65535).contains(port) else {
            throw Invalid(problem: "the port \(portText) is not a number from 1 to 65535")
        }
        return (String(host), port)
    }

    /// `part` with its %XX escapes decoded; a bad escape, or one that decodes to a control
    /// character or to bytes that are not UTF-8, is `Invalid`.
    private static func decode(_ part: Substring, _ what: String) throws(Invalid) -> String {
        var bytes: [UInt8] = []
        var iterator = part.utf8.makeIterator()
        while let byte = iterator.next() {
            guard byte == UInt8(ascii: "%") else {
                bytes.append(byte)
                continue
            }
            guard let high = iterator.next().flatMap(hexValue), let low = iterator.next().flatMap(hexValue) else {
                throw Invalid(problem: "a bad %-escape in \(what)")
            }
            bytes.append(high << 4 | low)
        }
        guard let text = String(validating: bytes, as: UTF8.self) else { throw Invalid(problem: "\(what) is not UTF-8") }
        guard !text.unicodeScalars.contains(where: { $0.value < 0x20 || $0.value == 0x7F }) else {
            throw Invalid(problem: "\(what) holds a control character")
        }
        return text
    }

    private static func hexValue(_ byte: UInt8) -> UInt8? {
        switch byte {
        case UInt8(ascii: "0")...UInt8(ascii: "9"): byte - UInt8(ascii: "0")
        case UInt8(ascii: "a")...UInt8(ascii: "f"): byte - UInt8(ascii: "a") + 10
        case UInt8(ascii: "A")...UInt8(ascii: "F"): byte - UInt8(ascii: "A") + 10
        default: nil
        }
    }
}
