import Foundation
import Glibc
import GymTimerFleetLink
import Testing

/// Two collectors with one client id: the broker closes one's connection whenever the other
/// connects, forever. Each says so in one clear line naming --client-id, instead of an endless
/// "broker unreachable" / "connected" pair per takeover.
@Suite(.serialized) struct CollectorTakeoverTests {
    @Test func twoCollectorsWithOneClientIDSayItOnceEach() throws {
        var template = Array((NSTemporaryDirectory() + "fleet-twins-XXXXXX").utf8CString)
        let directory = String(cString: mkdtemp(&template)!)
        let broker = try LocalBroker()
        let lines = [LogLines(), LogLines()]
        let twins = try (0..<2).map { n in
            try FleetCollector(
                options: .init(clientID: "gym-collector", host: "127.0.0.1", port: broker.port, cleanSession: false),
                prefix: "gymtimer", database: directory + "/gym.sqlite", log: lines[n].add)
        }
        func said(_ n: Int) -> Int { lines[n].all.filter { $0.contains("same --client-id gym-collector") }.count }
        let end = Date().addingTimeInterval(40)
        while Date() < end, said(0) + said(1) < 2 {
            for twin in twins { twin.step(timeout: .milliseconds(10)) }
        }
        // A while longer: the takeovers go on, the lines do not.
        let more = Date().addingTimeInterval(5)
        while Date() < more { for twin in twins { twin.step(timeout: .milliseconds(10)) } }
        #expect(said(0) == 1 && said(1) == 1, "each says it once: \(lines[0].all) \(lines[1].all)")
        for n in 0..<2 {
            #expect(lines[n].all.filter { $0.contains("unreachable") }.count <= 2, "\(lines[n].all)")
        }
    }
}
