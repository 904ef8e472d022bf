/// The `[hardware.buzzer]` table: how the buzzer is driven.
public enum BuzzerHardware: Hashable, Sendable, Codable {
    /// A buzzer with its own oscillator, switched on and off through `hardware.lines.buzzer`.
    case active
    /// A passive piezo driven by a PWM channel (`/sys/class/pwm/pwmchip<chip>/pwm<channel>`) at `frequencyHz`.
    case pwm(chip: Int, channel: Int, frequencyHz: Int)
}
