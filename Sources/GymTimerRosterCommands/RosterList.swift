import ArgumentParser
import Foundation
import GymTimerCommandLine
import GymTimerHistory

/// `athletes --db DB list`: every athlete of the roster, their short name and cards.
public struct RosterList<Parent: RosterCommand>: ParsableCommand {
    public static var configuration: CommandConfiguration {
        CommandConfiguration(commandName: "list", abstract: "List the roster: name, short name, cards, added.")
    }

    @ParentCommand var parent: Parent

    public init() {}

    public func run() throws {
        let book = try parent.book(readOnly: true)
        let athletes: [RosterAthlete]
        do {
            athletes = try book.athletes()
        } catch {
            throw Parent.failure(error)
        }
        let output = StandardOutput()
        guard !athletes.isEmpty else {
            output.write("No athletes in the roster of \(book.place).\n")
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
