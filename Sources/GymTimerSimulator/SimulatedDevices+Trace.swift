import GymTimerCore
import GymTimerSimulation

extension SimulatedDevices {
    /// Reports every simulated output to `trace`: their state now (the `t` 0 records, in the
    /// order simulation.md lists them), then each change as it happens.
    func report(to trace: TraceRecorder) {
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
