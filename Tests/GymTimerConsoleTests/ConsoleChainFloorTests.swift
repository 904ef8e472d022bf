import Foundation
import GymTimerFleet
import GymTimerMQTT
import Testing
@testable import GymTimerConsole

/// The chain's floor on the central broker: a gym picker's floors (each gym's stations only),
/// gyms named or discovered by their stations' statuses (bounded), and the chain's leaderboard.
@Suite struct ConsoleChainFloorTests {
    func message(_ topic: String, _ text: String) -> MQTTMessage { MQTTMessage(topic: topic, text: text, qos: 1, retain: true) }

    @Test func eachGymsStationsAreItsTilesAndGymsAreDiscoveredByStatus() {
        var chain = ConsoleChainFloor(chain: "gyms")
        #expect(chain.subscriptions == ["gyms/+/+/status", "gyms/+/+/state", "gyms/+/+/event", "gyms/all/gym/scores"])
        let applied = [
            chain.apply(message("gyms/gym-a/rack-1/status", "online")),
            chain.apply(message("gyms/gym-b/rower/status", "offline")),
            chain.apply(message("gyms/gym-a/rack-2/state", #"{"mode":"program","phase":"idle","t":990}"#)),
            chain.apply(message("gyms/gym-c/rack-1/state", #"{"mode":"program","phase":"idle","t":990}"#)),
            chain.apply(message("gyms/all/rack-1/status", "online")),
            chain.apply(message("gyms/Gym D/rack-1/status", "online")),
            chain.apply(message("other/gym-e/rack-1/status", "online")),
        ]
        #expect(applied == [true, true, true, false, false, false, false])
        #expect(chain.gyms == ["gym-a", "gym-b"], "a state alone discovers no gym; all and bad names none")
        #expect(chain.tiles(gym: "gym-a", now: 990).map(\.name) == ["rack-1", "rack-2"])
        #expect(chain.tiles(gym: "gym-a", now: 990).first?.online == true)
        #expect(chain.tiles(gym: "gym-b", now: 990).map(\.name) == ["rower"])
        #expect(chain.tiles(gym: "gym-z", now: 990).isEmpty)
        for n in 0..<100 { _ = chain.apply(message("gyms/g\(n)/rack-1/status", "online")) }
        #expect(chain.gyms.count == ConsoleChainFloor.maximumGyms)
    }

    @Test func namedGymsOnlyAndTheLeaderboard() throws {
        var chain = ConsoleChainFloor(chain: "gyms", gyms: ["gym-a", "all", "Bad"])
        #expect(chain.gyms == ["gym-a"])
        let other = chain.apply(message("gyms/gym-b/rack-1/status", "online"))
        #expect(!other && chain.gyms == ["gym-a"], "a gym not named is not shown")
        #expect(chain.leaderboardEvent(today: "2026-11-28").contains("waiting"))
        let board = GymScores(
            day: "2026-11-28",
            boards: [.init(program: "Fran", kind: "For Time", entries: [
                .init(id: "rack-1/p@1", athlete: "Anna Berg", station: "rack-1", score: "2:30, 3 rounds", at: 1, rank: 1, gym: "gym-b"),
            ])],
            week: .init(days: ["2026-11-28"], stations: ["gym-b"], counts: [[1]]))
        let payload = try JSONEncoder().encode(board)
        let changed = chain.apply(MQTTMessage(topic: "gyms/all/gym/scores", payload: Array(payload), qos: 1, retain: true))
        #expect(changed)
        let event = try JSONDecoder().decode(GymScores.self, from: Data(chain.leaderboardEvent(today: "2026-11-28").utf8))
        #expect(event.boards.first?.entries.map(\.gym) == ["gym-b"] && event.chart != nil)
        #expect(chain.leaderboardEvent(today: "2026-11-29").contains("problem"), "yesterday's board is not today's")
    }
}
