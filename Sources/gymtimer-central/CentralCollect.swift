import ArgumentParser
import GymTimerCentral
import GymTimerCollector
import GymTimerCommandLine
import GymTimerCore
import GymTimerFleet
import GymTimerSystem

/// `gymtimer-central collect`: every gym's records, from the central broker (each gym's bridged
/// under `--chain`/{gym}), into PostgreSQL once each, acknowledged end to end (chain.md).
struct CentralCollect: ParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "collect",
        abstract: "Store every gym's workout records, once each, in the chain's PostgreSQL database.")

    @OptionGroup var broker: FleetBrokerOptions

    @OptionGroup var database: CentralDatabaseOptions

    @Option(name: .long, help: "The central broker's first topic level, above each gym's name.")
    var chain = "gyms"

    @Option(name: .long, help: "Share the records with the other collectors of this group ($share/GROUP/…): each record goes to one.")
    var shared: String?

    @Option(name: .customLong("card-key"), help: "The chain's card key file (every station's [athletes] card_key): the card UIDs the database stored before pseudonyms, and any an older station sends, become the cards' pseudonyms.")
    var cardKey: String?

    @Option(name: .customLong("client-id"), help: "The collector's MQTT client id: its persistent session at the broker.")
    var clientID = "gymtimer-central"

    func run() throws {
        if let problem = FleetStationName.problem(chain) { throw CLIError.usage("--chain \(NameText.quoted(chain)): \(problem)") }
        if let shared, let problem = FleetStationName.problem(shared) { throw CLIError.usage("--shared \(NameText.quoted(shared)): \(problem)") }
        let store = try database.store()
        let key = try cardKey.map { path in try CLIError.asUsage { try CardKeyFile.read(path) } }
        do {
            try store.check()
            if let key {
                store.cardKey = key
                let carried = try store.carryCards(with: key)
                if carried > 0 { StandardError.writeLine("collect: \(carried) card UID(s) stored before pseudonyms now their pseudonyms") }
            } else if try store.storedUIDCount() > 0 {
                StandardError.writeLine("collect: the chain's database stores card UIDs from before card pseudonyms: run the collector once with --card-key FILE (the stations' [athletes] card_key) to turn them into pseudonyms")
            }
        } catch {
            // Not fatal: records wait at the stations until the database answers.
            StandardError.writeLine("collect: \(error); collecting anyway, storing once it answers")
        }
        let options = try broker.options(clientID: clientID, cleanSession: false)
        let roster = try database.roster()
        // The desk: each gym's console asks over its bridge and is answered from that gym's rows.
        let desk = GymDeskStores.chain(
            timeZone: .current, wall: .system, store: { store.desk(gym: $0) },
            gymsSince: { since in
                do {
                    return .success(try PostgresGymDesk.gyms(in: store, since: since))
                } catch {
                    return .failure(GymDeskProblem(description: "\(error)"))
                }
            })
        let collector = try CLIError.asUsage {
            try FleetCollector(
                options: options, topics: .chain(prefix: chain, sharedGroup: shared), store: store, roster: roster, desk: desk
            ) {
                StandardError.writeLine($0)
            }
        }
        try CLIError.asFailure { try collector.runUntilStopped() }
    }
}
