import ArgumentParser
import Foundation
import GymTimerCentral
import GymTimerCommandLine
import GymTimerHistory

/// `gymtimer-central athletes --db URL list`: every athlete of the chain, their short name and cards.
struct CentralAthletesList: ParsableCommand {
    static let configuration = CommandConfiguration(commandName: "list", abstract: "List the roster: name, short name, cards, added.")

    @ParentCommand var parent: CentralAthletes

    func run() throws {
        let roster = try parent.roster()
        let athletes: [RosterAthlete]
        do {
            athletes = try roster.athletes()
        } catch {
            throw CentralAthletes.failure(error)
        }
        let output = StandardOutput()
        guard !athletes.isEmpty else {
            // The database without its password.
            output.write("No athletes in the roster of \(roster.database).\n")
            output.flush()
            return
        }
        let day = DateFormatter()
        day.dateFormat = "yyyy-MM-dd"
        let rows = [["Name", "Short", "Cards", "Added"]]
            + athletes.map { [$0.name, $0.shortName, $0.cards.map(\.hex).joined(separator: ", "), day.string(from: $0.createdAt)] }
        let widths = rows[0].indices.map { column in rows.map { $0[column].count }.max() ?? 0 }
        for row in rows {
            output.write(row.indices.map { row[$0].padding(toLength: widths[$0], withPad: " ", startingAt: 0) }
                .joined(separator: "  ").trimmingCharacters(in: .whitespaces) + "\n")
        }
        output.flush()
    }
}
