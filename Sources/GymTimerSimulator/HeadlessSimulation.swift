import Foundation
import GymTimerConfig
import GymTimerCore
import GymTimerDrivers
import GymTimerHAL
import GymTimerHistory
import GymTimerFleet
import GymTimerFleetLink
import GymTimerMQTT
import GymTimerRuntime
import GymTimerSimulation

/// `gymtimer simulate --headless` (simulation.md): the kiosk on simulated devices in real
/// time with no terminal, the trace on stdout as it happens with each change's `unix` time,
/// script lines from stdin, and, with a `[fleet]` section, the fleet station in the same loop.
/// This is how several stations run on one machine for the fleet's tests and demos.
public final class HeadlessSimulation {
    public let devices: SimulatedDevices
    public let inputs: HeadlessInputs
    public let fleet: KioskFleet
    private let clock = ContinuousClock()
    private let origin: ContinuousClock.Instant
    /// The Unix time of the kiosk timeline's origin: one mapping for the trace's `unix`, the
    /// state's `deadline` and a start's `at`.
    private let unixOrigin: Double
    private let settings: KioskSettings
    private let store: HistoryStore
    private let faults: FaultLog
    private let trace: TraceRecorder
    private let lock: DataDirectoryLock
    private let traceStart: TraceStart

    /// `write` receives each trace line (flush it); `log` each fault or fleet line.
    public init(
        configuration: GymTimerConfiguration, dataDirectory: String, password: String?,
        write: @escaping (String) -> Void, log: @escaping (String) -> Void
    ) throws(SimulationSetupError) {
        settings = configuration.kiosk
        devices = SimulatedDevices(display: configuration.hardware.display.kind, audio: configuration.audio.enabled)
        faults = FaultLog(sink: log)
        do {
            lock = try DataDirectoryLock(directory: dataDirectory)
        } catch {
            throw .dataDirectoryInUse("\(error)")
        }
        let clock = self.clock
        let origin = clock.now
        self.origin = origin
        let unixOrigin = Date().timeIntervalSince1970
        self.unixOrigin = unixOrigin
        let now = { origin.duration(to: clock.now) }
        let unixNow = { unixOrigin + Double(now().nanoseconds) / 1e9 }
        store = HistoryStore.opening(path: dataDirectory + "/history.sqlite", faults: faults)
        fleet = KioskFleet(
            configuration, historyPath: dataDirectory + "/history.sqlite", password: password,
            now: { Moment(now()) }, unixNow: unixNow, log: log)
        let stopSignals: StopSignals
        do {
            stopSignals = try StopSignals()
        } catch {
            throw .stopSignals("\(error)")
        }
        inputs = HeadlessInputs(stopSignals: stopSignals, sources: fleet.sources, now: now, log: log)
        let traceStart = TraceStart()
        self.traceStart = traceStart
        trace = TraceRecorder(now: { traceStart.atZero ? .zero : now() - traceStart.offset }) { line in
            // One more field, `unix`, the time of the change on the wall clock.
            write(String(line.dropLast()) + ",\"unix\":" + String(format: "%.6f", unixNow()) + "}")
        }
        devices.report(to: trace)
    }

    /// Runs until SIGTERM, SIGINT or an `end` line; the station says `offline` on the way out.
    public func run() throws(HALError) {
        let runtime = KioskRuntime(
            kiosk: Kiosk(settings: settings), clock: clock, origin: origin,
            devices: devices.kioskDevices(inputs: inputs), history: fleet.history(store), faults: faults,
            extraDrivers: fleet.drivers)
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
    }
}

/// Where the trace's `t` 0 lies on the kiosk's timeline: when the loop starts, after set-up.
private final class TraceStart {
    var offset: Duration = .zero
    /// True while the t 0 records are written.
    var atZero = false
}
