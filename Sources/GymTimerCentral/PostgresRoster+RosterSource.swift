import Foundation
import GymTimerCollector
import GymTimerCore
import GymTimerHistory

/// What a chain's central collector reads of the roster (`FleetRosterPublisher`): a digest of
/// the cards and short names to notice another process's edit, and each card with its
/// athlete's bests over every gym's records of every card of theirs. The central roster keeps
/// no forget requests: the collector's publisher keeps a chain's forgets itself (a retained card
/// the roster lost), so none are read here and nothing is written of their answers.
extension PostgresRoster: RosterSource {
    /// An md5 of every card with its athlete and short name: one small read, changed by any
    /// add, card, rename or forget, whoever made it (`psql` included).
    public func rosterStamp() throws -> String {
        let result = try run(
            """
            SELECT md5(coalesce(string_agg(c.card || '/' || a.id || '/' || a.short_name, ',' ORDER BY c.card), ''))
            FROM athlete_cards c JOIN athletes a ON a.id = c.athlete_id
            """, "read the roster's digest")
        guard let row = result.rows.first else { return "" }
        return try decoding("read the roster's digest") { try row.decode(String.self) }
    }

    public func rosterCards(only: Set<CardID>?) throws -> [RosterCard] {
        let rows = try run(
            "SELECT c.card, a.id, a.short_name FROM athlete_cards c JOIN athletes a ON a.id = c.athlete_id ORDER BY c.card",
            "read the roster's cards")
        var byAthlete: [Int64: [(card: CardID, short: String)]] = [:]
        for row in rows.rows {
            let (hex, id, short) = try decoding("read the roster's cards") { try row.decode((String, Int64, String).self) }
            // A card edited into something that is no UID is left out, never published.
            guard let card = CardID(hex: hex) else { continue }
            byAthlete[id, default: []].append((card, short))
        }
        let chosen = byAthlete.filter { _, theirs in only.map { only in theirs.contains { only.contains($0.card) } } ?? true }
        guard !chosen.isEmpty else { return [] }
        let bests = try self.bests(of: chosen.mapValues { $0.map(\.card) })
        var cards: [RosterCard] = []
        for (athlete, theirs) in chosen {
            cards += theirs.map { RosterCard(card: $0.card, shortName: $0.short, bests: bests[athlete] ?? []) }
        }
        return cards.sorted { $0.card < $1.card }
    }

    /// Each athlete's best of each program in each division over every gym's records of their
    /// cards (`PersonalRecord`'s rules, as one gym's roster computes them).
    private func bests(of cards: [Int64: [CardID]]) throws -> [Int64: [RosterCard.Best]] {
        var owner: [CardID: Int64] = [:]
        for (athlete, theirs) in cards { for card in theirs { owner[card] = athlete } }
        let hexes = owner.keys.map(\.hex)
        let rows = try run(
            """
            SELECT athlete, preset, score, completed_at, COALESCE(division, 'rx') FROM workouts
            WHERE kind = 'program' AND preset IS NOT NULL AND score IS NOT NULL AND athlete = ANY(\(hexes))
            """, "read the athletes' bests")
        var results: [Int64: [PersonalRecord.Result]] = [:]
        for row in rows.rows {
            let (hex, program, score, date, division) = try decoding("read the athletes' bests") {
                try row.decode((String, String, String, Date, String).self)
            }
            guard let card = CardID(hex: hex), let athlete = owner[card], let division = Division(rawValue: division) else { continue }
            results[athlete, default: []].append(PersonalRecord.Result(program: program, division: division, score: score, completedAt: date))
        }
        return results.mapValues { theirs in
            PersonalRecord.bests(of: theirs).map { ProgramBest(program: $0.program, division: $0.division, score: $0.score) }
                .sorted { ($0.program, $0.division.rawValue) < ($1.program, $1.division.rawValue) }
        }
    }

    public func forgetRequests() throws -> [ForgetRequest] { [] }

    public func recordForgetAnswer(request id: Int64, station: String) throws {}

    public func completeForget(request id: Int64) throws -> Int { 0 }
}
