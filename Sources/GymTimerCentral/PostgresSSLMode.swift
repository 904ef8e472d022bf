/// How a central store's connection to PostgreSQL uses TLS: libpq's `sslmode`, with its
/// meanings, so a URL that works for `psql` means the same here.
///
/// * `disable`: plain TCP.
/// * `prefer` (the default, as libpq's): TLS when the server offers it, else plain; the
///   server's certificate is not checked (it guards against a passive listener only).
/// * `require`: TLS or no connection; the certificate is checked against `sslrootcert` when
///   one is given (as libpq does when it finds a root certificate), else not.
/// * `verify-ca`: TLS, the certificate signed by a trusted CA (`sslrootcert`, else the
///   system's).
/// * `verify-full`: as `verify-ca`, and the certificate names the host: what a database
///   across the internet wants.
public enum PostgresSSLMode: String, CaseIterable, Hashable, Sendable {
    case disable
    case prefer
    case require
    case verifyCA = "verify-ca"
    case verifyFull = "verify-full"

    /// Whether the connection fails rather than go on without TLS.
    public var demandsTLS: Bool { self != .disable && self != .prefer }
}
