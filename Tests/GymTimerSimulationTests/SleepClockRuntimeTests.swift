import GymTimerCore
import GymTimerHAL
import GymTimerSimulation
import Synchronization
import Testing
@testable import GymTimerRuntime
@testable import GymTimerSimulator
import GymTimerSystem

/// The loop tells the kiosk when its sleep window begins and ends (`SleepClock`): it wakes at
/// the edge itself (a deadline, no ticking), and an untrusted wall clock never darkens the display.
/// Virtual time, an injected wall clock and zone.
@Suite struct SleepClockRuntimeTests {
    final class Flag { var value: Bool; init(_ value: Bool) { self.value = value } }

    /// 2026-11-25 21:59:00 UTC: 22:59 in the zone of these tests (UTC+1).
    static let wallStart = 1_764_028_800.0 + 21 * 3600 + 59 * 60
    static let window = try! SleepWindow.parse(from: "23:00", until: "06:00").get()

    /// How often the injected wall clock was read: its instant, its zone, its trust.
    final class Readings: Sendable {
        private let counts = Mutex((unix: 0, zone: 0, trusted: 0))
        var unix: Int {
            get { counts.withLock { $0.unix } }
            set { counts.withLock { $0.unix = newValue } }
        }
        var zone: Int {
            get { counts.withLock { $0.zone } }
            set { counts.withLock { $0.zone = newValue } }
        }
        var trusted: Int {
            get { counts.withLock { $0.trusted } }
            set { counts.withLock { $0.trusted = newValue } }
        }
    }

    /// The loop's blocking point on the virtual clock, with something that happens inside the
    /// wait (as a fleet command served by the poll is handed to the kiosk there).
    final class WaiterWithHook: InputWaiter {
        let clock: VirtualClock
        var during: (() -> Void)?
        init(clock: VirtualClock) { self.clock = clock }
        func wait(timeout: Duration?) throws(HALError) -> [InputEdge] {
            during?()
            during = nil
            clock.advance(by: timeout ?? .seconds(1))
            return []
        }
    }

    func runtime(
        trusted: Flag, readings: Readings = Readings(), window: SleepWindow? = Self.window
    ) -> (KioskRuntime<VirtualClock>, WaiterWithHook) {
        let clock = VirtualClock()
        let start = clock.now
        let devices = SimulatedDevices()
        let waiter = WaiterWithHook(clock: clock)
        let kioskDevices = KioskDevices(
            waiter: waiter, inputs: [:], display: devices.display, buzzer: devices.buzzer,
            leds: devices.leds, sound: devices.sound)
        var kiosk = Kiosk(settings: KioskSettings())
        if let window { _ = kiosk.handle(.command(.setSleepWindow(window)), at: .origin) }
        let sleepClock = SleepClock(
            wall: WallClock(epoch: Self.wallStart) {
                readings.unix += 1
                return start.duration(to: clock.now)
            },
            zone: {
                readings.zone += 1
                return { _ in 3600 }
            },
            trusted: {
                readings.trusted += 1
                return trusted.value
            })
        let runtime = KioskRuntime(
            kiosk: kiosk, clock: clock, origin: start, devices: kioskDevices, history: InMemoryHistory(),
            faults: FaultLog { _ in }, sleepClock: sleepClock)
        runtime.start()
        return (runtime, waiter)
    }

    @Test func eachWakeUpReadsTheWallClockOnce() throws {
        for trust in [true, false] {
            let readings = Readings()
            let (runtime, _) = runtime(trusted: Flag(trust), readings: readings)
            #expect(readings.trusted == 1, "start reads it once")
            try runtime.run(until: Moment(.seconds(61) + SleepClock.untrustedRecheck))
            #expect(runtime.wakeups >= 1)
            // One reading at the start, then one per wake-up: not one before the wait, one for
            // the deadline and one after it.
            #expect(readings.trusted == 1 + runtime.wakeups, "trusted \(trust): \(runtime.wakeups) wake-ups")
            #expect(readings.unix == 1 + runtime.wakeups)
            #expect(readings.zone == 1 + runtime.wakeups)
            #expect(runtime.kiosk.isAsleep == trust)
        }
    }

    @Test func aWindowSetDuringTheWaitDarkensTheDisplayInThatWakeUpWithOneReading() throws {
        let readings = Readings()
        let (runtime, waiter) = runtime(trusted: Flag(true), readings: readings, window: nil)
        #expect(readings.trusted == 0, "no window: the clock is not read")
        let tenToSix = try SleepWindow.parse(from: "22:00", until: "06:00").get()
        // The fleet's command arrives inside the wait, as the station's socket is served there.
        waiter.during = { runtime.inject(.command(.setSleepWindow(tenToSix)), at: runtime.now) }
        try runtime.step()
        #expect(runtime.shownDisplay == .blank, "22:59 local, inside the window just set: dark in the same wake-up")
        #expect(readings.trusted == 1 && readings.unix == 1 && readings.zone == 1)
        // The next wait is for the window's end, 06:00 local (7 h 1 min on), from that one reading.
        #expect(runtime.nextDeadline == Moment(.seconds(7 * 3600 + 60)))
        try runtime.step()
        #expect(readings.trusted == 2, "one more wake-up, one more reading")
        #expect(runtime.shownDisplay == .time(seconds: 90))
    }

    @Test func theLoopWakesAtTheEdgeAndTheDisplayGoesDark() throws {
        let (runtime, _) = runtime(trusted: Flag(true))
        #expect(runtime.shownDisplay == .time(seconds: 90), "22:59 local: lit")
        #expect(runtime.nextDeadline == Moment(.seconds(60)), "the window's edge, 23:00 local")
        try runtime.run(until: Moment(.seconds(59)))
        #expect(runtime.shownDisplay == .time(seconds: 90))
        try runtime.run(until: Moment(.seconds(61)))
        #expect(runtime.shownDisplay == .blank)
        #expect(runtime.kiosk.isAsleep)
        #expect(runtime.wakeups <= 3, "woken for the edge, not ticking: \(runtime.wakeups)")
        // Its next wake-up is the window's end, 06:00 local, seven hours on.
        #expect(runtime.nextDeadline == Moment(.seconds(60 + 7 * 3600)))
        try runtime.run(until: Moment(.seconds(60 + 7 * 3600 + 1)))
        #expect(runtime.shownDisplay == .time(seconds: 90))
        #expect(!runtime.kiosk.isNight)
    }

    @Test func anUntrustedClockNeverDarkensTheDisplayUntilItIsTrusted() throws {
        let trusted = Flag(false)
        let (runtime, _) = runtime(trusted: trusted)
        try runtime.run(until: Moment(.seconds(600)))
        #expect(runtime.shownDisplay == .time(seconds: 90), "23:09 by a clock nobody trusts: lit")
        #expect(!runtime.kiosk.isNight)
        trusted.value = true
        try runtime.run(until: Moment(.seconds(600) + SleepClock.untrustedRecheck))
        #expect(runtime.shownDisplay == .blank, "read again within the recheck once it is trusted")
    }
}
