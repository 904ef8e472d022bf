import Foundation
import GymTimerConfig
import GymTimerCore
import GymTimerDrivers
import GymTimerFleetLink
import GymTimerHardware
import GymTimerHistory
import GymTimerRuntime
import GymTimerSetup

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
        // One controller per data directory: a second is refused, naming the first, before any
        // device is opened (so not by a busy GPIO line). A directory that does not exist yet is
        // locked once the history has made it.
        let parent = (configuration.history.path as NSString).deletingLastPathComponent
        let directory = parent.isEmpty ? "." : parent
        var lock: DataDirectoryLock?
        var lockTried = false
        func takeLock() throws(KioskStartError) {
            lockTried = true
            do {
                lock = try DataDirectoryLock(directory: directory)
            } catch {
                if case .held = error { throw .refused("\(error)") }
                // An unusable directory must not keep the timer dark: it runs, and the faults are logged.
                log("\(error); running without the lock")
            }
        }
        if FileManager.default.fileExists(atPath: directory) { try takeLock() }
        defer { withExtendedLifetime(lock) {} }
        let session = try HardwareSession(configuration: configuration, opener: opener)
        let (signals, hardware) = (session.signals, session.hardware)
        defer { hardware.shutDown() }

        let faults = FaultLog(sink: log)
        // Never stops the start: a corrupt database is replaced, an unusable one waited for.
        let history = HistoryStore.opening(path: configuration.history.path, faults: faults)
        if !lockTried && FileManager.default.fileExists(atPath: directory) { try takeLock() }
        let store = KioskStore(directory: directory, history: history, faults: faults)
        let stored = store.load()
        hardware.applyBrightness(faults)

        let clock = ContinuousClock()
        // Moments are wall time (see wallTimeSinceEpoch): stored deadlines survive a restart.
        let origin = clock.now.advanced(by: .zero - wallTimeSinceEpoch())
        let timing = InputTiming(
            settle: .milliseconds(configuration.hardware.debounceMs), hold: .milliseconds(configuration.hardware.holdMs))
        let systemd = SystemdNotifier()
        var extra: [any TimedDriver] = []
        if let interval = systemd.watchdogInterval {
            extra.append(WatchdogPinger(interval: interval, start: Moment(origin.duration(to: clock.now))) { systemd.watchdog() })
        }
        let sound = KioskAudio.player(configuration.audio, kiosk: configuration.kiosk, log: log)
        // With a [fleet] section, the station's socket, deadlines and outbox join the loop's.
        let password: String?
        do {
            password = try configuration.fleet?.passwordFile.map(FleetPassword.read)
        } catch {
            throw .refused("\(error)")
        }
        let fleet = KioskFleet(
            configuration, historyPath: configuration.history.path, password: password,
            now: { Moment(origin.duration(to: clock.now)) }, log: log)
        let runtime = KioskRuntime(
            kiosk: store.restore(stored, settings: configuration.kiosk), clock: clock, origin: origin,
            devices: hardware.devices(sources: [signals] + fleet.sources, sound: sound),
            history: fleet.history(history), timing: timing, faults: faults, extraDrivers: extra + fleet.drivers,
            store: store, held: stored?.held ?? [:])
        fleet.attach(runtime)
        log("running: \(hardware.displayDescription), GPIO on \(hardware.chip.path) (libgpiod \(gpiodLibraryVersion))\(stored == nil ? "" : ", resumed")")
        runtime.start()
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
        systemd.stopping()
        fleet.stop()
        if let player = sound as? PCMSoundPlayer, !player.shutdown() {
            log("\(PCMSoundPlayer.faultName): did not stop within 2 s; exiting without it")
        }
        hardware.shutDown()
        log("stopped by signal \(signals.received ?? 0): display blank, buzzer off, lines released")
    }
}
