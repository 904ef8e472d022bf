import GymTimerCore
import GymTimerHAL
import GymTimerSimulation
import Testing
@testable import GymTimerRuntime
@testable import GymTimerSimulator
import GymTimerSystem

/// A loop that wakes late (a loaded machine) gets a press and its release in one batch; the
/// press was held well past the settle time and must still count.
@Suite struct LateWakeupTests {
    /// Hands back one batch of edges, dated by their age, after 100 ms of virtual time.
    final class LateWaiter: InputWaiter {
        let clock: VirtualClock
        var batches: [[InputEdge]]
        init(clock: VirtualClock, batches: [[InputEdge]]) {
            self.clock = clock
            self.batches = batches
        }
        func wait(timeout: Duration?) throws(HALError) -> [InputEdge] {
            clock.advance(by: .milliseconds(100))
            return batches.isEmpty ? [] : batches.removeFirst()
        }
    }

    @Test func aPressAndItsReleaseInOneWakeUpStillStartTheRest() throws {
        let clock = VirtualClock()
        let devices = SimulatedDevices()
        // Pressed 90 ms ago, released 20 ms ago: 70 ms down, far beyond the 10 ms settle.
        let waiter = LateWaiter(clock: clock, batches: [[
            InputEdge(line: "start", active: true, age: .milliseconds(90)),
            InputEdge(line: "start", active: false, age: .milliseconds(20)),
        ]])
        let kioskDevices = KioskDevices(
            waiter: waiter, inputs: [.start: SimulatedLine(name: "start"), .dismiss: SimulatedLine(name: "dismiss")],
            display: devices.display, buzzer: devices.buzzer, leds: devices.leds, sound: devices.sound)
        let runtime = KioskRuntime(
            kiosk: Kiosk(settings: KioskSettings()), clock: clock, origin: clock.now, devices: kioskDevices,
            history: InMemoryHistory(), faults: FaultLog { _ in })
        runtime.start()
        try runtime.step()
        guard case .rest(let rest) = runtime.kiosk.mode, case .resting = rest.phase else {
            Issue.record("the press was lost: \(runtime.kiosk.mode)")
            return
        }
        #expect(devices.leds[.rest]?.level == true)
    }
}
