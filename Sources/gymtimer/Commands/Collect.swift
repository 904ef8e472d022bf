import ArgumentParser
import Foundation
import GymTimerCollector
import GymTimerSystem

/// `gymtimer collect`: every station's workout records into one history database (fleet.md).
struct Collect: ParsableCommand {
    static let configuration = CommandConfiguration(
        abstract: "Store every fleet station's workout records, once each, in one history database.")

    @OptionGroup var broker: FleetBrokerOptions

    @Option(name: .long, help: "The gym's history database (created if missing); read it with history/stats --db. A chain's central PostgreSQL, postgresql://USER@HOST/DB, is gymtimer-central's: `gymtimer collect --db postgresql://…` runs it.")
    var db: String

    @Option(name: .customLong("card-key"), help: "The gym's card key file (the stations' [athletes] card_key): the card UIDs the database stored before pseudonyms, and any an older station sends, become the cards' pseudonyms.")
    var cardKey: String?

    @Option(name: .customLong("client-id"), help: "The collector's MQTT client id: its persistent session at the broker.")
    var clientID = "gymtimer-collect"

    func run() throws {
        let options = try broker.options(clientID: clientID, cleanSession: false)
        let key = try cardKey.map { path in try CLIError.asUsage { try CardKeyFile.read(path) } }
        let collector = try CLIError.asUsage {
            try FleetCollector(options: options, prefix: broker.topicPrefix, database: db, cardKey: key) { StandardError.writeLine($0) }
        }
        try CLIError.asFailure { try collector.runUntilStopped() }
    }
}
