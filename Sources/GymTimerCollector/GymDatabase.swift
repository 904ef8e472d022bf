import Foundation
import GymTimerCore
import GymTimerFleet
import GymTimerHistory
import GymTimerSystem

/// The collector's database as the coach's console sees and changes it through the collector's
/// desk (`CollectorDesk`): the roster (a new card named, an athlete renamed), a result's
/// Rx/Scaled, an athlete's page, today's scores. Each edit opens the file for writing as
/// `gymtimer athletes` does (`AthleteRoster.open`) and closes it again (the roster's publisher
/// notices the change as any other process's); everything else is read through read-only
/// handles. Each failure is a sentence for the coach's page. The desk's store (`GymDeskStore`)
/// for one gym; its pure builders (`roster`, `athlete`) serve a chain's central store too.
package struct GymDatabase: GymDeskStore {
    let path: String
    package let timeZone: TimeZone
    package let wall: WallClock

    /// Why something could not be read or done, as the page says it.
    package typealias Problem = GymDeskProblem

    /// How far back records are looked through for cards the roster does not know.
    package static let newCardDays = 30.0
    /// The most new cards listed (a flood of taps from unknown cards cannot grow the page).
    package static let maximumNewCards = 50

    init(path: String, timeZone: TimeZone = .current, wall: WallClock = .system) {
        self.path = path
        self.timeZone = timeZone
        self.wall = wall
    }

    /// The roster, and the cards of the last `newCardDays` days' records and of `onStations`
    /// (each station's athlete now) that no athlete has; the newest first.
    package func roster(onStations: [String: CardID] = [:]) -> Result<GymRoster, Problem> {
        do {
            let athletes = try readAthletes()
            let names = GymAthleteNames(athletes)
            let workouts = try HistoryStore.reading(path: path, timeZone: timeZone, wall: wall)
                .workouts(since: wall.date.addingTimeInterval(-Self.newCardDays * 86_400))
            return .success(Self.roster(athletes, names: names, workouts: workouts, onStations: onStations))
        } catch {
            return .failure(.init(description: "the gym's database cannot be read: \(error)"))
        }
    }

    /// The page's roster from what was read. Pure.
    package static func roster(_ athletes: [RosterAthlete], names: GymAthleteNames, workouts: [StoredWorkout], onStations: [String: CardID]) -> GymRoster {
        var seen: [CardID: String?] = [:]
        var order: [CardID] = []
        func saw(_ card: CardID, on station: String?) {
            guard !names.knows(card) else { return }
            if seen[card] == nil { order.append(card) } else { order.removeAll { $0 == card }; order.append(card) }
            seen[card] = station
        }
        for workout in workouts { if let card = workout.athlete { saw(card, on: workout.station) } }
        for (station, card) in onStations.sorted(by: { $0.key < $1.key }) { saw(card, on: station) }
        let newest = order.reversed().prefix(Self.maximumNewCards)
        return GymRoster(
            athletes: athletes.map(Self.athlete),
            newCards: newest.map { .init(card: $0.hex, station: seen[$0] ?? nil) })
    }

    /// One athlete as the page sees them.
    package static func athlete(_ athlete: RosterAthlete) -> GymRoster.Athlete {
        .init(id: athlete.id, name: athlete.name, short: athlete.shortName, cards: athlete.cards.map(\.hex), shown: athlete.publicName)
    }

    /// Every athlete of the roster, by name.
    package func athletes() -> Result<[GymRoster.Athlete], Problem> {
        do {
            return .success(try readAthletes().map(Self.athlete))
        } catch {
            return .failure(.init(description: "the gym's database cannot be read: \(error)"))
        }
    }

    /// `name` (and `short`, else derived from the name) for `card`, added to the roster.
    package func name(card: CardID, name: String, short: String?) -> Result<String, Problem> {
        do {
            let added = try AthleteRoster.open(path: path, wall: wall).add(name: name, card: card, shortName: short)
            return .success("Card \(card.hex) is \(added.name) (\(added.shortName) on the wall)")
        } catch {
            return .failure(.init(description: "Not named: \(error)"))
        }
    }

    /// The athlete `id` renamed to `name`, given the short name `short` and/or shown to the
    /// signed-out world as `shown` (`gymtimer athletes public`).
    package func rename(id: Int64, name: String?, short: String?, shown: PublicName? = nil) -> Result<String, Problem> {
        do {
            guard let athlete = try readAthletes().first(where: { $0.id == id }) else {
                return .failure(.init(description: "Not renamed: no such athlete in the roster (reload the page)"))
            }
            let roster = try AthleteRoster.open(path: path, wall: wall)
            var renamed = athlete
            if name != nil || short != nil { renamed = try roster.rename(athlete.name, to: name, shortName: short) }
            var said = "\(athlete.name) is now \(renamed.name) (\(renamed.shortName) on the wall)"
            if let shown {
                renamed = try roster.setPublicName(renamed.name, to: shown)
                said = name == nil && short == nil ? "Signed out, \(renamed.name) is shown as \(renamed.shownName)"
                    : said + ", shown signed out as \(renamed.shownName)"
            }
            return .success(said)
        } catch {
            return .failure(.init(description: "Not renamed: \(error)"))
        }
    }

    /// The program result `record` (its id in the gym, `station/program@…`) set to `division`
    /// (`HistoryStore.setDivision`): the coach's word after the fact; the athlete's records
    /// follow it as they are next read.
    package func setDivision(record: String, division: Division) -> Result<String, Problem> {
        amend(record, failing: "Not changed", missing: "no such program result", score: \.score, change: { try $0.setDivision(recordID: record, to: division) }) {
            "\($0) is \(division == .rx ? "Rx" : "Scaled") now"
        }
    }

    /// The program result `record` voided (`HistoryStore.void`): the coach's word on a result
    /// filed under the wrong athlete, forged or mistaken; the bests, the leaderboard and the
    /// athlete's page leave it out as they are next read (the scores are sent again at once).
    package func void(record: String) -> Result<String, Problem> {
        amend(record, failing: "Not voided", missing: "no such result counts", score: \.voidedScore, change: { try $0.void(recordID: record) }) {
            "\($0) is void: no best or leaderboard counts it"
        }
    }

    /// One edit of the result `record`, in the file (never a new one): `change` makes it (false:
    /// no such result), `said` says it of the result as the page names it (`Anna Berg's Fran (8
    /// rounds)`, its `score` as the row now has it); a failure is said after `failing`, a result
    /// not found as `missing`.
    private func amend(
        _ record: String, failing: String, missing: String, score: KeyPath<StoredWorkout, String?>,
        change: (HistoryStore) throws -> Bool, said: (String) -> String
    ) -> Result<String, Problem> {
        // Never a new file: a typo'd path is an error, as for the roster.
        guard FileManager.default.fileExists(atPath: path) else {
            return .failure(.init(description: "\(failing): no gym database at \(path)"))
        }
        do {
            let store = try HistoryStore(path: path, faults: FaultLog(sink: { _ in }), timeZone: timeZone, busyTimeout: .seconds(5), wall: wall)
            guard try change(store) else { return .failure(.init(description: "\(failing): \(missing) (reload the page)")) }
            let workout = try store.workouts(since: wall.date.addingTimeInterval(-8 * 86_400)).first { $0.id == record }
            let what = workout.map { w in
                "\(GymAthleteNames(((try? readAthletes()) ?? [])).name(w.athlete))'s \(w.preset ?? "result") (\(w[keyPath: score] ?? "-"))"
            } ?? "The result"
            return .success(said(what))
        } catch {
            return .failure(.init(description: "\(failing): \(error)"))
        }
    }

    /// Everything the athlete's page shows of athlete `id`, as of now; nil when the roster has no such athlete.
    package func summary(id: Int64) -> Result<GymAthleteSummary?, Problem> {
        do {
            guard let athlete = try readAthletes().first(where: { $0.id == id }) else { return .success(nil) }
            let store = try HistoryStore.reading(path: path, timeZone: timeZone, wall: wall)
            let today = LocalDay(wall.date, in: timeZone)
            let workouts = try store.workouts(since: wall.date.addingTimeInterval(-8 * 86_400), scope: athlete.scope)
            let stats = try store.stats(athlete.scope)
            return .success(GymAthleteSummary.make(athlete: athlete, workouts: workouts, stats: stats, today: today))
        } catch {
            return .failure(.init(description: "the gym's database cannot be read: \(error)"))
        }
    }

    /// Today's scores, as of now.
    package func scores() -> Result<GymScores, Problem> {
        do {
            let now = wall.date
            let store = try HistoryStore.reading(path: path, timeZone: timeZone, wall: .fixed(now))
            let workouts = try store.workouts(since: now.addingTimeInterval(-8 * 86_400))
            // The roster's names (a file before v6 has none: every card is new).
            let athletes = (try? readAthletes()) ?? []
            return .success(GymScores.make(workouts, day: LocalDay(now, in: timeZone), names: GymAthleteNames(athletes)))
        } catch {
            return .failure(.init(description: "\(error)"))
        }
    }

    private func readAthletes() throws -> [RosterAthlete] {
        try AthleteRoster.reading(path: path).athletes()
    }
}
