import GymTimerCentral
import Testing

/// `--db postgresql://…` parsed strictly: each part percent-decoded, a typo or a hostile value
/// one line that never repeats the password.
@Suite struct PostgresURLTests {
    @Test func everyPartIsTakenAndDecoded() throws {
        let url = try PostgresURL.parse("postgresql://central%40chain:p%3Ass%2Fw@db.example.org:6543/gym%20chain")
        #expect(url == PostgresURL(user: "central@chain", password: "p:ss/w", host: "db.example.org", port: 6543, database: "gym chain"))
        #expect(url.description == "postgresql://central@chain@db.example.org:6543/gym chain")
    }

    @Test func theShortSchemeTheDefaultPortAndNoPassword() throws {
        let url = try PostgresURL.parse("postgres://gymtimer@127.0.0.1/chain")
        #expect(url == PostgresURL(user: "gymtimer", password: nil, host: "127.0.0.1", port: 5432, database: "chain"))
        let v6 = try PostgresURL.parse("postgresql://u:@[::1]:5433/d")
        #expect(v6 == PostgresURL(user: "u", password: "", host: "::1", port: 5433, database: "d"))
        #expect(v6.description == "postgresql://u@[::1]:5433/d")
    }

    /// libpq's TLS options: the mode and the CA file, percent-decoded; `prefer` when none is
    /// said (libpq's default), shown in messages only when it is another.
    @Test func theTLSOptionsAreLibpqs() throws {
        let url = try PostgresURL.parse("postgresql://u:p@db.example.org/chain?sslmode=verify-full&sslrootcert=/etc/gymtimer/ca%20chain.crt")
        #expect(url.sslMode == .verifyFull && url.sslRootCertificate == "/etc/gymtimer/ca chain.crt" && url.database == "chain")
        #expect(url.description == "postgresql://u@db.example.org:5432/chain?sslmode=verify-full")
        #expect(try PostgresURL.parse("postgresql://u@h/d").sslMode == .prefer)
        #expect(try PostgresURL.parse("postgresql://u@h/d?sslmode=disable").sslMode == .disable)
        #expect(try PostgresURL.parse("postgresql://u@h/d?sslmode=require").sslRootCertificate == nil)
    }

    /// A password with an unescaped @: the last @ ends the user's part, as libpq reads it.
    @Test func thePasswordMayHoldAnAt() throws {
        let url = try PostgresURL.parse("postgresql://u:a@b@host/d")
        #expect(url.password == "a@b" && url.host == "host")
    }

    @Test(arguments: [
        ("mysql://u@h/d", "does not start with postgresql://"),
        ("postgresql://h/d", "no USER@"),
        ("postgresql://@h/d", "user name is empty"),
        ("postgresql://u@h", "no /DATABASE"),
        ("postgresql://u@h/", "database name is empty"),
        ("postgresql://u@/d", "host is empty"),
        ("postgresql://u@h:0/d", "port 0"),
        ("postgresql://u@h:65536/d", "port 65536"),
        ("postgresql://u@h:54x/d", "port 54x"),
        ("postgresql://u@h:99999999999999999999/d", "not a number from 1 to 65535"),
        ("postgresql://u@h/d?sslmode=allow", "sslmode allow is none of disable, prefer, require, verify-ca, verify-full"),
        ("postgresql://u@h/d?sslmode=require&sslmode=disable", "not NAME=VALUE once"),
        ("postgresql://u@h/d?sslmode", "not NAME=VALUE once"),
        ("postgresql://u@h/d?application_name=x", "application_name is not supported"),
        ("postgresql://u@h/d?sslrootcert=/ca.crt", "sslrootcert needs sslmode=require"),
        ("postgresql://u@h/d?sslmode=verify-full&sslrootcert=", "sslrootcert is empty"),
        ("postgresql://u@h/d?sslmode=require&sslrootcert=%0A", "holds a control character"),
        ("postgresql://u@h/d#x", "fragment"),
        ("postgresql://u@h/d e", "space or a control"),
        ("postgresql://u@h/d\u{0}", "space or a control"),
        ("postgresql://u%0A@h/d", "user name holds a control character"),
        ("postgresql://u:%00@h/d", "password holds a control character"),
        ("postgresql://u:%zz@h/d", "bad %-escape in the password"),
        ("postgresql://u:%4@h/d", "bad %-escape in the password"),
        ("postgresql://u@h/%FF", "not UTF-8"),
        ("postgresql://u@h;rm -rf/d", "space or a control"),
        ("postgresql://u@h;x/d", "not a host name"),
        ("postgresql://u@[::1/d", "without its ]"),
    ])
    func aBadURLIsOneLineSayingWhat(text: String, problem: String) {
        do {
            let url = try PostgresURL.parse(text)
            Issue.record("\(text) parsed as \(url)")
        } catch {
            #expect(error.description.contains(problem), "\(text): \(error)")
            #expect(!error.description.contains("\n"))
        }
    }

    /// A message never shows the password, however the URL was wrong.
    @Test func theMessageNeverShowsThePassword() {
        #expect(throws: PostgresURL.Invalid.self) { try PostgresURL.parse("postgresql://u:s3cret@h:x/d") }
        do {
            _ = try PostgresURL.parse("postgresql://u:s3cret@h:x/d")
        } catch {
            #expect(!error.description.contains("s3cret"))
        }
        #expect(PostgresURL(user: "u", password: "s3cret", host: "h", database: "d").description == "postgresql://u@h:5432/d")
    }
}
