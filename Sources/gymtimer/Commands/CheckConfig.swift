import ArgumentParser
import GymTimerConfig
import GymTimerCore
import GymTimerSystem

/// `gymtimer check-config FILE`: validates a config file, and that the files it names (the
/// fleet's password and CA files) can be read, which the kiosk would otherwise find out only
/// when it starts (and then runs without its fleet).
struct CheckConfig: ParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "check-config", abstract: "Check a config file: one line per problem, exit status 2 if any.")

    @Argument(help: "The TOML config file.")
    var file: String

    func run() throws {
        let configuration = try loadConfiguration(file)
        var problems = FleetFiles.problems(configuration.fleet)
        if let path = configuration.kiosk.athletes.cardKeyPath {
            do {
                _ = try CardKeyFile.read(path)
            } catch {
                problems.append("athletes.card_key = \(NameText.quoted(path)): \(error.detail) (the gym's card key, 32 bytes of hex on one line)")
            }
        }
        for problem in problems { StandardError.writeLine("\(file): \(problem)") }
        if !problems.isEmpty { throw ExitCode(2) }
        print("\(file): ok")
    }
}
