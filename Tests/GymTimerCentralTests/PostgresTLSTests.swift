import Foundation
import GymTimerBenchSupport
import GymTimerCentral
import GymTimerTestSupport
import Testing

/// The central store over TLS (`sslmode`, `sslrootcert`) to a real PostgreSQL server that takes
/// TCP logins over TLS only, as a database across the internet should: the records go in over
/// an encrypted session (the server's own `pg_stat_ssl` says so), and a plain login or a server
/// whose certificate the gym's CA did not sign is refused in one line.
@Suite(.serialized) struct PostgresTLSTests {
    let directory = testDirectory("central-tls")

    func store(_ server: LocalPostgres, _ options: String) throws -> PostgresRecordStore {
        PostgresRecordStore(url: try PostgresURL.parse(server.url + options), timeouts: PostgresTimeouts(connect: .seconds(5), query: .seconds(10)))
    }

    /// The TCP sessions of the server's user as the server sees them: whether each is TLS.
    func sessions(_ server: LocalPostgres) throws -> [String] {
        try server.query("SELECT s.ssl FROM pg_stat_ssl s JOIN pg_stat_activity a USING (pid) WHERE a.client_addr IS NOT NULL").map { $0[0] }
    }

    @Test func verifiedTLSCarriesTheRecordsAndPlainOrForeignIsRefused() throws {
        let tls = try LocalBroker.TLS.selfSigned(in: directory, name: "db")
        let server = try LocalPostgres(tls: tls)
        let record = PostgresRecordStoreTests.record("north", "bench-1", minutes: 1)

        let verified = try store(server, "?sslmode=verify-full&sslrootcert=\(tls.certificate)")
        #expect(try verified.store([record]) == 1, "\(server.log)")
        #expect(try sessions(server) == ["t"], "the store's one session is TLS")
        #expect(try server.query("SELECT gym, id FROM workouts") == [["north", "bench-1/rest@1"]])

        // Encrypted without checking whose certificate it is (libpq's require, no CA given).
        #expect(try store(server, "?sslmode=require").store([record]) == 0, "stored once already")

        do {
            _ = try store(server, "?sslmode=disable").store([record])
            Issue.record("a plain login was taken")
        } catch {
            #expect("\(error)".contains("no encryption"), "\(error)")
            #expect(!"\(error)".contains(server.password) && !"\(error)".contains("\n"))
        }

        let foreign = try LocalBroker.TLS.selfSigned(in: directory, name: "other-ca")
        do {
            _ = try store(server, "?sslmode=verify-ca&sslrootcert=\(foreign.certificate)").store([record])
            Issue.record("a certificate the CA did not sign was taken")
        } catch {
            #expect("\(error)".contains("over TLS: the TLS handshake failed"), "\(error)")
        }

        do {
            _ = try store(server, "?sslmode=verify-full&sslrootcert=\(directory)/missing.crt").store([record])
            Issue.record("a missing CA file was taken")
        } catch {
            #expect("\(error)".contains("the CA certificate \(directory)/missing.crt cannot be used"), "\(error)")
        }
        #expect(try server.query("SELECT count(*) FROM workouts") == [["1"]])
    }

    /// verify-full checks that the certificate names the host the URL does; verify-ca does not.
    @Test func verifyFullWantsTheHostsOwnCertificate() throws {
        let tls = try LocalBroker.TLS.selfSigned(in: directory, name: "elsewhere", host: "db.example.org")
        let server = try LocalPostgres(tls: tls)
        let record = PostgresRecordStoreTests.record("north", "bench-1", minutes: 1)
        do {
            _ = try store(server, "?sslmode=verify-full&sslrootcert=\(tls.certificate)").store([record])
            Issue.record("a certificate for db.example.org was taken for 127.0.0.1")
        } catch {
            #expect("\(error)".contains("over TLS: the server's certificate is not for this host"), "\(error)")
        }
        #expect(try store(server, "?sslmode=verify-ca&sslrootcert=\(tls.certificate)").store([record]) == 1, "\(server.log)")
    }
}
