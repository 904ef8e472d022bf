import Foundation
import GymTimerCore
import GymTimerFleet
import Testing
@testable import GymTimerConsole

/// What a guest's page (signed out while a PIN guards the console: the TV, a member's phone) gets
/// of the floor and the leaderboard: display names only, never a card, a roster id or a record's id.
@Suite struct ConsoleAudienceTests {
    let week = GymScores.Week(days: ["2026-11-24"], stations: ["rack-1", "rack-2"], counts: [[2], [1]])

    func scores() -> GymScores {
        GymScores(day: "2026-11-24", boards: [
            .init(program: "Fran", kind: "For Time", entries: [
                .init(id: "rack-1/program@1", athlete: "Anna Maria Berg", athleteID: 7, station: "rack-1", score: "3:45", at: 1, rank: 1),
                .init(id: "rack-2/program@2", athlete: "new card B2C3", station: "rack-2", score: "4:10", at: 2, rank: 2),
                .init(id: "rack-1/program@3", athlete: "Madonna", athleteID: 9, station: "rack-1", score: "4:30", at: 3, rank: 3),
            ])
        ], week: week)
    }

    @Test func aGuestsLeaderboardNamesAthletesByDisplayNameOnly() throws {
        let payload = Array(try JSONEncoder().encode(scores()))
        let guest = ConsoleScoresEvent.json(payload, today: "2026-11-24", for: .guest)
        let shown = try JSONDecoder().decode(GymScores.self, from: Data(guest.utf8))
        #expect(shown.boards[0].entries.map(\.athlete) == ["Anna B.", "guest", "Madonna"])
        #expect(shown.boards[0].entries.map(\.athleteID) == [nil, nil, nil])
        #expect(shown.boards[0].entries.map(\.id) == ["", "", ""])
        #expect(shown.boards[0].entries.map(\.score) == ["3:45", "4:10", "4:30"] && shown.boards[0].entries.map(\.rank) == [1, 2, 3])
        for hidden in ["Maria", "Berg", "B2C3", "rack-1/program", "\"athleteID\""] { #expect(!guest.contains(hidden), "\(hidden) in \(guest)") }
        // The coach's is as the collector said it.
        let coach = try JSONDecoder().decode(GymScores.self, from: Data(ConsoleScoresEvent.json(payload, today: "2026-11-24").utf8))
        #expect(coach.boards[0].entries.map(\.athlete) == ["Anna Maria Berg", "new card B2C3", "Madonna"])
        #expect(coach.boards[0].entries.map(\.athleteID) == [7, nil, 9])
    }

    /// The owner's choice per athlete (`PublicName`), which the collector sends as `shown`: a
    /// guest gets it, never the full name; the coach's version is as the collector said it.
    @Test func aGuestSeesTheNameTheOwnerChose() throws {
        var scores = scores()
        scores.boards[0].entries[0].shown = "AnnA"
        scores.boards[0].entries[2].shown = "guest"
        let payload = Array(try JSONEncoder().encode(scores))
        let guest = ConsoleScoresEvent.json(payload, today: "2026-11-24", for: .guest)
        let shown = try JSONDecoder().decode(GymScores.self, from: Data(guest.utf8))
        #expect(shown.boards[0].entries.map(\.athlete) == ["AnnA", "guest", "guest"])
        #expect(shown.boards[0].entries.map(\.shown) == [nil, nil, nil])
        for hidden in ["Anna", "Berg", "Madonna"] { #expect(!guest.contains(hidden), "\(hidden) in \(guest)") }
    }

    @Test func aGuestsFloorNamesNoCard() {
        var tile = ConsoleTile.make(name: "rack-1", status: "online", state: .object(["mode": "rest"]), now: 0)
        tile.athlete = "04A1B2C3"
        #expect(tile.athlete == "04A1B2C3", "the test's premise: the coach's tile has the card")
        let floor = ConsoleFloorEvent(now: 0, connected: true, broker: "mqtt://127.0.0.1:1883", tiles: [tile], gyms: ["north": [tile]])
        let guest = floor.forGuests
        #expect(guest.tiles.map(\.athlete) == [nil] && guest.gyms?["north"]?.map(\.athlete) == [nil])
        #expect(!guest.json.contains("04A1B2C3") && floor.json.contains("04A1B2C3"))
        tile.athlete = nil
        #expect(guest.tiles == [tile], "nothing else of the tile changes")
    }

    @Test func eachPageGetsItsAudiencesVersionOfAnUpdate() async throws {
        let broadcast = ConsoleBroadcast()
        broadcast.publish(event: "floor", data: "coach-1", guestData: "guest-1")
        let coach = try broadcast.listen(.coach, audience: .coach).get()
        let guest = try broadcast.listen(.guest(address: "127.0.0.2"), audience: .guest).get()
        broadcast.publish(event: "floor", data: "coach-2", guestData: "guest-2")
        // An update whose guests' version is unchanged reaches the coach only.
        broadcast.publish(event: "floor", data: "coach-3", guestData: "guest-2")
        broadcast.publish(event: "programs", data: "both")
        func frames(_ listener: ConsoleBroadcast.Listener, _ count: Int) async -> [String] {
            var got: [String] = []
            for await frame in listener.frames {
                got.append(frame)
                if got.count == count { break }
            }
            return got
        }
        let frame = ConsoleBroadcast.frame
        #expect(await frames(coach, 4) == [frame("floor", "coach-1"), frame("floor", "coach-2"), frame("floor", "coach-3"), frame("programs", "both")])
        #expect(await frames(guest, 3) == [frame("floor", "guest-1"), frame("floor", "guest-2"), frame("programs", "both")])
        #expect(broadcast.latest("floor") == frame("floor", "coach-3") && broadcast.latest("floor", for: .guest) == frame("floor", "guest-2"))
    }

    @Test func displayNames() {
        #expect(PublicName.initialled("Anna Berg") == "Anna B.")
        #expect(PublicName.initialled("  Zoë   Ångström ") == "Zoë Å.")
        #expect(PublicName.initialled("Madonna") == "Madonna")
        #expect(PublicName.initialled("") == "guest")
    }
}
