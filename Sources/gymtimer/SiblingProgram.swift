import ArgumentParser
import Foundation
#if canImport(Glibc)
import Glibc
#endif
import GymTimerHAL
import SystemPackage

/// The programs installed beside `gymtimer` that some of its commands become (`console` →
/// gymtimer-console, `collect`/`history --db postgresql://…` → gymtimer-central), so that the
/// kiosk's binary links neither an HTTP server nor a PostgreSQL client.
enum SiblingProgram {
    /// Replaces this process with `program ARGUMENTS` from this binary's directory; returns only
    /// when that cannot run, with the exit status after printing one line (prefixed `command:`)
    /// saying why and what to install.
    static func exec(_ program: String, _ arguments: [String], command: String) -> ExitCode {
        guard let own = Bench.ownExecutable() else {
            return CLIError.failed("\(command): cannot find this program's own path (/proc/self/exe) to find \(program) beside it")
        }
        let path = URL(fileURLWithPath: own).deletingLastPathComponent().appendingPathComponent(program).path
        let argv: [UnsafeMutablePointer<CChar>?] = ([path] + arguments).map { strdup($0) } + [nil]
        execv(path, argv)
        let why = errno
        for arg in argv { free(arg) }
        if why == ENOENT {
            return CLIError.failed(
                "\(command): \(path) is missing: \(program) is a program of its own; install the gymtimer package (or deploy/install.sh) again, which puts \(program) beside \(own)")
        }
        return CLIError.failed("\(command): cannot run \(path): \(Errno(rawValue: why).text)")
    }

    /// Whether `arguments` (a command's, after its name) give `--db` a PostgreSQL URL
    /// (`--db URL` or `--db=URL`): the chain's central database, which gymtimer-central serves.
    static func namesPostgres(_ arguments: [String]) -> Bool {
        for (index, argument) in arguments.enumerated() {
            if argument == "--" { return false }
            if argument == "--db", index + 1 < arguments.count, isPostgres(arguments[index + 1]) { return true }
            if argument.hasPrefix("--db="), isPostgres(String(argument.dropFirst("--db=".count))) { return true }
        }
        return false
    }

    /// As `PostgresURL.isPostgres` (GymTimerCentral, which this binary does not link) says.
    private static func isPostgres(_ text: String) -> Bool {
        text.hasPrefix("postgresql://") || text.hasPrefix("postgres://")
    }
}
