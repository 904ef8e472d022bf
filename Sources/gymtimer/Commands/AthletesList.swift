import ArgumentParser
import Foundation
import GymTimerHistory

/// `gymtimer athletes --db PATH list`: every athlete of the roster, their short name and cards.
struct AthletesList: ParsableCommand {
    static let configuration = CommandConfiguration(commandName: "list", abstract: "List the roster: name, short name, cards, added.")

    @ParentCommand var parent: Athletes

    func run() throws {
        let athletes: [RosterAthlete]
        do {
            athletes = try parent.roster(readOnly: true).athletes()
        } catch let error as RosterError {
            throw Athletes.failure(error)
        }
        let output = StandardOutput()
        guard !athletes.isEmpty else {
            output.write("No athletes in the roster of \(parent.db).\n")
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
