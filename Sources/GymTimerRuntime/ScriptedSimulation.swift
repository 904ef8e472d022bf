import GymTimerConfig
import GymTimerCore
import GymTimerDrivers
import GymTimerHAL
import GymTimerSimulation

/// `gymtimer simulate --script`: the whole kiosk — event loop, core, debouncers, decoder and
/// drivers — run against simulated devices in virtual time, writing the JSON Lines trace.
/// The same script and settings always give the same trace, byte for byte.
public final class ScriptedSimulation {
    public let clock = VirtualClock()
    public let inputs: ScriptedInputs
    /// The plain simulated display, or a driver over a simulated chip (see `init`).
    public let display: any SimulatedDisplay
    public let buzzer = SimulatedLine(name: "buzzer")
    public let leds: [StatusLED: SimulatedLine]
    public let sound = SimulatedSoundPlayer()
    public let history = InMemoryHistory()
    private let script: SimulationScript
    private let settings: KioskSettings
    private let trace: TraceRecorder
    private let faults: FaultLog

    /// `write` receives each trace line; `log` each fault line. `display` picks the display
    /// as the config's `hardware.display.type` does: a TM1637, HT16K33 or MAX7219 is its real
    /// driver over the simulated chip (the trace shows what the chip decoded, one record per
    /// complete frame, so it is the same trace); `none` is the plain simulated display.
    public init(
        script: SimulationScript, settings: KioskSettings, display: DisplayHardware.Kind = .none,
        write: @escaping (String) -> Void, log: @escaping (String) -> Void = { _ in }
    ) {
        self.script = script
        self.settings = settings
        self.display = Self.makeDisplay(display)
        inputs = ScriptedInputs(
            clock: clock, buttons: ControlButton.allCases.map(\.rawValue),
            edges: ScriptedInputs.edges(for: script))
        inputs.limit = script.end
        var leds: [StatusLED: SimulatedLine] = [:]
        for led in StatusLED.allCases { leds[led] = SimulatedLine(name: "led-\(led.rawValue)") }
        self.leds = leds
        faults = FaultLog(sink: log)
        let clock = self.clock
        trace = TraceRecorder(now: { clock.now.offset }, write: write)
        wireTrace()
    }

    /// The simulated display for a configured display type.
    static func makeDisplay(_ kind: DisplayHardware.Kind) -> any SimulatedDisplay {
        switch kind {
        case .tm1637: return SimulatedChipDisplay(chip: .tm1637)
        case .ht16k33: return SimulatedChipDisplay(chip: .ht16k33)
        case .max7219: return SimulatedChipDisplay(chip: .max7219)
        case .none: return SimulatedSegmentDisplay()
        }
    }

    /// Runs the script to its end.
    public func run() throws(HALError) {
        let origin = clock.now
        let end = Moment(script.end)
        var runtime = makeRuntime(kiosk: Kiosk(settings: settings), origin: origin)
        runtime.start()
        trace.begin()
        let restarts = script.steps.filter { $0.action == .restart }.map { Moment($0.time) }
        for restartAt in restarts where restartAt < end {
            try runtime.run(until: restartAt)
            // The controller is torn down as if killed and built again; the devices stay.
            runtime = makeRuntime(kiosk: runtime.kiosk, origin: origin)
            runtime.start()
        }
        try runtime.run(until: end)
    }

    private func makeRuntime(kiosk: Kiosk, origin: VirtualClock.Instant) -> KioskRuntime<VirtualClock> {
        let devices = KioskDevices(
            waiter: inputs,
            buttons: Dictionary(uniqueKeysWithValues: ControlButton.allCases.map { ($0.rawValue, $0) }),
            encoder: (inputs.lines[ScriptedInputs.encoderA]!, inputs.lines[ScriptedInputs.encoderB]!),
            display: display, buzzer: buzzer, leds: leds, sound: sound)
        return KioskRuntime(kiosk: kiosk, clock: clock, origin: origin, devices: devices, history: history, faults: faults)
    }

    /// Every simulated output reports to the trace, in the order the `t` 0 records list them.
    private func wireTrace() {
        let trace = self.trace
        let display = self.display
        trace.display(text: display.frame.text, colon: display.frame.colon)
        display.onFrame = { trace.display(text: $0.text, colon: $0.colon) }
        trace.buzzer(on: buzzer.level)
        buzzer.onChange = { trace.buzzer(on: $0) }
        for led in StatusLED.allCases {
            let line = leds[led]!
            trace.led(led.rawValue, on: line.level)
            line.onChange = { trace.led(led.rawValue, on: $0) }
        }
        trace.audio(nil)
        sound.onChange = { trace.audio($0) }
    }
}
