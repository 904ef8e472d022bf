import GymTimerConfig
import GymTimerCore
import GymTimerDrivers
import GymTimerHAL
import GymTimerSimulation

/// `gymtimer simulate` without a script: the same event loop, core and drivers as the kiosk,
/// on the simulated devices, in real time, with keys for hands and the terminal for a front
/// panel. The loop blocks in `TerminalInputs.wait`; the screen is redrawn after a wake-up
/// only where an output changed.
public final class TerminalSimulation {
    public let devices: SimulatedDevices
    public let inputs: TerminalInputs
    public let screen: KioskScreen
    public let history = InMemoryHistory()
    private let clock = ContinuousClock()
    private let origin: ContinuousClock.Instant
    private let settings: KioskSettings
    private let faults: FaultLog
    private let write: (String) -> Void

    /// Reads keys from `fd` (a terminal in raw mode); `write` receives the screen updates.
    public init(
        settings: KioskSettings, display: DisplayHardware.Kind = .none, fd: Int32 = 0, colour: Bool = true,
        write: @escaping (String) -> Void
    ) {
        devices = SimulatedDevices(display: display)
        self.settings = settings
        self.write = write
        let clock = self.clock
        let origin = clock.now
        self.origin = origin
        inputs = TerminalInputs(
            fd: fd, start: ControlButton.start.rawValue, dismiss: ControlButton.dismiss.rawValue,
            now: { origin.duration(to: clock.now) })
        let screen = KioskScreen(colour: colour)
        self.screen = screen
        // A fault would scroll the panel away on stderr; it goes to the status line instead.
        faults = FaultLog(sink: { screen.status = $0 })
        observeOutputs()
    }

    /// Runs until `q`, Ctrl-C or the end of input.
    public func run() throws(HALError) {
        let runtime = KioskRuntime(
            kiosk: Kiosk(settings: settings), clock: clock, origin: origin,
            devices: devices.kioskDevices(inputs: inputs), history: history, faults: faults)
        runtime.start()
        draw(runtime.kiosk)
        while !inputs.quitRequested {
            try runtime.step()
            draw(runtime.kiosk)
        }
    }

    /// Every output change updates the screen's model; `draw` shows it.
    private func observeOutputs() {
        let screen = self.screen
        screen.frame = devices.display.frame
        devices.display.onFrame = { screen.frame = $0 }
        screen.buzzer = devices.buzzer.level
        devices.buzzer.onChange = { screen.buzzer = $0 }
        for (led, line) in devices.leds {
            screen.leds[led] = line.level
            line.onChange = { screen.leds[led] = $0 }
        }
        screen.sound = devices.sound.playing?.name
        devices.sound.onChange = { screen.sound = $0 }
    }

    private var recordsShown = 0

    /// Writes what changed since the last draw, if anything.
    private func draw(_ kiosk: Kiosk) {
        screen.mode = kiosk.statusLine
        if history.records.count != recordsShown, let last = history.records.last {
            recordsShown = history.records.count
            let what = last.score.map { "program \(last.preset ?? ""), \($0)" }
                ?? "\(last.kind.rawValue) workout, \(last.sets) set\(last.sets == 1 ? "" : "s")"
            screen.status = "recorded: \(what) (\(recordsShown) this session)"
        }
        let update = screen.update()
        if !update.isEmpty { write(update) }
    }
}
