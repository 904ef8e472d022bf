import Glibc
import GymTimerHAL

/// A passive piezo buzzer on a PWM channel through sysfs (`/sys/class/pwm/pwmchipN/pwmM`):
/// set up once at `frequencyHz` with a 50% duty cycle, then switched on and off with `enable`,
/// so it is a `DigitalOutput` like an active buzzer's line and `BuzzerPlayer` drives either.
public final class PWMBuzzerOutput: DigitalOutput {
    public let name: String
    /// The channel's directory, e.g. `/sys/class/pwm/pwmchip0/pwm0`.
    public let channelPath: String
    /// The period written, in nanoseconds.
    public let periodNanoseconds: Int

    /// Exports channel `channel` of `pwmchip<chip>` under `root` if needed, and writes the
    /// period and a 50% duty cycle with the output disabled. A missing chip is `.noSuchDevice`
    /// with the overlay to enable; a forbidden file is `.permissionDenied` (group `gpio`).
    public init(
        chip: Int, channel: Int, frequencyHz: Int, root: String = "/sys/class/pwm", name: String = "buzzer"
    ) throws(HALError) {
        self.name = name
        let chipPath = "\(root)/pwmchip\(chip)"
        channelPath = "\(chipPath)/pwm\(channel)"
        periodNanoseconds = 1_000_000_000 / max(frequencyHz, 1)
        guard Self.exists(chipPath) else { throw .noSuchDevice(device: chipPath, hint: DeviceInterface.pwm.missingHint) }
        if !Self.exists(channelPath) {
            try Self.write("\(channel)", to: "\(chipPath)/export")
            guard Self.exists(channelPath) else {
                throw .noSuchDevice(device: channelPath, hint: "the kernel did not export it: "
                    + DeviceInterface.pwm.missingHint)
            }
        }
        try Self.write("0", to: "\(channelPath)/enable")
        // The duty cycle may never exceed the period, so it goes to 0 before the period changes.
        try Self.write("0", to: "\(channelPath)/duty_cycle")
        try Self.write("\(periodNanoseconds)", to: "\(channelPath)/period")
        try Self.write("\(periodNanoseconds / 2)", to: "\(channelPath)/duty_cycle")
    }

    /// Silences the buzzer (best effort) when the kiosk lets go of it.
    deinit { try? Self.write("0", to: "\(channelPath)/enable") }

    /// `true` starts the tone, `false` stops it.
    public func write(_ active: Bool) throws(HALError) {
        try Self.write(active ? "1" : "0", to: "\(channelPath)/enable")
    }

    private static func exists(_ path: String) -> Bool { access(path, F_OK) == 0 }

    /// Writes `value` and a newline to a sysfs attribute in one write(2), as `echo` does.
    static func write(_ value: String, to path: String) throws(HALError) {
        let fd = SystemCall.retryingInterrupts { open(path, O_WRONLY | O_TRUNC | O_CLOEXEC) }
        guard fd >= 0 else { throw .lastError(device: path, operation: "open", interface: .pwm) }
        defer { close(fd) }
        let bytes = Array((value + "\n").utf8)
        let written = SystemCall.retryingInterrupts {
            bytes.withUnsafeBytes { Glibc.write(fd, $0.baseAddress, $0.count) }
        }
        guard written >= 0 else { throw .lastError(device: path, operation: "write \(value)", interface: .pwm) }
        guard written == bytes.count else { throw .io(device: path, operation: "write \(value)", errno: EIO) }
    }
}
