import Foundation
import Glibc
import GymTimerHAL
import SystemPackage
import GymTimerSystem

/// A real PostgreSQL server on loopback, on a free port, in a cluster of its own (initdb into a
/// temporary directory) for as long as this object lives: the central store's tests and the
/// chain's run against it. Only processes (initdb, pg_ctl), so this target links no database
/// client. PostgreSQL refuses to run as root: as root (CI) the server runs as the `postgres`
/// user Debian's package makes (else `nobody`), owning the directory. Without PostgreSQL it
/// throws `Missing`, so a test fails saying so rather than skipping.
public final class LocalPostgres {
    public let port: Int
    /// The superuser's name and password (password logins over TCP: scram-sha-256).
    public let user = "gymtimer"
    public let password: String
    private let directory: URL
    private let bin: String
    /// As root, who the server runs as (`runuser -u`); nil runs it as this process's user.
    private let runAs: String?
    private var reservation: Int32 = -1
    /// Whether the server takes TCP logins over TLS only (`init(tls:)`).
    private let tls: Bool

    /// No PostgreSQL to test against.
    public struct Missing: Error, CustomStringConvertible {
        public var description: String {
            "no PostgreSQL server (/usr/lib/postgresql/*/bin/initdb): scripts/install-deps.sh --tests installs it (apt-get install postgresql)"
        }
    }

    /// A step (initdb, start, stop) that failed: what it said.
    public struct Failed: Error, CustomStringConvertible {
        public var step: String
        public var output: String
        public var description: String { "PostgreSQL's \(step) failed: \(output)" }
    }

    /// The newest installed server's programs, if any.
    public static var binaries: String? {
        let root = "/usr/lib/postgresql"
        let versions = (try? FileManager.default.contentsOfDirectory(atPath: root)) ?? []
        return versions.sorted { (Int($0) ?? 0) > (Int($1) ?? 0) }.map { "\(root)/\($0)/bin" }
            .first { FileManager.default.isExecutableFile(atPath: "\($0)/initdb") }
    }

    /// Makes a cluster and starts its server; with `tls`, the server offers TLS with that
    /// certificate and takes TCP logins over TLS only (`hostssl` in pg_hba.conf), as a central
    /// database reached across the internet should.
    public init(tls: LocalBroker.TLS? = nil) throws {
        guard let bin = Self.binaries else { throw Missing() }
        self.bin = bin
        runAs = geteuid() == 0 ? (getpwnam("postgres") != nil ? "postgres" : "nobody") : nil
        password = UUID().uuidString
        self.tls = tls != nil
        // As root, under /tmp: a TMPDIR of root's own may be closed to the server's user.
        let temporary = runAs == nil ? FileManager.default.temporaryDirectory : URL(fileURLWithPath: "/tmp")
        directory = temporary.appendingPathComponent("postgres-\(UUID().uuidString)")
        try FileManager.default.createDirectory(at: directory, withIntermediateDirectories: true)
        let (port, socket) = try LocalBroker.reservedPort()
        self.port = port
        reservation = socket
        try hand(directory.path)
        let passwordFile = directory.appendingPathComponent("password")
        try password.write(to: passwordFile, atomically: true, encoding: .utf8)
        try hand(passwordFile.path)
        try run(
            "initdb",
            [
                "-D", dataPath, "-U", user, "--pwfile", passwordFile.path, "--auth-local=trust", "--auth-host=scram-sha-256",
                "-E", "UTF8", "--no-locale", "--no-sync",
            ])
        if let tls { try offerTLS(tls) }
        try start()
    }

    /// The server's certificate and key in the cluster (the key its user's alone, as
    /// PostgreSQL demands), and `host` logins turned into `hostssl` ones.
    private func offerTLS(_ tls: LocalBroker.TLS) throws {
        for (source, name) in [(tls.certificate, "server.crt"), (tls.key, "server.key")] {
            let target = "\(dataPath)/\(name)"
            try? FileManager.default.removeItem(atPath: target)
            try FileManager.default.copyItem(atPath: source, toPath: target)
            _ = chmod(target, 0o600)
            try hand(target)
        }
        let hba = "\(dataPath)/pg_hba.conf"
        let lines = try String(contentsOfFile: hba, encoding: .utf8).split(separator: "\n", omittingEmptySubsequences: false)
        let sslOnly = lines.map { $0.hasPrefix("host ") ? "hostssl " + $0.dropFirst("host ".count) : String($0) }
        try sslOnly.joined(separator: "\n").write(toFile: hba, atomically: true, encoding: .utf8)
        try hand(hba)
    }

    deinit {
        stop(mode: "immediate")
        if reservation >= 0 { close(reservation) }
        try? FileManager.default.removeItem(at: directory)
    }

    private var dataPath: String { directory.appendingPathComponent("data").path }

    /// The `postgresql://` URL of the cluster's `postgres` database, with the password: what a
    /// central collector's `--db` takes.
    public var url: String { "postgresql://\(user):\(password)@127.0.0.1:\(port)/postgres" }

    /// The rows `sql` returns, each a list of its fields as text (NULL as ""), run by psql over
    /// the server's socket: for tests and the bench to look at the database without a client.
    public func query(_ sql: String) throws -> [[String]] {
        let output = directory.appendingPathComponent("query-\(UUID().uuidString).out")
        defer { try? FileManager.default.removeItem(at: output) }
        let separator = "\u{1F}"
        try run(
            "psql",
            ["-h", directory.path, "-p", "\(port)", "-U", user, "-d", "postgres", "-X", "-A", "-t", "-F", separator, "-v", "ON_ERROR_STOP=1",
             "-o", output.path, "-c", sql])
        let text = (try? String(contentsOf: output, encoding: .utf8)) ?? ""
        return text.split(separator: "\n", omittingEmptySubsequences: true).map {
            $0.split(separator: Character(separator), omittingEmptySubsequences: false).map(String.init)
        }
    }

    /// Starts the server (again, after `stop`) on the same port; returns once it accepts.
    public func start() throws {
        if reservation >= 0 { close(reservation) }
        reservation = -1
        // Small (several tests run a server each at once), and no fsync: a test's data is scratch.
        let options = "-p \(port) -c listen_addresses=127.0.0.1 -c unix_socket_directories=\(directory.path) -c fsync=off"
            + " -c shared_buffers=16MB -c max_connections=40" + (tls ? " -c ssl=on" : "")
        try run("pg_ctl", ["-D", dataPath, "-l", directory.appendingPathComponent("server.log").path, "-o", options, "-w", "-t", "60", "start"])
    }

    /// Stops the server: `fast` (as `systemctl stop` does: sessions ended, a clean shutdown) or
    /// `immediate` (as a crash: recovery at the next start). The port stays reserved meanwhile.
    public func stop(mode: String = "fast") {
        _ = try? run("pg_ctl", ["-D", dataPath, "-m", mode, "-w", "-t", "60", "stop"])
        if reservation < 0 { reservation = LocalBroker.reserve(port) }
    }

    /// Freezes the server and every session's process (SIGSTOP): a hung server, which takes
    /// connections and answers nothing, until `thaw`.
    public func freeze() { signalServer(SIGSTOP) }

    /// Lets a frozen server run again (SIGCONT).
    public func thaw() { signalServer(SIGCONT) }

    /// Sends `signal` to the postmaster (its pid file's first line) and its children.
    private func signalServer(_ signal: Int32) {
        let pidFile = directory.appendingPathComponent("data/postmaster.pid").path
        guard let text = try? String(contentsOfFile: pidFile, encoding: .utf8),
              let line = text.split(separator: "\n").first, let postmaster = pid_t(line) else { return }
        let entries = (try? FileManager.default.contentsOfDirectory(atPath: "/proc")) ?? []
        let children = entries.compactMap(pid_t.init).filter { Self.parent(of: $0) == postmaster }
        _ = kill(postmaster, signal)
        for child in children { _ = kill(child, signal) }
    }

    /// The parent of `pid` (/proc/PID/stat's fourth field, after the name in parentheses).
    private static func parent(of pid: pid_t) -> pid_t? {
        guard let stat = try? String(contentsOfFile: "/proc/\(pid)/stat", encoding: .utf8),
              let close = stat.lastIndex(of: ")") else { return nil }
        let fields = stat[stat.index(after: close)...].split(separator: " ")
        return fields.count > 1 ? pid_t(fields[1]) : nil
    }

    /// The server's log (what it said when a test fails).
    public var log: String {
        (try? String(contentsOf: directory.appendingPathComponent("server.log"), encoding: .utf8)) ?? ""
    }

    /// Gives `path` to the server's user (as root), who must own the cluster.
    private func hand(_ path: String) throws {
        guard let runAs, let account = getpwnam(runAs) else { return }
        guard chown(path, account.pointee.pw_uid, account.pointee.pw_gid) == 0 else {
            throw Failed(step: "chown of \(path) to \(runAs)", output: Errno.last.text)
        }
    }

    /// Runs one of the server's programs (as its user), failing with what it said.
    private func run(_ program: String, _ arguments: [String]) throws {
        let path = "\(bin)/\(program)"
        let child: ChildProcess
        if let runAs {
            child = ChildProcess(executable: "/usr/sbin/runuser", arguments: ["-u", runAs, "--", path] + arguments, environment: Self.environment, timeout: .seconds(120))
        } else {
            child = ChildProcess(executable: path, arguments: arguments, environment: Self.environment, timeout: .seconds(120))
        }
        let outcome = try child.run()
        guard outcome.exitCode == 0 else {
            let said = outcome.standardError.split(separator: "\n").suffix(3).joined(separator: " / ")
            let tail = log.split(separator: "\n").suffix(3).joined(separator: " / ")
            throw Failed(step: program, output: said.isEmpty ? tail : said + " / " + tail)
        }
    }

    private static let environment = ["PATH": "/usr/sbin:/usr/bin:/sbin:/bin", "LC_ALL": "C"]
}
