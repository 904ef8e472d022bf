import Testing
@testable import GymTimerHardware

@Suite struct GPIOAPITests {
    @Test func debianBuildsAgainstLibgpiodV1() {
        #expect(gpiodAPIVersion == 1)
    }
}
