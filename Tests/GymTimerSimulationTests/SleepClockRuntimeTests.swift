import GymTimerCore
import GymTimerDrivers
import GymTimerHAL
import GymTimerSimulation
import Testing
@testable import GymTimerRuntime
@testable import GymTimerSimulator

/// The loop tells the kiosk when its sleep window begins and ends (`SleepClock`): it wakes at
/// the edge itself (a deadline, no ticking), and an untrusted wall clock never darkens the display.
/// Virtual time, an injected wall clock and zone.
@Suite struct SleepClockRuntimeTests {
    final class Flag { var value: Bool; init(_ value: Bool) { self.value = value } }

    /// 2026-11-25 21:59:00 UTC: 22:59 in the zone of these tests (UTC+1).
    static let wallStart = 1_764_028_800.0 + 21 * 3600 + 59 * 60
    static let window = try! SleepWindow.parse(from: "23:00", until: "06:00").get()

    func runtime(trusted: Flag) -> (KioskRuntime<VirtualClock>, VirtualClock) {
        let clock = VirtualClock()
        let start = clock.now
        let devices = SimulatedDevices()
        let kioskDevices = KioskDevices(
            waiter: VirtualClockWaiter(clock: clock), inputs: [:], display: devices.display, buzzer: devices.buzzer,
            leds: devices.leds, sound: devices.sound)
        var kiosk = Kiosk(settings: KioskSettings())
        _ = kiosk.handle(.command(.setSleepWindow(Self.window)), at: .origin)
        let sleepClock = SleepClock(
            unixNow: { Self.wallStart + Double(start.duration(to: clock.now).nanoseconds) / 1e9 },
            utcOffset: { _ in 3600 }, trusted: { trusted.value })
        let runtime = KioskRuntime(
            kiosk: kiosk, clock: clock, origin: start, devices: kioskDevices, history: InMemoryHistory(),
            faults: FaultLog { _ in }, sleepClock: sleepClock)
        runtime.start()
        return (runtime, clock)
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
