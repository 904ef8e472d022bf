import GymTimerConfig
import GymTimerHardware
import GymTimerRuntime

/// `gymtimer selftest` once the config is read: the `SelfTest` wiring check on the devices the
/// config names, with the same start-up errors as the kiosk, until SIGTERM or Ctrl-C (then
/// every output is off). `write` gets each line of the report as it happens.
public enum WiringCheck {
    public static func run(
        configuration: GymTimerConfiguration, write: @escaping (String) -> Void, opener: DeviceOpener = .system
    ) throws(KioskStartError) {
        let session = try HardwareSession(configuration: configuration, opener: opener)
        let (signals, hardware) = (session.signals, session.hardware)
        defer { hardware.shutDown() }

        write("self-test: \(hardware.displayDescription), GPIO on \(hardware.chip.path)")
        // A fleet's synchronised starts are only as close as the stations' clocks (fleet.md).
        do {
            write(try ClockSynchronisation.current().report)
        } catch {
            write("clock: cannot read its synchronisation: \(error)")
        }
        if let cards = hardware.cards { write("nfc reader: \(cards.name) (a card held to it prints its UID)") }
        var buttons: [SelfTest<ContinuousClock>.Button] = [
            .init(role: .start, label: "start (\(hardware.location(of: .start)))"),
            .init(role: .dismiss, label: "dismiss (\(hardware.location(of: .dismiss)))"),
        ]
        if hardware.roles[.encoderSwitch] != nil {
            buttons.append(.init(role: .encoderSwitch, label: "knob switch (\(hardware.location(of: .encoderSwitch)))"))
        }
        let selfTest = SelfTest(
            clock: ContinuousClock(), waiter: GPIOInputWaiter(inputs: hardware.inputs, sources: [signals] + (hardware.cards.map { [$0] } ?? [])),
            display: hardware.display, leds: hardware.leds.map(\.output), buzzer: hardware.buzzer,
            buttons: buttons, encoder: (hardware.encoder.a, hardware.encoder.b),
            timing: InputTiming(
                settle: .milliseconds(configuration.hardware.debounceMs),
                hold: .milliseconds(configuration.hardware.holdMs)),
            cards: hardware.cards, print: write)
        do {
            try selfTest.run(shouldStop: { signals.stopRequested })
        } catch {
            throw .failed("waiting for input failed: \(error)")
        }
        selfTest.allOff()
        write("self-test ended")
    }
}
