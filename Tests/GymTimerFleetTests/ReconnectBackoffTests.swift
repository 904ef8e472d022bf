import Testing
@testable import GymTimerCollector
@testable import GymTimerFleetCommands
@testable import GymTimerFleetLink
@testable import GymTimerStationLink
@testable import GymTimerUpgrade

/// The reconnect schedule: doubling waits up to 30 s, one log line per outage.
@Suite struct ReconnectBackoffTests {
    @Test func waitsDoubleUpToThirtySecondsAndEachOutageIsSaidOnce() {
        var backoff = ReconnectBackoff()
        let losses = (0..<7).map { _ in backoff.lost() }
        #expect(losses.map(\.wait) == [1, 2, 4, 8, 16, 30, 30].map { Duration.seconds($0) })
        #expect(losses.map(\.report) == [true, false, false, false, false, false, false])
        let first = backoff.connected()
        let second = backoff.connected()
        #expect(first, "the end of a reported outage is said")
        #expect(!second)
        let next = backoff.lost()
        #expect(next.wait == .seconds(1) && next.report, "a new outage starts again at 1 s and is said")
    }
}
