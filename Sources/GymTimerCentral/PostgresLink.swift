#if canImport(Glibc)
import Glibc
#endif
import Logging
import NIOCore
import NIOPosix
import NIOSSL
import PostgresNIO

/// One connection to PostgreSQL behind a blocking API with bounded waits, for a caller on a
/// thread of its own (the collector's loop; never an event loop's). It connects when first
/// asked; any failure or time-out closes the connection, so the next call connects again (a
/// restarted server is simply reconnected to). `prepare` runs after each new connection.
final class PostgresLink {
    let url: PostgresURL
    private let timeouts: PostgresTimeouts
    private let prepare: (PostgresLink) throws(CentralStoreError) -> Void
    private var connection: PostgresConnection?
    /// The TLS context, once made (see `tls()`).
    private var tlsContext: NIOSSLContext?
    private let eventLoop: any EventLoop = MultiThreadedEventLoopGroup.singleton.next()
    private let logger = Logger(label: "gymtimer-central", factory: { _ in SwiftLogNoOpLogHandler() })

    init(url: PostgresURL, timeouts: PostgresTimeouts, prepare: @escaping (PostgresLink) throws(CentralStoreError) -> Void) {
        self.url = url
        self.timeouts = timeouts
        self.prepare = prepare
    }

    deinit {
        if let connection { Self.close(connection) }
    }

    /// Closes `connection` without waiting (the future-returning `close`, not the async one),
    /// keeping it alive until closed (PostgresNIO asserts a connection is closed at its end).
    private static func close(_ connection: PostgresConnection) {
        let closing: EventLoopFuture<Void> = connection.close()
        closing.whenComplete { _ in withExtendedLifetime(connection) {} }
    }

    /// The time-out a hung call is abandoned at.
    private struct TimedOut: Error {}

    /// Runs `query` (connecting first if needed), waiting at most the query time-out; what it
    /// was doing (`operation`) names it in a failure, after which the connection is closed.
    @discardableResult
    func run(_ query: PostgresQuery, _ operation: String) throws(CentralStoreError) -> PostgresQueryResult {
        let connection = try connected()
        do {
            return try wait(connection.query(query, logger: logger), upTo: timeouts.query)
        } catch {
            disconnect()
            if error is TimedOut {
                throw .timedOut(database: url.description, what: "answer (\(operation))", seconds: timeouts.query.wholeSeconds)
            }
            throw .failed(database: url.description, operation: operation, reason: Self.reason(error))
        }
    }

    /// Closes the connection (a failed transaction is rolled back by the server).
    func disconnect() {
        if let connection { Self.close(connection) }
        connection = nil
    }

    private func connected() throws(CentralStoreError) -> PostgresConnection {
        // One the server closed (a restart ends every session) is dropped, not used: a query
        // on it would wait out the query's time-out rather than fail.
        if let connection, !connection.isClosed { return connection }
        disconnect()
        var configuration = PostgresConnection.Configuration(
            host: url.host, port: url.port, username: url.user, password: url.password, database: url.database, tls: try tls())
        configuration.options.connectTimeout = timeouts.connect.timeAmount
        let future = PostgresConnection.connect(on: eventLoop, configuration: configuration, id: 1, logger: logger)
        do {
            connection = try wait(future, upTo: timeouts.connect)
        } catch {
            // A login that answers after the time-out is closed, not leaked.
            future.whenSuccess { Self.close($0) }
            if let tls = Self.tlsFailure(error) {
                throw .tls(database: url.description, reason: tls)
            }
            if Self.isConnectTimeout(error) {
                throw .timedOut(database: url.description, what: "accept the connection", seconds: timeouts.connect.wholeSeconds)
            }
            throw .unreachable(database: url.description, reason: Self.reason(error))
        }
        do {
            try prepare(self)
        } catch {
            disconnect()
            throw error
        }
        return connection!
    }

    /// The TLS the URL's `sslmode` asks for, its context made once (a CA file that cannot be
    /// read is said, as the server being unreachable is, and tried again on the next connect).
    private func tls() throws(CentralStoreError) -> PostgresConnection.Configuration.TLS {
        guard url.sslMode != .disable else { return .disable }
        if tlsContext == nil {
            var configuration = TLSConfiguration.makeClientConfiguration()
            switch url.sslMode {
            case .verifyFull: configuration.certificateVerification = .fullVerification
            case .verifyCA: configuration.certificateVerification = .noHostnameVerification
            case .require: configuration.certificateVerification = url.sslRootCertificate == nil ? .none : .noHostnameVerification
            case .prefer, .disable: configuration.certificateVerification = .none
            }
            if let file = url.sslRootCertificate { configuration.trustRoots = .file(file) }
            do {
                tlsContext = try NIOSSLContext(configuration: configuration)
            } catch {
                let what = url.sslRootCertificate.map { "the CA certificate \($0) cannot be used" } ?? "no TLS context"
                throw .unreachable(database: url.description, reason: "\(what): \(error)")
            }
        }
        return url.sslMode.demandsTLS ? .require(tlsContext!) : .prefer(tlsContext!)
    }

    /// `future`'s value, or `TimedOut` after `limit` (the future's own outcome then ignored).
    private func wait<Value: Sendable>(_ future: EventLoopFuture<Value>, upTo limit: Duration) throws -> Value {
        let promise = future.eventLoop.makePromise(of: Value.self)
        let timer = future.eventLoop.scheduleTask(in: limit.timeAmount) { promise.fail(TimedOut()) }
        future.whenComplete { result in
            timer.cancel()
            promise.completeWith(result)
        }
        return try promise.futureResult.wait()
    }

    /// Whether connecting gave up at the bound: ours, or PostgresNIO's own (the same bound,
    /// `connectTimeout`), whichever fired first.
    private static func isConnectTimeout(_ error: any Error) -> Bool {
        if error is TimedOut { return true }
        guard let psql = error as? PSQLError else { return false }
        let causes = (psql.underlying as? NIOConnectionError)?.connectionErrors.map(\.error) ?? psql.underlying.map { [$0] } ?? []
        return causes.contains { cause in
            if case .connectTimeout = cause as? ChannelError { true } else { false }
        }
    }

    /// What went wrong with TLS when connecting failed for it (nil: something else).
    static func tlsFailure(_ error: any Error) -> String? {
        guard let psql = error as? PSQLError else { return nil }
        if psql.code == .sslUnsupported { return "the server does not offer TLS, which sslmode asks for" }
        switch psql.underlying {
        case let ssl as NIOSSLError: return "the TLS handshake failed (\(ssl))"
        case let ssl as NIOSSLExtraError: return "the server's certificate is not for this host (\(ssl))"
        case let ssl as BoringSSLError: return "the TLS handshake failed (\(ssl))"
        default: return nil
        }
    }

    /// A failure in one line: the server's message, or what broke the connection.
    /// (`PSQLError`'s own description hides both.)
    static func reason(_ error: any Error) -> String {
        guard let psql = error as? PSQLError else { return "\(error)" }
        if let message = psql.serverInfo?[.message] {
            let state = psql.serverInfo?[.sqlState].map { " (SQLSTATE \($0))" } ?? ""
            return message + state
        }
        if let connection = psql.underlying as? NIOConnectionError, let first = connection.connectionErrors.first {
            // The system's word for it ("Connection refused"), not NIO's wrapping of it.
            if let io = first.error as? IOError { return String(cString: strerror(io.errnoCode)) }
            return "\(first.error)"
        }
        if let underlying = psql.underlying { return "\(underlying)" }
        if psql.code == .serverClosedConnection || psql.code == .uncleanShutdown { return "the server closed the connection" }
        return "\(psql.code)"
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
    var timeAmount: TimeAmount {
        let (seconds, attoseconds) = components
        return .nanoseconds(seconds * 1_000_000_000 + attoseconds / 1_000_000_000)
    }

    var wholeSeconds: Int { Int(components.seconds) }
}
