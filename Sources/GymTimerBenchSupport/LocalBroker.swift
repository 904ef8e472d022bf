import Foundation
import Glibc
import SystemPackage
import GymTimerSystem

/// A real Mosquitto broker on loopback, on a free port, for as long as this object lives: the
/// fleet's tests and benchmark run against it (nothing of the protocol is mocked). Without the
/// `mosquitto` binary it throws `Missing`, so a test fails saying so rather than skipping.
public final class LocalBroker {
    public let port: Int
    private var process: RunningProcess?
    private let directory: URL

    public static let binary = ["/usr/sbin/mosquitto", "/usr/bin/mosquitto"].first { FileManager.default.isExecutableFile(atPath: $0) }

    /// TLS for the listener: the PEM files of its certificate and key.
    public struct TLS: Sendable {
        public var certificate: String
        public var key: String

        public init(certificate: String, key: String) {
            self.certificate = certificate
            self.key = key
        }

        /// A self-signed certificate for `host` (127.0.0.1 by default; its own CA, as a gym's
        /// server would have) made by openssl as `name`.crt and `name`.key in `directory`, the
        /// key readable by the broker's user; the certificate is what a client trusts.
        public static func selfSigned(in directory: String, name: String, host: String = "127.0.0.1") throws -> TLS {
            let tls = TLS(certificate: "\(directory)/\(name).crt", key: "\(directory)/\(name).key")
            let isAddress = host.allSatisfy { $0.isNumber || $0 == "." || $0 == ":" }
            let made = try ChildProcess(executable: "/usr/bin/openssl", arguments: [
                "req", "-x509", "-newkey", "rsa:2048", "-nodes", "-keyout", tls.key, "-out", tls.certificate, "-days", "1",
                "-subj", "/CN=\(host)", "-addext", "subjectAltName=\(isAddress ? "IP" : "DNS"):\(host)",
            ]).run()
            guard made.exitCode == 0 else { throw NoCertificate(description: "openssl made no certificate: \(made.standardError)") }
            _ = chmod(tls.key, 0o644)
            return tls
        }

        /// openssl failed (the message says why).
        public struct NoCertificate: Error, CustomStringConvertible {
            public var description: String
        }
    }

    /// Starts a broker on `port`, or on a free one: open to anyone, or (with `users`) only to
    /// those user names and passwords, as a gym's broker is; with `tls`, mqtts only. With
    /// `persistence`, sessions are saved as Debian's broker saves them (on a clean stop and
    /// every `autosave_interval`, 30 min: a SIGKILL loses what came since); `maxQueuedMessages`
    /// bounds what it queues for one absent client (Mosquitto's default is 1000). `extraConfig`
    /// ends its mosquitto.conf (e.g. a chain's bridge, `ChainBridge`, or an `acl_file` line).
    public init(
        port: Int? = nil, users: [String: String] = [:], tls: TLS? = nil, persistence: Bool = false,
        maxQueuedMessages: Int? = nil, extraConfig: String = ""
    ) throws {
        guard let binary = Self.binary else { throw Missing() }
        directory = FileManager.default.temporaryDirectory.appendingPathComponent("broker-\(UUID().uuidString)")
        try FileManager.default.createDirectory(at: directory, withIntermediateDirectories: true)
        self.port = try port ?? Self.freePort()
        let config = directory.appendingPathComponent("mosquitto.conf")
        var text = "listener \(self.port) 127.0.0.1\n"
        if persistence {
            text += "persistence true\npersistence_location \(directory.path)/\n"
        } else {
            text += "persistence false\n"
        }
        if let maxQueuedMessages { text += "max_queued_messages \(maxQueuedMessages)\n" }
        if let tls { text += "certfile \(tls.certificate)\nkeyfile \(tls.key)\n" }
        if users.isEmpty {
            text += "allow_anonymous true\n"
        } else {
            let passwords = directory.appendingPathComponent("passwd")
            try users.map { "\($0.key):\($0.value)\n" }.joined().write(to: passwords, atomically: true, encoding: .utf8)
            // Hashed in place, as `mosquitto_passwd` does for a gym's file.
            let hashed = try? ChildProcess(executable: "/usr/bin/mosquitto_passwd", arguments: ["-U", passwords.path]).run()
            guard hashed?.exitCode == 0 else { throw Missing() }
            _ = chmod(passwords.path, 0o644)
            text += "allow_anonymous false\npassword_file \(passwords.path)\n"
        }
        text += extraConfig
        // As root Mosquitto drops to its own user, which must be able to read the config.
        try text.write(to: config, atomically: true, encoding: .utf8)
        // (With persistence it writes its file there, as its own user.)
        _ = chmod(directory.path, persistence ? 0o1777 : 0o755)
        _ = chmod(config.path, 0o644)
        self.binary = binary
        self.config = config.path
        try start()
    }

    private let binary: String
    private let config: String

    /// No broker to test against.
    public struct Missing: Error, CustomStringConvertible {
        public var description: String { "no mosquitto binary: scripts/install-deps.sh --tests installs it (apt-get install mosquitto)" }
    }

    deinit {
        stop()
        if reservation >= 0 { close(reservation) }
        try? FileManager.default.removeItem(at: directory)
    }

    /// Keeps the port from other tests while the broker is down (see `reservedPort`).
    private var reservation: Int32 = -1

    /// Starts the broker again on the same port (after `kill()` or `stop()`).
    public func start() throws {
        if reservation >= 0 { close(reservation) }
        reservation = -1
        // Its own log beside its config: what it said is the error when it does not come up.
        process = try RunningProcess(binary, ["-c", config], stderr: directory.appendingPathComponent("mosquitto.log").path)
        try waitUntilListening()
    }

    /// A broker that did not come up: what it said, or that it did not answer in time.
    public struct NotListening: Error, CustomStringConvertible {
        public var port: Int
        public var log: String
        public var description: String { "mosquitto did not listen on 127.0.0.1:\(port): \(log.isEmpty ? "no answer in time" : log)" }
    }

    /// Stops the broker cleanly (SIGTERM), as `systemctl stop mosquitto` does.
    public func stop() {
        guard let process else { return }
        process.signal(SIGTERM)
        if process.wait(upTo: 5) == nil { process.signal(SIGKILL); process.wait() }
        self.process = nil
    }

    /// Where a broker started with `persistence` keeps its saved state (retained messages,
    /// sessions and their queues): Mosquitto's `mosquitto.db`.
    public var persistenceFile: String { directory.appendingPathComponent("mosquitto.db").path }

    /// Has the broker write its persistence file now, as its `autosave_interval` does (SIGUSR1),
    /// and waits up to 20 s for it; false when none was written. The old file is removed first,
    /// so the one found is this save's (Mosquitto writes `mosquitto.db.new`, then renames it).
    public func save() -> Bool {
        guard let process else { return false }
        try? FileManager.default.removeItem(atPath: persistenceFile)
        process.signal(SIGUSR1)
        let deadline = ContinuousClock.now + .seconds(20)
        while ContinuousClock.now < deadline {
            if FileManager.default.fileExists(atPath: persistenceFile) { return true }
            var pause = pollfd()
            _ = poll(&pause, 0, 20)
        }
        return false
    }

    /// Stops the broker at once (as a crash or a pulled cable would look to the clients).
    public func kill() {
        guard let process else { return }
        process.signal(SIGKILL)
        process.wait()
        self.process = nil
        reservation = Self.reserve(port)
    }

    /// A socket bound to `port` (not listening) with SO_REUSEADDR, or -1 if it cannot be had.
    /// Without `reusable`, only a port no other socket has bound (SO_REUSEADDR lets several
    /// sockets that do not listen share one).
    public static func reserve(_ port: Int, reusable: Bool = true) -> Int32 {
        let fd = socket(AF_INET, Int32(SOCK_STREAM.rawValue) | Int32(SOCK_CLOEXEC.rawValue), 0)
        var yes: Int32 = 1
        if reusable { _ = setsockopt(fd, SOL_SOCKET, SO_REUSEADDR, &yes, socklen_t(MemoryLayout<Int32>.size)) }
        var address = sockaddr_in()
        address.sin_family = sa_family_t(AF_INET)
        address.sin_port = in_port_t(UInt16(port).bigEndian)
        address.sin_addr.s_addr = inet_addr("127.0.0.1")
        let bound = withUnsafePointer(to: &address) {
            $0.withMemoryRebound(to: sockaddr.self, capacity: 1) { bind(fd, $0, socklen_t(MemoryLayout<sockaddr_in>.size)) == 0 }
        }
        if !bound { close(fd) }
        return bound ? fd : -1
    }

    /// A port nobody listens on now: the kernel's pick for a socket bound to port 0.
    public static func freePort() throws -> Int {
        let (port, fd) = try reservedPort()
        close(fd)
        return port
    }

    /// A port kept free: the socket bound to it (and not listening, so connecting is refused)
    /// stays open until the caller closes it, so no test running meanwhile gets the same port
    /// for its broker. Close it just before starting a broker there. Every socket here is
    /// close-on-exec: a process another test spawns meanwhile must not inherit it and keep the
    /// port bound after the caller closed it (the broker then failed with "Address already in use"). It lies below the kernel's
    /// range of ephemeral ports, so no client's outgoing connection takes it as its own port in
    /// the moment between that close and the broker's bind (on a busy machine, it did).
    public static func reservedPort() throws -> (port: Int, socket: Int32) {
        var generator = SystemRandomNumberGenerator()
        for _ in 0..<200 {
            let port = Int.random(in: 20_000..<32_000, using: &generator)
            let fd = reserve(port, reusable: false)
            if fd >= 0 { return (port, fd) }
        }
        let fd = socket(AF_INET, Int32(SOCK_STREAM.rawValue) | Int32(SOCK_CLOEXEC.rawValue), 0)
        var address = sockaddr_in()
        address.sin_family = sa_family_t(AF_INET)
        address.sin_addr.s_addr = inet_addr("127.0.0.1")
        var length = socklen_t(MemoryLayout<sockaddr_in>.size)
        let bound = withUnsafeMutablePointer(to: &address) {
            $0.withMemoryRebound(to: sockaddr.self, capacity: 1) { bind(fd, $0, length) == 0 && getsockname(fd, $0, &length) == 0 }
        }
        guard bound else {
            close(fd)
            throw Errno.addressInUse
        }
        return (Int(UInt16(bigEndian: address.sin_port)), fd)
    }

    /// Connects until the broker accepts (it starts in milliseconds; a loaded machine may take
    /// seconds), up to 20 s, and fails at once with its log if it has ended.
    private func waitUntilListening() throws {
        let deadline = ContinuousClock.now + .seconds(20)
        while ContinuousClock.now < deadline {
            if process?.wait(upTo: 0) != nil { break }
            let fd = socket(AF_INET, Int32(SOCK_STREAM.rawValue) | Int32(SOCK_CLOEXEC.rawValue), 0)
            var address = sockaddr_in()
            address.sin_family = sa_family_t(AF_INET)
            address.sin_port = in_port_t(UInt16(port).bigEndian)
            address.sin_addr.s_addr = inet_addr("127.0.0.1")
            let connected = withUnsafePointer(to: &address) {
                $0.withMemoryRebound(to: sockaddr.self, capacity: 1) { Glibc.connect(fd, $0, socklen_t(MemoryLayout<sockaddr_in>.size)) == 0 }
            }
            close(fd)
            if connected { return }
            var pause = pollfd()
            _ = poll(&pause, 0, 10)
        }
        let log = (try? String(contentsOf: directory.appendingPathComponent("mosquitto.log"), encoding: .utf8)) ?? ""
        throw NotListening(port: port, log: log.split(separator: "\n").suffix(3).joined(separator: " / "))
    }
}
