import Foundation
import GymTimerConfig
import GymTimerCore
import GymTimerDrivers
import GymTimerFleet
import GymTimerHAL
import GymTimerHistory
import GymTimerMQTT
import GymTimerRuntime
import GymTimerSetup
import GymTimerSimulation
import GymTimerStationLink
import GymTimerSystem

/// `gymtimer simulate --headless` (simulation.md): the kiosk on simulated devices in real
/// time with no terminal, the trace on stdout as it happens with each change's `unix` time,
/// script lines from stdin, and, with a `[fleet]` section, the fleet station in the same loop.
/// This is how several stations run on one machine for the fleet's tests and demos.
///
/// It keeps what the kiosk keeps in its data directory, as `run` does: the history, the outbox
/// and the journal of the running state, on the wall clock's timeline, so a station killed
/// mid-rest and started again carries on with the same deadline (its trace's t 0 shows it).
public final class HeadlessSimulation {
    public let devices: SimulatedDevices
    public let inputs: HeadlessInputs
    public let fleet: KioskFleet
    private let clock = ContinuousClock()
    /// The origin of the kiosk's timeline: the Unix epoch, so a moment is its own Unix time,
    /// one mapping for the trace's `unix`, the state's `deadline` and a start's `at`.
    private let origin: ContinuousClock.Instant
    private let settings: KioskSettings
    private let data: KioskDataDirectory
    private let log: (String) -> Void
    private let trace: TraceRecorder
    private let traceStart: TraceStart
    /// The simulated reader's taps (`tap` lines), heard as the kiosk hears a real reader's.
    private let cards: CardTapSource

    /// `write` receives each trace line (flush it); `log` each fault or fleet line.
    public init(
        configuration: GymTimerConfiguration, dataDirectory: String,
        write: @escaping (String) -> Void, log: @escaping (String) -> Void
    ) throws(SimulationSetupError) {
        settings = configuration.kiosk
        self.log = log
        devices = SimulatedDevices(display: configuration.hardware.display.kind, audio: configuration.audio.enabled)
        data = try KioskDataDirectory.simulator(dataDirectory, faults: FaultLog(sink: log))
        let clock = self.clock
        // The wall clock and the monotonic one read together: a gap between them (opening the
        // data directory takes a while) would put every `unix` that far from the wall clock.
        let origin = wallClockOrigin(of: clock)
        self.origin = origin
        let now = { origin.duration(to: clock.now) }
        // The wall clock, read on the kiosk's timeline (whose origin is the Unix epoch).
        let wall = WallClock { origin.duration(to: clock.now) }
        fleet = KioskFleet(
            configuration, historyPath: dataDirectory + "/history.sqlite",
            now: { Moment(now()) }, wall: wall, log: log)
        let stopSignals: StopSignals
        do {
            stopSignals = try StopSignals()
        } catch {
            throw .stopSignals("\(error)")
        }
        let reader = SimulatedCardReader(now: { origin.duration(to: ContinuousClock.now) })
        do {
            // Asked when a tap's card comes and goes (HeadlessInputs), else once a minute: an idle
            // station's reader thread does not wake many times a second.
            cards = try CardTapSource(name: reader.name, interval: .seconds(60)) { reader }
        } catch {
            throw .stopSignals("\(error)")
        }
        inputs = HeadlessInputs(
            stopSignals: stopSignals, sources: [data.clockSteps, cards] + fleet.sources, now: now, cardReader: reader,
            askReader: { [cards] in cards.askNow() }, log: log)
        let traceStart = TraceStart()
        self.traceStart = traceStart
        trace = TraceRecorder(now: { traceStart.atZero ? .zero : now() - traceStart.offset }) { line in
            // One more field, `unix`, the time of the change on the wall clock.
            write(String(line.dropLast()) + ",\"unix\":" + String(format: "%.6f", wall.now) + "}")
        }
        devices.report(to: trace)
    }

    /// Runs until SIGTERM, SIGINT or an `end` line; the station says `offline` on the way out.
    public func run() throws(HALError) {
        var kioskDevices = devices.kioskDevices(inputs: inputs)
        kioskDevices.cards = cards
        let runtime = data.runtime(
            settings: settings, clock: clock, origin: origin, devices: kioskDevices,
            history: fleet.history(data.history), extraDrivers: fleet.drivers, sleepClock: .system())
        if data.stored != nil { log("headless: resumed from \(data.path)") }
        fleet.attach(runtime)
        runtime.start()
        traceStart.offset = origin.duration(to: clock.now)
        // Every device's initial state is reported at t 0, however long writing them takes.
        traceStart.atZero = true
        trace.begin()
        traceStart.atZero = false
        fleet.observe(runtime)
        while !inputs.stopRequested {
            try runtime.step()
            fleet.observe(runtime)
        }
        fleet.stop()
        cards.shutdown()
    }
}

/// Where the trace's `t` 0 lies on the kiosk's timeline: when the loop starts, after set-up.
private final class TraceStart {
    var offset: Duration = .zero
    /// True while the t 0 records are written.
    var atZero = false
}
