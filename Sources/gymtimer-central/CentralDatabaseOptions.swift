import ArgumentParser
import GymTimerCentral
import GymTimerCommandLine

/// The central database's options: `--db postgresql://…` and, to keep the password out of the
/// command line (and `ps`), `--db-password-file`.
struct CentralDatabaseOptions: ParsableArguments {
    @Option(name: .long, help: "The central database: postgresql://USER[:PASSWORD]@HOST[:PORT]/DATABASE.")
    var db: String

    @Option(name: .customLong("db-password-file"), help: "File whose first line is the database password (instead of one in --db).")
    var passwordFile: String?

    /// The store `--db` names, or a one-line usage error.
    func store() throws -> PostgresRecordStore {
        PostgresRecordStore(url: try url())
    }

    /// The roster `--db` names, or a one-line usage error.
    func roster() throws -> PostgresRoster {
        PostgresRoster(url: try url())
    }

    /// The database `--db` names, with the password file's password; or a one-line usage error.
    func url() throws -> PostgresURL {
        var url: PostgresURL
        do {
            url = try PostgresURL.parse(db)
        } catch {
            throw CLIError.usage("--db: \(error)")
        }
        if let passwordFile {
            url.password = try readPassword(passwordFile)
        }
        return url
    }
}
