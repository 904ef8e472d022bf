import ArgumentParser
import GymTimerCommandLine
import GymTimerConfig

/// `gymtimer chain centre`: the central broker's ACL file (`ChainCentreACL`), each gym's account
/// kept to its own topics, on stdout.
struct ChainCentreCommand: ParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "centre",
        abstract: "Print the central broker's ACL: each gym's account under its own topics, the collectors' account over all.")

    @Option(help: "The gyms, comma-separated (each gym's account is named as the gym), e.g. gym-a,gym-b.")
    var gyms: String

    @Option(help: "The central collectors' account.")
    var collectors = "collector"

    @Option(help: "The chain's topic prefix on the central broker.")
    var chain = "gyms"

    @Option(help: "The central collectors' shared subscription group (gymtimer collect --shared).")
    var shared = "central"

    func run() throws {
        let names = gyms.split(separator: ",", omittingEmptySubsequences: false).map(String.init)
        do {
            print(try ChainCentreACL(gyms: names, collectors: collectors, chain: chain, sharedGroup: shared).text, terminator: "")
        } catch {
            throw CLIError.usage(error.description)
        }
    }
}
