import Testing
@testable import GymTimerSimulation

@Suite struct VirtualClockTests {
    @Test func advancingWakesSleepersAtTheirDeadline() async throws {
        let clock = VirtualClock()
        let start = clock.now
        async let slept: Void = clock.sleep(until: start.advanced(by: .seconds(300)))
        while clock.now == start { clock.advance(by: .seconds(300)) }
        try await slept
        #expect(start.duration(to: clock.now) == .seconds(300))
    }
}
