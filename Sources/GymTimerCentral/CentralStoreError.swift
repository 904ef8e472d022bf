/// Why the central database did not answer as asked: one line saying what failed and what to
/// do. A collector that gets one acknowledges nothing (the stations send again) and reconnects
/// on its next batch.
public enum CentralStoreError: Error, Hashable, Sendable, CustomStringConvertible {
    /// The server could not be reached or refused the login.
    case unreachable(database: String, reason: String)
    /// The connection's TLS failed (`sslmode`): not offered, or the certificate not trusted.
    case tls(database: String, reason: String)
    /// The server took longer than the bound to connect or to answer (`what`: which).
    case timedOut(database: String, what: String, seconds: Int)
    /// The server answered with an error (or the connection broke) while doing `operation`.
    case failed(database: String, operation: String, reason: String)
    /// The database was set up by a newer gymtimer-central than this one.
    case newerSchema(database: String, version: Int, known: Int)

    public var description: String {
        switch self {
        case .unreachable(let database, let reason):
            "cannot reach the central database \(database): \(reason); check that PostgreSQL runs there and the user and password"
        case .tls(let database, let reason):
            "cannot reach the central database \(database) over TLS: \(reason); check sslmode, sslrootcert and the server's certificate"
        case .timedOut(let database, let what, let seconds):
            "the central database \(database) did not \(what) within \(seconds) s; check the server and the network to it"
        case .failed(let database, let operation, let reason):
            "the central database \(database) failed to \(operation): \(reason)"
        case .newerSchema(let database, let version, let known):
            "the central database \(database) has schema version \(version), newer than this gymtimer-central's \(known): install the newer gymtimer"
        }
    }
}
