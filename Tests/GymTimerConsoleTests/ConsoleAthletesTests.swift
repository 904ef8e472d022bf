import Foundation
import GymTimerCore
import GymTimerFleet
@testable import GymTimerCollector
@testable import GymTimerFleetCommands
@testable import GymTimerFleetLink
@testable import GymTimerStationLink
@testable import GymTimerUpgrade
import GymTimerHistory
import GymTimerMQTT
import Testing
@testable import GymTimerConsole

/// The console's athletes: the leaderboard by athlete (Rx above Scaled, ties within a
/// division), the class list's commands and report, the roster's edits as the page sends
/// them, the new cards offered, and an athlete's page escaped.
@Suite struct ConsoleAthletesTests {
    let today = LocalDay(year: 2026, month: 11, day: 24)
    let anna = RosterAthlete(id: 1, name: "Anna Berg", shortName: "AnnA", createdAt: Date(timeIntervalSince1970: 0), cards: [CardID(hex: "04A1B2C3")!])
    let ben = RosterAthlete(id: 2, name: "Ben Ohl", shortName: "bEno", createdAt: Date(timeIntervalSince1970: 0), cards: [CardID(hex: "04B0B0B0")!])
    /// The roster's athletes as the collector answers them (the class list's).
    var athletes: [GymRoster.Athlete] { [anna, ben].map(GymDatabase.athlete) }

    func program(_ id: String, _ score: String, station: String, card: String?, at: Double = 1000, day: LocalDay? = nil) -> StoredWorkout {
        StoredWorkout(
            id: id, kind: .program, sets: 0, durationMilliseconds: 60_000, calories: 0, exercises: [], preset: "AMRAP 12",
            completedAt: Date(timeIntervalSince1970: at), localDay: day ?? today, score: score, station: station,
            athlete: card.flatMap(CardID.init(hex:)))
    }

    @Test func theLeaderboardNamesEachAthleteWithTheirStation() {
        let rows = [
            program("rack-1/1", "8 rounds", station: "rack-1", card: "04A1B2C3"),
            program("rack-2/1", "8 rounds", station: "rack-2", card: "04B0B0B0", at: 1001),
            program("rack-3/1", "5 rounds", station: "rack-3", card: "0DDC0FFE"),
            program("rack-4/1", "4 rounds", station: "rack-4", card: nil),
        ]
        let board = GymScores.make(rows, day: today, names: GymAthleteNames([anna, ben])).boards[0]
        #expect(board.entries.map { "\($0.rank) \($0.athlete) \($0.station) \($0.division.rawValue)" }
            == ["1 Anna Berg rack-1 rx", "1 Ben Ohl rack-2 rx", "3 new card 0FFE rack-3 rx", "4 guest rack-4 rx"])
        #expect(board.entries.map(\.athleteID) == [1, 2, nil, nil])
        #expect(board.entries.map(\.id) == ["rack-1/1", "rack-2/1", "rack-3/1", "rack-4/1"])
        #expect(board.entries.map(\.shown) == ["Anna B.", "Ben O.", nil, nil], "the signed-out name by the roster's rule")
    }

    /// The owner's choice per athlete (`PublicName`) is what the collector sends for the guests' board.
    @Test func theSignedOutNameIsTheOwnersChoice() {
        var shortAnna = anna, hiddenBen = ben
        shortAnna.publicName = .short
        hiddenBen.publicName = .guest
        let rows = [
            program("rack-1/1", "8 rounds", station: "rack-1", card: "04A1B2C3"),
            program("rack-2/1", "7 rounds", station: "rack-2", card: "04B0B0B0", at: 1001),
        ]
        let board = GymScores.make(rows, day: today, names: GymAthleteNames([shortAnna, hiddenBen])).boards[0]
        #expect(board.entries.map(\.shown) == [shortAnna.shortName, "guest"])
        #expect(board.entries.map(\.athlete) == ["Anna Berg", "Ben Ohl"], "the coach's board keeps the roster's names")
    }

    @Test func aRecordsDivisionIsItsOwnAndNoneCountsAsRx() {
        var scaled = program("rack-1/1", "9 rounds", station: "rack-1", card: "04A1B2C3")
        scaled.division = .scaled
        var rx = program("rack-2/1", "5 rounds", station: "rack-2", card: "04B0B0B0", at: 1001)
        rx.division = .rx
        let unsaid = program("rack-3/1", "5 rounds", station: "rack-3", card: nil, at: 1002)
        let board = GymScores.make([scaled, rx, unsaid], day: today, names: GymAthleteNames([anna, ben])).boards[0]
        #expect(board.entries.map { "\($0.rank) \($0.athlete) \($0.division.rawValue)" } == ["1 Ben Ohl rx", "1 guest rx", "3 Anna Berg scaled"])
    }

    @Test func rxRanksAboveScaledAndTiesStayWithinADivision() {
        // Pure: the ranking takes each entry's division as made; a scaled 9 ranks below an Rx 5.
        var rows = [(GymScores.Entry, GymScores.Parsed)]()
        let scores: [(String, Division)] = [("9 rounds", .scaled), ("5 rounds", .rx), ("5 rounds", .scaled), ("5 rounds", .rx), ("4 rounds", .scaled)]
        for (index, (score, division)) in scores.enumerated() {
            rows.append((GymScores.Entry(station: "rack-\(index)", score: score, division: division, at: Double(index)), GymScores.parse(score)!))
        }
        let entries = GymScores.ranked(rows)
        #expect(entries.map { "\($0.rank) \($0.score) \($0.division.rawValue)" }
            == ["1 5 rounds rx", "1 5 rounds rx", "3 9 rounds scaled", "4 5 rounds scaled", "5 4 rounds scaled"])
    }

    @Test func theClassListSendsEachStationItsAthleteOrNobody() throws {
        let body = Array(#"{"stations":{"rack-2":null,"rack-1":1}}"#.utf8)
        let list = try ConsoleClassList.parse(body, athletes: athletes).get()
        #expect(list.lines.map(\.station) == ["rack-1", "rack-2"])
        #expect(list.lines.map(\.command.json) == [
            #"{"do":"athlete","card":"04A1B2C3","short":"AnnA"}"#, #"{"do":"athlete","card":null}"#,
        ])
        var done = FleetAnswers(id: "a", asked: ["rack-1"], offline: [])
        _ = done.take(event: Array(#"{"event":"command","id":"a","do":"athlete","t":1}"#.utf8), from: "rack-1")
        var refused = FleetAnswers(id: "b", asked: ["rack-2"], offline: [])
        _ = refused.take(event: Array(#"{"event":"error","id":"b","kind":"not-allowed","reason":"busy","t":1}"#.utf8), from: "rack-2")
        #expect(list.report(answers: ["rack-1": done, "rack-2": refused], offline: [])
            == "On the stations: Anna Berg on rack-1; refused on rack-2: busy")
        let scaled = try ConsoleClassList.parse(Array(#"{"stations":{"rack-1":2},"divisions":{"rack-1":"scaled"}}"#.utf8), athletes: athletes).get()
        #expect(scaled.lines.map(\.command.json) == [#"{"do":"athlete","card":"04B0B0B0","short":"bEno","division":"scaled"}"#])
        #expect(scaled.lines.map(\.said) == ["Ben Ohl on rack-1 (Scaled)"])
        #expect(list.report(answers: ["rack-1": done], offline: [], notSent: ["rack-2": "no such station on the broker: rack-2"])
            == "On the stations: Anna Berg on rack-1; not sent to rack-2: no such station on the broker: rack-2")
    }

    @Test func theClassListRefusesWhatCannotBe() {
        func refusal(_ text: String) -> String? {
            if case .failure(let problem) = ConsoleClassList.parse(Array(text.utf8), athletes: athletes) { return problem.description }
            return nil
        }
        #expect(refusal(#"{"stations":{"rack-1":1,"rack-2":1}}"#) == "Anna Berg is on rack-1 and rack-2: one station each")
        #expect(refusal(#"{"stations":{"rack-1":9}}"#) == "no such athlete in the roster for rack-1 (reload the page)")
        #expect(refusal(#"{"stations":{}}"#) == "choose at least one station")
        #expect(refusal(#"{"stations":{"bad/name":1}}"#)?.hasSuffix("is no station name") == true)
        #expect(refusal(#"{"stations":[1]}"#) == "the request is not the JSON the page sends")
        #expect(refusal(#"{"stations":{"rack-1":null},"divisions":{"rack-1":"rx"}}"#) == #"a division for "rack-1", where nobody is put"#)
        #expect(refusal(#"{"stations":{"rack-1":1},"divisions":{"rack-1":"easy"}}"#) == "the request is not the JSON the page sends")
    }

    @Test func rosterEditsAreReadAsThePageSendsThem() throws {
        func parse(_ kind: ConsoleRosterEdit.Kind, _ text: String) -> Result<ConsoleRosterEdit, ConsolePIN.Problem> {
            ConsoleRosterEdit.parse(kind, body: Array(text.utf8))
        }
        // A new card is named by its pseudonym, as a station reported it; a UID typed here is refused.
        #expect(try parse(.name, #"{"card":"2aecf06f995e56da14b97703","name":"Anna Berg","short":""}"#).get()
            == .name(card: CardID(hex: "2AECF06F995E56DA14B97703")!, name: "Anna Berg", short: nil))
        #expect(parse(.name, #"{"card":"04a1b2c3","name":"Anna Berg"}"#)
            == .failure(.init(description: "not a new card from the list (tap the card on a station first)")))
        #expect(try parse(.rename, #"{"id":3,"name":"","short":"LInd"}"#).get() == .rename(id: 3, name: nil, short: "LInd"))
        #expect(try parse(.rename, #"{"id":3,"name":"","short":"","public":"guest"}"#).get() == .rename(id: 3, name: nil, short: nil, shown: .guest))
        #expect(parse(.rename, #"{"id":3,"public":"full"}"#) == .failure(.init(description: "shown signed out as initial, short or guest")))
        #expect(try parse(.division, #"{"id":"rack-1/program@5","division":"scaled"}"#).get()
            == .division(record: "rack-1/program@5", division: .scaled))
        #expect((try? parse(.name, #"{"card":"not hex","name":"A"}"#).get()) == nil)
        #expect((try? parse(.rename, #"{"id":3}"#).get()) == nil)
        #expect((try? parse(.division, #"{"id":"x","division":"easy"}"#).get()) == nil)
    }

    @Test func newCardsAreThoseNoAthleteHasFromRecordsAndStations() {
        let rows = [
            program("rack-1/1", "8 rounds", station: "rack-1", card: "04A1B2C3"),
            program("rack-3/1", "5 rounds", station: "rack-3", card: "0DDC0FFE"),
            program("rack-4/1", "4 rounds", station: "rack-4", card: nil),
        ]
        let roster = GymDatabase.roster(
            [anna], names: GymAthleteNames([anna]), workouts: rows,
            onStations: ["rack-2": CardID(hex: "04A1B2C3")!, "rack-5": CardID(hex: "C0FFEE")!])
        #expect(roster.athletes.map(\.name) == ["Anna Berg"])
        #expect(roster.newCards == [.init(card: "C0FFEE", station: "rack-5"), .init(card: "0DDC0FFE", station: "rack-3")])
    }

    @Test func anAthletesPageShowsTheirWeekRecordsAndStreakEscaped() {
        let hostile = RosterAthlete(
            id: 7, name: "<script>alert(1)</script>", shortName: "AnnA", createdAt: Date(timeIntervalSince1970: 0), cards: [CardID(hex: "04A1B2C3")!])
        let yesterday = LocalDay(year: 2026, month: 11, day: 23)
        let rows = [
            program("rack-1/1", "8 rounds", station: "rack-1", card: "04A1B2C3", day: yesterday),
            program("rack-1/2", "9 rounds", station: "<b>rack</b>", card: "04A1B2C3"),
        ]
        let stats = StationStats(
            workouts: 2, totalDurationMilliseconds: 120_000, calories: 0, currentStreak: 2, longestStreak: 3, achievements: [],
            records: [PersonalRecord(program: "AMRAP 12", score: "9 rounds", completedAt: Date(timeIntervalSince1970: 1000), station: "rack-1")])
        let summary = GymAthleteSummary.make(athlete: hostile, workouts: rows, stats: stats, today: today)
        #expect(summary.week.map(\.workouts.count) == [0, 0, 0, 0, 0, 1, 1])
        #expect(summary.points == 100 && summary.currentStreak == 2)
        let html = ConsoleAthletePage.html(title: "Gym", summary: summary)
        #expect(!html.contains("<script>") && !html.contains("<b>rack"))
        #expect(html.contains("&lt;script&gt;alert(1)&lt;/script&gt;"))
        #expect(html.contains(#"<b id="points">100</b>"#) && html.contains("<td>AMRAP 12</td><td>9 rounds</td><td>Rx</td><td>rack-1</td>"))
        #expect(html.contains(#"<b id="current-streak">2</b> days in a row"#))
        var one = summary
        one.currentStreak = 1
        #expect(ConsoleAthletePage.html(title: "Gym", summary: one).contains(#"<b id="current-streak">1</b> day in a row"#), "one day, not 1 days")
    }

    @Test func aTileCarriesTheCardOnTheStationFromItsAthleteTopicOnlyWhenItIsOne() {
        var floor = ConsoleFloor(prefix: "gymtimer")
        let card = "512CAE2F467914AB1D1E147C"
        _ = floor.apply(MQTTMessage(topic: "gymtimer/rack-1/status", text: "online", qos: 1, retain: true))
        _ = floor.apply(MQTTMessage(topic: "gymtimer/rack-1/state", text: #"{"athlete":"\#(card)","mode":"rest"}"#, qos: 1, retain: true))
        #expect(floor.tiles(now: 0).map(\.athlete) == [nil], "a state's athlete is no one's word")
        let changed = floor.apply(MQTTMessage(topic: "gymtimer/rack-1/athlete", text: #"{"card":"\#(card.lowercased())"}"#, qos: 1, retain: true))
        #expect(changed)
        #expect(floor.tiles(now: 0).map(\.athlete) == [card])
        _ = floor.apply(MQTTMessage(topic: "gymtimer/rack-1/athlete", text: #"{"card":"<img>"}"#, qos: 1, retain: true))
        #expect(floor.tiles(now: 0).map(\.athlete) == [nil])
        _ = floor.apply(MQTTMessage(topic: "gymtimer/rack-1/athlete", text: #"{"card":"\#(card)"}"#, qos: 1, retain: true))
        _ = floor.apply(MQTTMessage(topic: "gymtimer/rack-1/athlete", payload: [], qos: 1, retain: true))
        #expect(floor.tiles(now: 0).map(\.athlete) == [nil], "cleared: nobody on the station")
    }
}
