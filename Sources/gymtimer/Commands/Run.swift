import ArgumentParser
import Foundation
import GymTimerCore
import GymTimerDrivers
import GymTimerHAL
import GymTimerHardware
import GymTimerHistory
import GymTimerRuntime

/// `gymtimer run`: the kiosk on the Raspberry Pi's hardware, until SIGTERM or Ctrl-C.
///
/// A device that cannot be opened at start-up (no such chip or line, a busy line, no
/// permission, I2C or SPI not enabled) is one line naming it and the fix, with exit status 2.
/// A device that fails later is logged once and retried while the countdown goes on. SIGTERM
/// or SIGINT blanks the display, silences the buzzer, releases the lines and exits 0.
struct Run: ParsableCommand {
    static let configuration = CommandConfiguration(abstract: "Run the kiosk on the Raspberry Pi's GPIO, I2C or SPI devices.")

    @Option(name: .long, help: "Config file (TOML; default /etc/gymtimer/config.toml, else the built-in defaults).")
    var config: String?

    func run() throws {
        let log: @Sendable (String) -> Void = { StandardError.writeLine(JournalLine.format($0)) }
        // One controller per data directory: a second is refused, naming the first, before any
        // device is opened (so not by a busy GPIO line). A directory that does not exist yet is
        // locked once the history has made it.
        var lock: DataDirectoryLock?
        var directory = "."
        var lockTried = false
        func takeLock() throws {
            lockTried = true
            do {
                lock = try DataDirectoryLock(directory: directory)
            } catch {
                if case .held = error { throw CLIError.usage("\(error)") }
                // An unusable directory must not keep the timer dark: it runs, and the faults are logged.
                log("\(error); running without the lock")
            }
        }
        let session = try HardwareSession(configPath: config) { configuration in
            let parent = (configuration.history.path as NSString).deletingLastPathComponent
            directory = parent.isEmpty ? "." : parent
            if FileManager.default.fileExists(atPath: directory) { try takeLock() }
        }
        defer { withExtendedLifetime(lock) {} }
        let (configuration, signals, hardware) = (session.configuration, session.signals, session.hardware)
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
        let fleet = try RunFleet(configuration, origin: origin, log: log)
        let runtime = KioskRuntime(
            kiosk: store.restore(stored, settings: configuration.kiosk), clock: clock, origin: origin,
            devices: hardware.devices(wakeups: [signals] + fleet.wakeups, sound: sound),
            history: fleet.history(history), timing: timing, faults: faults, extraDrivers: extra + fleet.drivers, store: store,
            held: stored?.held ?? [:])
        fleet.attach(runtime)
        log("running: \(hardware.displayDescription), GPIO on \(hardware.chip.path) (libgpiod \(gpiodLibraryVersion))\(stored == nil ? "" : ", resumed")")
        runtime.start()
        var status = runtime.kiosk.statusLine
        systemd.ready(status: status)
        do {
            while !signals.stopRequested {
                try runtime.step()
                fleet.observe(runtime.kiosk)
                if runtime.kiosk.statusLine != status {
                    status = runtime.kiosk.statusLine
                    systemd.status(status)
                }
            }
        } catch {
            throw CLIError.failed("the event loop failed: \(error)")
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
