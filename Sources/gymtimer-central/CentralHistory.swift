import ArgumentParser
import Foundation
import GymTimerCentral
import GymTimerCollector
import GymTimerCommandLine
import GymTimerHistory

/// `gymtimer-central history`: the chain's records, newest first, of one gym or all.
struct CentralHistory: ParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "history",
        abstract: "List the chain's recorded workouts: a table (station shown as gym/station), or --json.")

    @OptionGroup var database: CentralDatabaseOptions

    @Option(name: .long, help: "Only this gym's workouts.")
    var gym: String?

    @Flag(name: .long, help: "A JSON array, each workout with its gym.")
    var json = false

    @Option(name: .customLong("void"), help: ArgumentHelp(
        "Void that gym's (--gym) program result with this id (its \"id\" in --json): no best or leaderboard of the chain counts it any more.",
        valueName: "id"))
    var voidRecord: String?

    func run() throws {
        if let voidRecord {
            guard let gym else { throw CLIError.usage("--void needs --gym: the gym whose result it is") }
            switch try database.store().desk(gym: gym).void(record: voidRecord) {
            case .success(let said): print(said)
            case .failure(let problem): throw CLIError.failed(problem.description)
            }
            return
        }
        let records: [CollectedRecord]
        do {
            records = try database.store().records(gym: gym)
        } catch let error as CentralStoreError {
            throw CLIError.failed("\(error)")
        }
        try StandardOutput.report {
            if json { return try HistoryOutput.encode(records.map(GymWorkout.init)) }
            let shown = records.map { record in
                var workout = record.workout
                workout.station = [record.gym, workout.station].compactMap { $0 }.joined(separator: "/")
                return workout
            }
            // Athletes named as the chain's roster names them.
            let names = (try? database.roster())?.namesByCard() ?? [:]
            return HistoryOutput.table(shown, timeZone: .current, names: names)
        }
    }
}

/// One record in `--json`: the workout's fields (as `gymtimer history --json`) and its gym.
struct GymWorkout: Encodable {
    var record: CollectedRecord

    enum Key: String, CodingKey { case gym }

    func encode(to encoder: any Encoder) throws {
        try record.workout.encode(to: encoder)
        var container = encoder.container(keyedBy: Key.self)
        try container.encodeIfPresent(record.gym, forKey: .gym)
    }
}
