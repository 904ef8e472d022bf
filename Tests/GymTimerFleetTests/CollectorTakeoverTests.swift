import Foundation
import Glibc
import GymTimerCore
import GymTimerCollector
import GymTimerFleetCommands
import GymTimerFleetLink
import GymTimerStationLink
import GymTimerUpgrade
import GymTimerSimulation
import Testing
import GymTimerTestSupport

/// Two collectors with one client id: the broker closes one's connection whenever the other
/// connects, forever. Each says so in one clear line naming --client-id, instead of an endless
/// "broker unreachable" / "connected" pair per takeover. In virtual time on the in-memory
/// broker (which takes a session over as Mosquitto does): the takeovers of many minutes are
/// all there, and the lines are counted over all of them.
@Suite struct CollectorTakeoverTests {
    @Test func twoCollectorsWithOneClientIDSayItOnceEach() throws {
        let directory = testDirectory("fleet-twins")
        defer { try? FileManager.default.removeItem(atPath: directory) }
        let loop = VirtualLoop()
        let broker = InMemoryBroker(now: { loop.now.sinceOrigin })
        let lines = [LogLines(), LogLines()]
        let twins = try (0..<2).map { n in
            try FleetCollector(
                options: .init(clientID: "gym-collector", host: "gym.local", port: 1883, cleanSession: false),
                prefix: "gymtimer", database: directory + "/gym.sqlite", transport: broker.factory, now: { loop.now },
                log: lines[n].add)
        }
        loop.drivers = twins
        func said(_ n: Int) -> Int { lines[n].all.filter { $0.contains("same --client-id gym-collector") }.count }
        #expect(loop.run(upTo: .seconds(600)) { said(0) + said(1) >= 2 }, "both say it: \(lines[0].all) \(lines[1].all)")
        // Ten minutes longer: the takeovers go on, the lines do not.
        let connections = broker.published.count
        loop.run(for: .seconds(600))
        #expect(broker.published.count > connections + 10, "the takeovers go on (each one publishes the loser's will)")
        #expect(said(0) == 1 && said(1) == 1, "each says it once: \(lines[0].all) \(lines[1].all)")
        for n in 0..<2 {
            #expect(lines[n].all.filter { $0.contains("unreachable") }.count <= 2, "\(lines[n].all)")
        }
    }
}
