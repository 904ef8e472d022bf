import Foundation
import GymTimerCore
import GymTimerFleet
import GymTimerCollector
import GymTimerFleetCommands
import GymTimerFleetLink
import GymTimerStationLink
import GymTimerUpgrade
import GymTimerHistory
import GymTimerMQTT
import GymTimerSimulation
import Testing

/// The chain's desk in virtual time (chain.md, "The chain's desk"): two gyms' brokers bridged to
/// the centre's with the bridge's desk lines, and a central collector whose desk answers each
/// gym's console from that gym's store only, retains each gym's scores under `C/{gym}/` (which
/// only that gym's bridge carries home) and the chain's leaderboard on `C/all/gym/scores`.
@Suite struct ChainDeskTests {
    static let now = 1_767_600_000.0
    static let utc = TimeZone(identifier: "UTC")!
    let loop = VirtualLoop()
    let centre: InMemoryBroker
    let gyms: [String: InMemoryBroker]

    init() {
        let loop = loop
        centre = InMemoryBroker(now: { loop.now.sinceOrigin })
        gyms = ["gym-a": InMemoryBroker(now: { loop.now.sinceOrigin }), "gym-b": InMemoryBroker(now: { loop.now.sinceOrigin })]
    }

    /// One gym's rows, as the central database would give them: a member and a Fran.
    struct GymRows: GymDeskStore {
        let gym: String
        var timeZone: TimeZone { ChainDeskTests.utc }
        var wall: WallClock { .fixed(ChainDeskTests.now) }
        var member: GymRoster.Athlete { .init(id: gym == "gym-a" ? 1 : 2, name: "Member of \(gym)", short: "M", cards: []) }
        func roster(onStations: [String: CardID]) -> Result<GymRoster, GymDeskProblem> { .success(GymRoster(athletes: [member])) }
        func athletes() -> Result<[GymRoster.Athlete], GymDeskProblem> { .success([member]) }
        func summary(id: Int64) -> Result<GymAthleteSummary?, GymDeskProblem> { .success(nil) }
        func name(card: CardID, name: String, short: String?) -> Result<String, GymDeskProblem> { .failure(.init(description: "Refused: not here")) }
        func rename(id: Int64, name: String?, short: String?, shown: PublicName?) -> Result<String, GymDeskProblem> { .failure(.init(description: "Refused: not here")) }
        func setDivision(record: String, division: Division) -> Result<String, GymDeskProblem> { .failure(.init(description: "no")) }
        func void(record: String) -> Result<String, GymDeskProblem> { .failure(.init(description: "no")) }
        func scores() -> Result<GymScores, GymDeskProblem> {
            let entry = GymScores.Entry(
                id: "rack-1/program@1", athlete: "Member of \(gym)", athleteID: member.id, station: "rack-1",
                score: gym == "gym-a" ? "3:00, 3 rounds" : "2:30, 3 rounds", at: ChainDeskTests.now - 60, rank: 1,
                shown: gym == "gym-a" ? "Mia A." : nil)
            return .success(GymScores(
                day: LocalDay(Date(timeIntervalSince1970: ChainDeskTests.now), in: ChainDeskTests.utc).description,
                boards: [.init(program: "Fran", kind: "For Time", entries: [entry])],
                week: .init(days: ["d1", "d2"], stations: ["rack-1", "rack-2"], counts: [[0, 1], [2, 3]])))
        }
    }

    func scores(_ message: MQTTMessage?) -> GymScores? {
        message.flatMap { try? JSONDecoder().decode(GymScores.self, from: Data($0.payload)) }
    }

    @Test func eachGymsConsoleIsAnsweredFromTheCentreWithItsOwnGymsDataOnly() throws {
        let loop = loop
        let desk = GymDeskStores.chain(timeZone: Self.utc, wall: .fixed(Self.now), store: { GymRows(gym: $0) }, gymsSince: { _ in .success(["gym-a"]) })
        let collector = try FleetCollector(
            options: .init(clientID: "central-1", host: "centre.local", port: 1883, cleanSession: false),
            topics: .chain(prefix: "gyms", sharedGroup: "central"), store: ChainCollectorTests.CentralStore(), desk: desk,
            transport: centre.factory, now: { loop.now }, log: { print($0) })
        let bridges = try ["gym-a", "gym-b"].map { gym in
            try InMemoryBridge(name: "bridge-\(gym)", local: gyms[gym]!, remote: centre, rules: ChainCollectorTests.rules(gym: gym), now: { loop.now })
        }
        loop.drivers = [collector] + bridges
        #expect(loop.run(upTo: .seconds(60)) { collector.isSubscribed })
        loop.run(for: .seconds(3))
        // gym-a has records today: its scores are retained at the centre and carried home; gym-b's not yet.
        #expect(scores(centre.retained["gyms/gym-a/all/gym/scores"])?.boards.first?.entries.map(\.athlete) == ["Member of gym-a"])
        #expect(scores(gyms["gym-a"]!.retained["gymtimer/all/gym/scores"])?.boards.first?.entries.map(\.athlete) == ["Member of gym-a"])
        #expect(gyms["gym-b"]!.retained["gymtimer/all/gym/scores"] == nil, "no other gym's scores reach gym-b")

        // Each gym's console asks on its own broker, with the same reply id.
        var consoles: [String: any MQTTTransport] = [:]
        for gym in ["gym-a", "gym-b"] {
            let console = try gyms[gym]!.factory(.init(clientID: "console-1", host: "\(gym).local", port: 1883))
            try console.connect()
            try console.subscribe(FleetTopics.gymAnswer(prefix: "gymtimer", to: "console-1"), qos: 1)
            try console.subscribe(FleetTopics.gymScores(prefix: "gymtimer"), qos: 1)
            consoles[gym] = console
        }
        loop.run(for: .seconds(1))
        for console in consoles.values { _ = console.takeEvents() }
        let ask = GymDeskAsk(id: "ask-1", reply: "console-1", ask: .athletes)
        try consoles["gym-b"]!.publish(MQTTMessage(topic: FleetTopics.gymAsk(prefix: "gymtimer"), payload: ask.payload, qos: 1))
        var answers: [String: [GymDeskAnswer]] = [:]
        var scoresSeen: [String: [GymScores]] = [:]
        loop.run(upTo: .seconds(10)) {
            for (gym, console) in consoles {
                for case .message(let message) in console.takeEvents() {
                    if let answer = GymDeskAnswer.read(message.payload), message.topic.contains("/answer/") { answers[gym, default: []].append(answer) }
                    if let seen = scores(message) { scoresSeen[gym, default: []].append(seen) }
                }
            }
            return answers["gym-b"] != nil && scoresSeen["gym-b"] != nil
        }
        #expect(answers["gym-b"]?.map { $0.roster?.athletes.map(\.name) } == [["Member of gym-b"]], "answered from gym-b's rows")
        #expect(answers["gym-a"] == nil, "gym-a's console with the same reply id hears nothing of gym-b's ask")
        // Asked about, gym-b's scores are retained too, and reach gym-b only.
        #expect(scoresSeen["gym-b"]?.last?.boards.first?.entries.map(\.athlete) == ["Member of gym-b"])
        #expect(scoresSeen["gym-a"] == nil)
        #expect(scores(gyms["gym-b"]!.retained["gymtimer/all/gym/scores"])?.boards.first?.entries.map(\.athlete) == ["Member of gym-b"])
        #expect(scores(gyms["gym-a"]!.retained["gymtimer/all/gym/scores"])?.boards.first?.entries.map(\.athlete) == ["Member of gym-a"])

        // The chain's leaderboard: every gym's, each entry naming its gym, ranked across the chain.
        let board = try #require(scores(centre.retained["gyms/all/gym/scores"]))
        #expect(board.boards.map(\.program) == ["Fran"])
        #expect(board.boards.first?.entries.map { "\($0.rank) \($0.gym ?? "-") \($0.score)" } == ["1 gym-b 2:30, 3 rounds", "2 gym-a 3:00, 3 rounds"])
        #expect(board.week.stations == ["gym-a", "gym-b"] && board.week.counts == [[2, 4], [2, 4]])
        // Read by the chain's console's account, which is no gym's coach: display names only
        // (the owner's choice, else the initialled name), no roster id, no record id.
        #expect(board.boards.first?.entries.map(\.athlete) == ["Member g.", "Mia A."])
        #expect(board.boards.first?.entries.allSatisfy { $0.athleteID == nil && $0.id.isEmpty } == true)
        let bytes = String(decoding: centre.retained["gyms/all/gym/scores"]?.payload ?? [], as: UTF8.self)
        #expect(!bytes.contains("Member of") && !bytes.contains("rack-1/program"), "\(bytes)")
        #expect(gyms.values.allSatisfy { $0.retained["gymtimer/all/gym/scores"].flatMap(scores)?.boards.first?.entries.allSatisfy { $0.gym == nil } ?? false })
    }

    @Test func theChainsDeskTopicsTakeOnlyAGymsAsk() {
        let topics = CollectorTopics.chain(prefix: "gyms", sharedGroup: "central")
        #expect(topics.deskAsks == "$share/central/gyms/+/all/gym/ask")
        #expect(topics.deskGym(ofAsk: "gyms/gym-a/all/gym/ask") == .some("gym-a"))
        for hostile in ["gyms/all/all/gym/ask", "gyms/Gym A/all/gym/ask", "gyms/gym-a/rack/gym/ask", "gyms/gym-a/all/gym/ask/x", "gymtimer/all/gym/ask"] {
            #expect(topics.deskGym(ofAsk: hostile) == nil, "\(hostile)")
        }
        #expect(topics.deskAnswer(gym: "gym-a", reply: "c-1") == "gyms/gym-a/all/gym/answer/c-1")
        #expect(topics.deskScores(gym: "gym-a") == "gyms/gym-a/all/gym/scores" && topics.leaderboard == "gyms/all/gym/scores")
        let gym = CollectorTopics.gym(prefix: "gymtimer")
        #expect(gym.deskAsks == "gymtimer/all/gym/ask" && gym.deskGym(ofAsk: "gymtimer/all/gym/ask") == .some(nil) && gym.leaderboard == nil)
    }

    /// A store whose every read fails (the database away), counting its reads.
    final class Away: @unchecked Sendable {
        var reads = 0
    }

    struct AwayRows: GymDeskStore {
        let away: Away
        var timeZone: TimeZone { ChainDeskTests.utc }
        var wall: WallClock { .fixed(ChainDeskTests.now) }
        func down<T>() -> Result<T, GymDeskProblem> { .failure(.init(description: "the database is away")) }
        func roster(onStations: [String: CardID]) -> Result<GymRoster, GymDeskProblem> { down() }
        func athletes() -> Result<[GymRoster.Athlete], GymDeskProblem> { down() }
        func summary(id: Int64) -> Result<GymAthleteSummary?, GymDeskProblem> { down() }
        func name(card: CardID, name: String, short: String?) -> Result<String, GymDeskProblem> { down() }
        func rename(id: Int64, name: String?, short: String?, shown: PublicName?) -> Result<String, GymDeskProblem> { down() }
        func setDivision(record: String, division: Division) -> Result<String, GymDeskProblem> { down() }
        func void(record: String) -> Result<String, GymDeskProblem> { down() }
        func scores() -> Result<GymScores, GymDeskProblem> {
            away.reads += 1
            return down()
        }
    }

    /// The database away: the scores are read once per `failedCheck`, one gym at a time (each read may wait out
    /// a time-out in the collector's loop), and said once in the log.
    @Test func aDatabaseAwayIsReadAgainOnlyAfterTheBackOff() throws {
        let loop = loop
        let away = Away()
        let lines = LogLines()
        let desk = GymDeskStores.chain(
            timeZone: Self.utc, wall: .fixed(Self.now), store: { _ in AwayRows(away: away) }, gymsSince: { _ in .success(["gym-a", "gym-b"]) })
        let collector = try FleetCollector(
            options: .init(clientID: "central-1", host: "centre.local", port: 1883, cleanSession: false),
            topics: .chain(prefix: "gyms", sharedGroup: "central"), store: ChainCollectorTests.CentralStore(), desk: desk,
            transport: centre.factory, now: { loop.now }, log: lines.add)
        loop.drivers = [collector]
        #expect(loop.run(upTo: .seconds(60)) { collector.isSubscribed })
        loop.run(for: .seconds(1))
        #expect(away.reads == 1, "one failed read stops the pass")
        loop.run(for: .seconds(25))
        #expect(away.reads == 1, "not read again within the back-off")
        loop.run(for: .seconds(10))
        #expect(away.reads == 2)
        #expect(lines.all.filter { $0.contains("cannot read gym-a's scores") }.count == 1, "\(lines.all)")
        #expect(centre.retained["gyms/gym-a/all/gym/scores"] == nil && centre.retained["gyms/all/gym/scores"] == nil)
    }
}
