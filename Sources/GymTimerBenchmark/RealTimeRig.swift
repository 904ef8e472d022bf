import GymTimerCore
import GymTimerDrivers
import GymTimerHAL
import GymTimerRuntime
import GymTimerSimulation
import GymTimerSimulator
import GymTimerSystem

/// The real event loop (`KioskRuntime`) on the real `ContinuousClock`, with simulated devices
/// and scheduled input edges delivered at their real times. Every output write and every
/// wake-up is logged with the time it happened, read from the clock at the write itself; the
/// benchmarks analyse the log afterwards, so measuring adds only a clock read per write.
final class RealTimeRig {
    /// Something that happened on the kiosk's timeline.
    enum Event: Hashable {
        case display(String)
        case led(StatusLED, Bool)
        case buzzer(Bool)
        /// A rest began counting down to this deadline (read from the kiosk when its LED lit).
        case restStarted(deadline: Moment)
    }

    let clock = ContinuousClock()
    let origin: ContinuousClock.Instant
    let devices = SimulatedDevices()
    let inputs: RealTimeInputs
    private(set) var runtime: KioskRuntime<ContinuousClock>!
    private(set) var events: [(time: Duration, event: Event)] = []
    private(set) var wakeTimes: [Duration] = []

    init(settings: KioskSettings) {
        let clock = self.clock
        let origin = clock.now
        self.origin = origin
        inputs = RealTimeInputs(buttons: SimulatedDevices.buttonNames, now: { origin.duration(to: clock.now) })
        events.reserveCapacity(1 << 14)
        wakeTimes.reserveCapacity(1 << 14)
        runtime = KioskRuntime(
            kiosk: Kiosk(settings: settings), clock: clock, origin: origin,
            devices: devices.kioskDevices(inputs: inputs), history: InMemoryHistory(), faults: FaultLog(sink: { _ in }))
        observe()
        runtime.start()
    }

    /// Time since the origin, now.
    var now: Duration { origin.duration(to: clock.now) }

    /// Runs the loop until `time` on the timeline.
    func run(until time: Duration) throws(HALError) {
        try runtime.run(until: Moment(time))
    }

    /// A press of `button` at `time`, released `length` later.
    func press(_ button: ControlButton, at time: Duration, for length: Duration) {
        inputs.schedule([InputGestures.hold(button.rawValue, at: time, for: length)])
    }

    private func observe() {
        devices.display.onFrame = { [unowned self] frame in log(.display(frame.text)) }
        devices.buzzer.onChange = { [unowned self] on in log(.buzzer(on)) }
        for (led, line) in devices.leds {
            line.onChange = { [unowned self] on in
                log(.led(led, on))
                if led == .rest, on, case .rest(let rest) = runtime.kiosk.mode,
                   case .resting(let countdown, _) = rest.phase {
                    events.append((now, .restStarted(deadline: countdown.deadline)))
                }
            }
        }
        inputs.onWake = { [unowned self] time in wakeTimes.append(time) }
    }

    private func log(_ event: Event) {
        events.append((now, event))
    }
}
