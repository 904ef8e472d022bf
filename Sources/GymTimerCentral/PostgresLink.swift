#if canImport(Glibc)
import Glibc
#endif
import CPQShim
import Foundation
import GymTimerHAL
import SystemPackage

/// One connection to PostgreSQL through libpq (loaded when first needed: `CPQShim`) behind a
/// blocking API with bounded waits, for a caller on a thread of its own (the collector's
/// loop). It connects when first asked, without blocking past the connect time-out, and waits
/// for each answer at most the query time-out; any failure or time-out closes the connection,
/// so the next call connects again (a restarted server is simply reconnected to). `prepare`
/// runs after each new connection. TLS is libpq's own, as the URL's `sslmode` says.
final class PostgresLink {
    let url: PostgresURL
    private let timeouts: PostgresTimeouts
    private let prepare: (PostgresLink) throws(CentralStoreError) -> Void
    /// libpq's PGconn, while connected.
    private var connection: OpaquePointer?

    init(url: PostgresURL, timeouts: PostgresTimeouts, prepare: @escaping (PostgresLink) throws(CentralStoreError) -> Void) {
        self.url = url
        self.timeouts = timeouts
        self.prepare = prepare
    }

    deinit {
        disconnect()
    }

    /// Where a wait ended: what was waited for came, or the bound.
    private struct TimedOut: Error {}

    /// libpq's or the server's word on a failure, in one line (`reason`), with the SQLSTATE
    /// when the server gave one.
    private struct Failure: Error {
        var reason: String
    }

    /// Runs `query` (connecting first if needed), waiting at most the query time-out; what it
    /// was doing (`operation`) names it in a failure, after which the connection is closed.
    @discardableResult
    func run(_ query: PostgresQuery, _ operation: String) throws(CentralStoreError) -> PostgresQueryResult {
        let connection = try connected()
        do {
            return try execute(query, on: connection, deadline: .now + timeouts.query)
        } catch is TimedOut {
            disconnect()
            throw .timedOut(database: url.description, what: "answer (\(operation))", seconds: timeouts.query.wholeSeconds)
        } catch {
            disconnect()
            throw .failed(database: url.description, operation: operation, reason: (error as? Failure)?.reason ?? "\(error)")
        }
    }

    /// Closes the connection (a transaction left open is rolled back by the server).
    func disconnect() {
        if let connection { gt_pq_finish(UnsafeMutableRawPointer(connection)) }
        connection = nil
    }

    // MARK: Connecting

    private func connected() throws(CentralStoreError) -> OpaquePointer {
        // One the server closed (a restart ends every session) is dropped, not used.
        if let connection, isAlive(connection) { return connection }
        disconnect()
        if let missing = gt_pq_load() {
            throw .unreachable(database: url.description, reason: "libpq cannot be loaded: \(String(cString: missing))")
        }
        if let file = url.sslRootCertificate, url.sslMode != .disable {
            // libpq would say it only once the server offers TLS; said here, before connecting.
            let fd = open(file, O_RDONLY | O_CLOEXEC)
            guard fd >= 0 else {
                throw .unreachable(database: url.description, reason: "the CA certificate \(file) cannot be used: \(Errno(rawValue: errno).text)")
            }
            close(fd)
        }
        let deadline = ContinuousClock.now + timeouts.connect
        let parameters = connectionParameters()
        guard let started = Self.withCStrings(parameters.map(\.0), { keys in
            Self.withCStrings(parameters.map(\.1)) { values in gt_pq_connect_start(keys, values) }
        }) else {
            throw .unreachable(database: url.description, reason: "libpq could not start a connection (out of memory)")
        }
        let pending = OpaquePointer(started)
        do {
            try finishConnecting(pending, deadline: deadline)
        } catch {
            gt_pq_finish(started)
            if error is TimedOut {
                throw .timedOut(database: url.description, what: "accept the connection", seconds: timeouts.connect.wholeSeconds)
            }
            let reason = (error as? Failure)?.reason ?? "\(error)"
            if let tls = Self.tlsFailure(reason, mode: url.sslMode) { throw .tls(database: url.description, reason: tls) }
            throw .unreachable(database: url.description, reason: reason)
        }
        connection = pending
        do {
            try prepare(self)
        } catch {
            disconnect()
            throw error
        }
        guard let connection else {
            throw .unreachable(database: url.description, reason: "the connection closed while the schema was checked")
        }
        return connection
    }

    /// libpq's keywords for the URL: the session in UTC with ISO dates (what `PostgresTimestamp`
    /// reads) and its notices not printed (libpq writes them to stderr), no Kerberos attempt, and the root certificates `sslmode` wants.
    private func connectionParameters() -> [(String, String)] {
        var parameters = [
            ("host", url.host), ("port", String(url.port)), ("user", url.user), ("dbname", url.database),
            ("sslmode", url.sslMode.rawValue), ("gssencmode", "disable"), ("client_encoding", "UTF8"),
            ("application_name", "gymtimer-central"), ("options", "-c DateStyle=ISO -c TimeZone=UTC -c client_min_messages=warning"),
        ]
        if let password = url.password { parameters.append(("password", password)) }
        if let file = url.sslRootCertificate {
            parameters.append(("sslrootcert", file))
        } else if url.sslMode == .verifyCA || url.sslMode == .verifyFull {
            // The system's trusted CAs (libpq would look in ~/.postgresql/root.crt).
            parameters.append(("sslrootcert", "/etc/ssl/certs/ca-certificates.crt"))
        }
        return parameters
    }

    /// Drives libpq's non-blocking connect to its end, waiting on its socket until `deadline`.
    private func finishConnecting(_ pending: OpaquePointer, deadline: ContinuousClock.Instant) throws {
        let conn = UnsafeMutableRawPointer(pending)
        guard gt_pq_status(conn) != Int32(GT_PQ_CONNECTION_BAD) else { throw Failure(reason: Self.message(conn)) }
        var state = Int32(GT_PQ_POLLING_WRITING)
        while true {
            switch state {
            case Int32(GT_PQ_POLLING_OK): return
            case Int32(GT_PQ_POLLING_READING): try wait(gt_pq_socket(conn), for: Int16(POLLIN), until: deadline)
            case Int32(GT_PQ_POLLING_WRITING): try wait(gt_pq_socket(conn), for: Int16(POLLOUT), until: deadline)
            default: throw Failure(reason: Self.message(conn))
            }
            state = gt_pq_connect_poll(conn)
        }
    }

    /// Whether an idle connection is still open: one the server ended (a restart, an idle
    /// time-out) has said so on its socket, which libpq reads here.
    private func isAlive(_ connection: OpaquePointer) -> Bool {
        let conn = UnsafeMutableRawPointer(connection)
        for _ in 0..<2 {
            guard gt_pq_status(conn) == Int32(GT_PQ_CONNECTION_OK) else { return false }
            var fds = [pollfd(fd: gt_pq_socket(conn), events: Int16(POLLIN), revents: 0)]
            guard fds[0].fd >= 0 else { return false }
            guard poll(&fds, 1, 0) > 0 else { return true }
            if fds[0].revents & Int16(POLLHUP | POLLERR | POLLNVAL) != 0 { return false }
            guard gt_pq_consume_input(conn) == 1 else { return false }
            // What was read is the server's goodbye or a notice; anything left is drained.
            while gt_pq_is_busy(conn) == 0, let result = gt_pq_get_result(conn) { gt_pq_clear(result) }
        }
        return gt_pq_status(conn) == Int32(GT_PQ_CONNECTION_OK)
    }

    // MARK: Running a statement

    /// Sends `query` and reads its answer, waiting on the socket until `deadline`.
    private func execute(_ query: PostgresQuery, on connection: OpaquePointer, deadline: ContinuousClock.Instant) throws -> PostgresQueryResult {
        let conn = UnsafeMutableRawPointer(connection)
        guard gt_pq_set_nonblocking(conn, 1) == 0 else { throw Failure(reason: Self.message(conn)) }
        let sent = query.sql.withCString { sql in
            Self.withOptionalCStrings(query.binds.values) { values in
                gt_pq_send_query(conn, sql, Int32(query.binds.count), values)
            }
        }
        guard sent == 1 else { throw Failure(reason: Self.message(conn)) }
        while true {
            let flushed = gt_pq_flush(conn)
            if flushed == 0 { break }
            guard flushed == 1 else { throw Failure(reason: Self.message(conn)) }
            let ready = try wait(gt_pq_socket(conn), for: Int16(POLLIN | POLLOUT), until: deadline)
            if ready & Int16(POLLIN) != 0, gt_pq_consume_input(conn) != 1 { throw Failure(reason: Self.message(conn)) }
        }
        var answer: PostgresQueryResult?
        var failure: Failure?
        while true {
            while gt_pq_is_busy(conn) != 0 {
                try wait(gt_pq_socket(conn), for: Int16(POLLIN), until: deadline)
                guard gt_pq_consume_input(conn) == 1 else { throw Failure(reason: Self.message(conn)) }
            }
            guard let result = gt_pq_get_result(conn) else { break }
            defer { gt_pq_clear(result) }
            switch gt_pq_result_status(result) {
            case Int32(GT_PQ_COMMAND_OK), Int32(GT_PQ_TUPLES_OK), Int32(GT_PQ_EMPTY_QUERY):
                answer = Self.answer(result)
            default:
                failure = failure ?? Failure(reason: Self.serverMessage(result) ?? Self.message(conn))
            }
        }
        if let failure { throw failure }
        guard let answer else { throw Failure(reason: Self.message(conn)) }
        return answer
    }

    /// The rows and the count of `result`.
    private static func answer(_ result: UnsafeMutableRawPointer) -> PostgresQueryResult {
        let rows = Int(gt_pq_rows(result)), columns = Int(gt_pq_columns(result))
        var table: [PostgresRow] = []
        table.reserveCapacity(rows)
        for row in 0..<rows {
            table.append(PostgresRow(cells: (0..<columns).map { column in
                gt_pq_value(result, Int32(row), Int32(column)).map { String(cString: $0) }
            }))
        }
        let affected = gt_pq_affected(result).flatMap { Int(String(cString: $0)) }
        return PostgresQueryResult(rows: table, metadata: .init(rows: affected))
    }

    // MARK: Waiting

    /// Waits until `fd` is ready for `events` (returning what it is ready for) or `deadline`
    /// passes (`TimedOut`); an interrupted wait goes on.
    @discardableResult
    private func wait(_ fd: Int32, for events: Int16, until deadline: ContinuousClock.Instant) throws -> Int16 {
        guard fd >= 0 else { throw Failure(reason: "the connection has no socket") }
        while true {
            let left = ContinuousClock.now.duration(to: deadline)
            guard left > .zero else { throw TimedOut() }
            let (seconds, attoseconds) = left.components
            let milliseconds = Int32(clamping: seconds * 1000 + attoseconds / 1_000_000_000_000_000 + 1)
            var fds = [pollfd(fd: fd, events: events, revents: 0)]
            let ready = poll(&fds, 1, milliseconds)
            if ready > 0 { return fds[0].revents }
            if ready < 0, errno != EINTR { throw Failure(reason: "poll: \(Errno(rawValue: errno).text)") }
        }
    }

    // MARK: Words

    /// The server's message and its SQLSTATE, when the failure is the server's.
    private static func serverMessage(_ result: UnsafeMutableRawPointer) -> String? {
        guard let message = gt_pq_result_field(result, Int32(UInt8(ascii: "M"))) else { return nil }
        let state = gt_pq_result_field(result, Int32(UInt8(ascii: "C"))).map { " (SQLSTATE \(String(cString: $0)))" } ?? ""
        return oneLine(String(cString: message)) + state
    }

    /// libpq's last error of `conn` in one line, without the "connection to server at …
    /// failed:" each attempt starts with (the URL says where) nor the severity.
    private static func message(_ conn: UnsafeMutableRawPointer) -> String {
        let text = gt_pq_error_message(conn).map { String(cString: $0) } ?? ""
        var lines: [String] = []
        for line in text.split(whereSeparator: \.isNewline) {
            var said = line.trimmingCharacters(in: .whitespaces)
            if said.hasPrefix("connection to server"), let colon = said.range(of: " failed: ") {
                said = String(said[colon.upperBound...])
            }
            for severity in ["FATAL:", "ERROR:"] where said.hasPrefix(severity) {
                said = said.dropFirst(severity.count).trimmingCharacters(in: .whitespaces)
            }
            if !said.isEmpty, !lines.contains(said) { lines.append(said) }
        }
        return lines.isEmpty ? "the connection failed (libpq said nothing)" : oneLine(lines.joined(separator: "; "))
    }

    private static func oneLine(_ text: String) -> String {
        String(text.map { $0.isNewline ? " " : $0 }).trimmingCharacters(in: .whitespaces)
    }

    /// What went wrong with TLS when connecting failed for it (nil: something else), from
    /// libpq's words.
    static func tlsFailure(_ reason: String, mode: PostgresSSLMode) -> String? {
        guard mode != .disable else { return nil }
        let lower = reason.lowercased()
        if lower.contains("does not support ssl") { return "the server does not offer TLS, which sslmode asks for" }
        if lower.contains("does not match host name") { return "the server's certificate is not for this host (\(reason))" }
        if lower.contains("ssl") || lower.contains("certificate") { return "the TLS handshake failed (\(reason))" }
        return nil
    }

    // MARK: C strings

    /// `strings` as a C array ending in NULL, as libpq's keyword lists do.
    private static func withCStrings<R>(_ strings: [String], _ body: (UnsafePointer<UnsafePointer<CChar>?>) -> R) -> R {
        withOptionalCStrings(strings.map { Optional($0) }, body)
    }

    /// `strings` as a C array (NULL for nil), one NULL more at its end.
    private static func withOptionalCStrings<R>(_ strings: [String?], _ body: (UnsafePointer<UnsafePointer<CChar>?>) -> R) -> R {
        let copies: [UnsafeMutablePointer<CChar>?] = strings.map { $0.map { strdup($0)! } }
        defer { for copy in copies { free(copy) } }
        let pointers = copies.map { $0.map { UnsafePointer($0) } } + [nil]
        return pointers.withUnsafeBufferPointer { body($0.baseAddress!) }
    }
}

/// How long the central store waits for PostgreSQL before it gives up (and the collector
/// acknowledges nothing): a hung server must not hang the collector.
public struct PostgresTimeouts: Hashable, Sendable {
    /// Connecting and logging in.
    public var connect: Duration
    /// One statement's answer.
    public var query: Duration

    public init(connect: Duration = .seconds(5), query: Duration = .seconds(20)) {
        self.connect = connect
        self.query = query
    }
}

extension Duration {
    var wholeSeconds: Int { Int(components.seconds) }
}
