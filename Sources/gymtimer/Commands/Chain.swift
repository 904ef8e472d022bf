import ArgumentParser

/// `gymtimer chain`: the configuration a chain of gyms runs on (docs/chain.md): each gym's
/// bridge to the central broker, and the central broker's ACL.
struct Chain: ParsableCommand {
    static let configuration = CommandConfiguration(
        abstract: "Write a chain of gyms' broker configuration: a gym's bridge to the central broker, the central broker's ACL.",
        subcommands: [ChainBridgeCommand.self, ChainCentreCommand.self])
}
