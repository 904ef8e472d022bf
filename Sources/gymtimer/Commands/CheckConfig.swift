import ArgumentParser

/// `gymtimer check-config FILE`: validates a config file and nothing else.
struct CheckConfig: ParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "check-config", abstract: "Check a config file: one line per problem, exit status 2 if any.")

    @Argument(help: "The TOML config file.")
    var file: String

    func run() throws {
        _ = try loadConfiguration(file)
        print("\(file): ok")
    }
}
