import GymTimerCore
import GymTimerHAL
import GymTimerSimulation
import Testing
@testable import GymTimerRuntime
@testable import GymTimerSimulator
import GymTimerSystem

/// A wake-up whose handling runs past a second boundary (a flood of bad commands, a slow
/// write) must not skip the second it ran past: the next wait returns at once for it.
@Suite struct SlowWakeupTests {
    /// A driver due just before a boundary whose work takes `cost` of virtual time.
    final class SlowDriver: TimedDriver {
        let clock: VirtualClock
        var nextDeadline: Moment?
        let cost: Duration
        init(clock: VirtualClock, at moment: Moment, cost: Duration) {
            self.clock = clock
            nextDeadline = moment
            self.cost = cost
        }
        func fire(at now: Moment) {
            nextDeadline = nil
            clock.advance(by: cost)
        }
    }

    @Test func aWakeUpThatRunsPastASecondBoundaryStillShowsThatSecond() throws {
        let clock = VirtualClock()
        let devices = SimulatedDevices()
        let kioskDevices = KioskDevices(
            waiter: VirtualClockWaiter(clock: clock), inputs: [:], display: devices.display, buzzer: devices.buzzer,
            leds: devices.leds, sound: devices.sound)
        var settings = KioskSettings()
        settings.rest.defaultSeconds = 15
        var kiosk = Kiosk(settings: settings)
        _ = kiosk.handle(.pressed(.start), at: .origin)
        // Resting from 0 to 15 s: the display changes at every whole second. The slow wake-up
        // starts at 5.9 s and ends at 6.2 s, past the boundary at 6 s (`00:09`).
        let slow = SlowDriver(clock: clock, at: Moment(.milliseconds(5900)), cost: .milliseconds(300))
        let runtime = KioskRuntime(
            kiosk: kiosk, clock: clock, origin: clock.now, devices: kioskDevices, history: InMemoryHistory(),
            faults: FaultLog { _ in }, extraDrivers: [slow])
        runtime.start()
        var shown: [DisplayContent] = []
        while runtime.now < Moment(.seconds(14)) {
            try runtime.step()
            if let content = runtime.shownDisplay, content != shown.last { shown.append(content) }
        }
        let expected = (1...14).reversed().map { DisplayContent.time(seconds: $0) }
        #expect(shown == expected, "every second shown once, in order: \(shown.map(\.text))")
    }
}
