import ArgumentParser
import GymTimerConfig

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
        let problems = FleetFiles.problems(configuration.fleet)
        for problem in problems { StandardError.writeLine("\(file): \(problem)") }
        if !problems.isEmpty { throw ExitCode(2) }
        print("\(file): ok")
    }
}
