import Testing
@testable import GymTimerCollector
@testable import GymTimerFleetCommands
@testable import GymTimerFleetLink
@testable import GymTimerStationLink
@testable import GymTimerUpgrade

@Suite struct FleetConsoleTests {
    @Test(arguments: [
        (90.0, "1:30"), (89.2, "1:30"), (0.4, "0:01"), (0.0, "0:00"), (-3.0, "0:00"), (3599.5, "1:00:00"), (3725.0, "1:02:05"),
    ])
    func whatIsLeftIsShownAsTheDisplayCountsIt(seconds: Double, shown: String) {
        #expect(FleetConsole.minutesAndSeconds(seconds) == shown)
    }
}
