import GymTimerFleet

/// The chain's leaderboard made from its gyms' scores (`C/all/gym/scores`, chain.md): each
/// program's results of every gym on one board, ranked by the rules of one gym's
/// (`GymScores.ranked`), each entry naming its gym; the week's table counts each gym's
/// workouts per day (a gym is a row). Each entry as anyone may see it (`Entry.displayed`): the
/// chain's console is not any gym's coach. Pure.
extension GymScores {
    /// The leaderboard of `day` from `gyms`' scores of that day (another day's are left out).
    static func chain(_ gyms: [String: GymScores], day: String) -> GymScores {
        var byProgram: [String: [(Entry, Parsed)]] = [:]
        var kinds: [String: Set<String>] = [:]
        var days: [String]?
        var counts: [String: [Int]] = [:]
        for (gym, scores) in gyms.sorted(by: { $0.key < $1.key }) where scores.day == day {
            for board in scores.boards {
                kinds[board.program, default: []].insert(board.kind)
                for entry in board.entries {
                    guard let parsed = parse(entry.score) else { continue }
                    // The chain's console's account reads it: display names only, no roster or record ids.
                    var entry = entry.displayed
                    entry.gym = gym
                    byProgram[board.program, default: []].append((entry, parsed))
                }
            }
            if scores.isWellFormed, !scores.week.days.isEmpty {
                days = days ?? scores.week.days
                guard scores.week.days == days else { continue }
                counts[gym] = scores.week.counts.reduce(Array(repeating: 0, count: scores.week.days.count)) { zip($0, $1).map(+) }
            }
        }
        let boards = byProgram.keys.sorted().map { program in
            Board(program: program, kind: kinds[program]?.contains("For Time") == true ? "For Time" : "AMRAP", entries: ranked(byProgram[program]!))
        }
        let names = counts.keys.sorted()
        return GymScores(day: day, boards: boards, week: Week(days: days ?? [], stations: names, counts: names.map { counts[$0]! }))
    }
}
