import ArgumentParser
import GymTimerHAL
import GymTimerHardware
import GymTimerRuntime

/// `gymtimer selftest`: the wiring check after soldering (see `SelfTest`), on the devices the
/// config names, with the same start-up errors as `run`. Ctrl-C ends it with every output off.
struct Selftest: ParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "selftest",
        abstract: "Check the wiring: light the display, each LED and the buzzer, then print every button and knob action.")

    @Option(name: .long, help: "Config file (TOML; default /etc/gymtimer/config.toml, else the built-in defaults).")
    var config: String?

    func run() throws {
        let session = try HardwareSession(configPath: config)
        let (configuration, signals, hardware) = (session.configuration, session.signals, session.hardware)
        defer { hardware.shutDown() }

        let output = StandardOutput()
        output.writeLine("self-test: \(hardware.displayDescription), GPIO on \(hardware.chip.path)")
        var buttons: [SelfTest<ContinuousClock>.Button] = [
            .init(line: "start", label: "start (\(hardware.location(of: "start")))"),
            .init(line: "dismiss", label: "dismiss (\(hardware.location(of: "dismiss")))"),
        ]
        if hardware.buttons[HardwareKiosk.encoderSwitch] != nil {
            let line = HardwareKiosk.encoderSwitch
            buttons.append(.init(line: line, label: "knob switch (\(hardware.location(of: line)))"))
        }
        let selfTest = SelfTest(
            clock: ContinuousClock(), waiter: GPIOInputWaiter(inputs: hardware.inputs, wakeups: [signals]),
            display: hardware.display, leds: hardware.leds.map(\.output), buzzer: hardware.buzzer,
            buttons: buttons, encoder: (hardware.encoder.a, hardware.encoder.b),
            timing: InputTiming(
                settle: .milliseconds(configuration.hardware.debounceMs),
                hold: .milliseconds(configuration.hardware.holdMs)),
            print: { line in
                output.writeLine(line)
                output.flush()
            })
        do {
            try selfTest.run(shouldStop: { signals.stopRequested })
        } catch {
            throw CLIError.failed("waiting for input failed: \(error)")
        }
        selfTest.allOff()
        output.writeLine("self-test ended")
        output.flush()
    }
}
