import Foundation
import GymTimerConfig
import GymTimerCore
import GymTimerDrivers
import GymTimerHardware
import GymTimerHistory
import GymTimerRuntime
import GymTimerSetup
import GymTimerStationLink
import GymTimerSystem

/// `gymtimer run` once the config is read: the kiosk on the Raspberry Pi's devices, until
/// SIGTERM or Ctrl-C.
///
/// A device that cannot be opened at start-up is `KioskStartError.refused`, naming it and the
/// fix. A device that fails later is logged once and retried while the countdown goes on.
/// SIGTERM or SIGINT blanks the display, silences the buzzer, releases the lines and returns.
public enum KioskService {
    public static func run(
        configuration: GymTimerConfiguration, log: @escaping @Sendable (String) -> Void, opener: DeviceOpener = .system
    ) throws(KioskStartError) {
        let faults = FaultLog(sink: log)
        let data = try dataDirectory(configuration, faults: faults, log: log)
        // The lock is held until the loop ends.
        defer { withExtendedLifetime(data) {} }
        let session = try HardwareSession(configuration: configuration, opener: opener)
        let (signals, hardware) = (session.signals, session.hardware)
        var stoppedBy: Int32?
        // The one teardown, on every way out (a stop signal, a failed loop): the display blank,
        // the buzzer off, the lines released; then, after a stop signal, the line saying so.
        defer {
            hardware.shutDown()
            if let stoppedBy { log("stopped by signal \(stoppedBy): display blank, buzzer off, lines released") }
        }
        hardware.applyBrightness(faults)

        let clock = ContinuousClock()
        // Moments are wall time (see wallClockOrigin): stored deadlines survive a restart.
        let origin = wallClockOrigin(of: clock)
        let timing = InputTiming(
            settle: .milliseconds(configuration.hardware.debounceMs), hold: .milliseconds(configuration.hardware.holdMs))
        let systemd = SystemdNotifier()
        var extra: [any TimedDriver] = []
        if let interval = systemd.watchdogInterval {
            extra.append(WatchdogPinger(interval: interval, start: Moment(origin.duration(to: clock.now))) { systemd.watchdog() })
        }
        let sound = KioskAudio.player(configuration.audio, kiosk: configuration.kiosk, log: log)
        // With a [fleet] section, the station's socket, deadlines and outbox join the loop's.
        let fleet = KioskFleet(
            configuration, historyPath: configuration.history.path,
            now: { Moment(origin.duration(to: clock.now)) },
            healthProbe: SystemHealthProbe(dataDirectory: data.path), log: log)
        let runtime = data.runtime(
            settings: configuration.kiosk, clock: clock, origin: origin,
            devices: hardware.devices(sources: [signals, data.clockSteps] + fleet.sources, sound: sound),
            history: fleet.history(data.history), timing: timing, extraDrivers: extra + fleet.drivers,
            sleepClock: .system())
        fleet.attach(runtime)
        log("running: \(hardware.displayDescription), GPIO on \(hardware.chip.path) (libgpiod \(gpiodLibraryVersion))\(data.stored == nil ? "" : ", resumed")")
        runtime.start()
        try serve(runtime, until: signals, fleet: fleet, systemd: systemd)
        systemd.stopping()
        fleet.stop()
        if let player = sound as? PCMSoundPlayer, !player.shutdown() {
            log("\(PCMSoundPlayer.faultName): did not stop within 2 s; exiting without it")
        }
        stoppedBy = signals.received ?? 0
    }

    /// The data directory beside the history, locked: one controller per directory, a second
    /// refused naming the first before any device is opened (so not by a busy GPIO line). An
    /// unusable directory must not keep the timer dark: it runs without the lock, logged.
    static func dataDirectory(
        _ configuration: GymTimerConfiguration, faults: FaultLog, log: @escaping @Sendable (String) -> Void
    ) throws(KioskStartError) -> KioskDataDirectory {
        let parent = (configuration.history.path as NSString).deletingLastPathComponent
        do {
            return try KioskDataDirectory(
                path: parent.isEmpty ? "." : parent, historyPath: configuration.history.path, faults: faults,
                unlockable: { log("\($0); running without the lock") })
        } catch {
            throw .refused("\(error)")
        }
    }

    /// The loop, step by step until a stop signal, telling systemd it is ready and each new
    /// status line, and the fleet each new state.
    static func serve(
        _ runtime: KioskRuntime<ContinuousClock>, until signals: StopSignals, fleet: KioskFleet, systemd: SystemdNotifier
    ) throws(KioskStartError) {
        var status = runtime.kiosk.statusLine
        systemd.ready(status: status)
        do {
            while !signals.stopRequested {
                try runtime.step()
                fleet.observe(runtime)
                if runtime.kiosk.statusLine != status {
                    status = runtime.kiosk.statusLine
                    systemd.status(status)
                }
            }
        } catch {
            throw .failed("the event loop failed: \(error)")
        }
    }
}
