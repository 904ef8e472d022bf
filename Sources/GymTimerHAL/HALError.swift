import SystemPackage

/// Why a device operation failed, with what to do about it. Every backend maps its OS errors
/// here, so the kiosk can print one clear line at start-up or log one fault at run time.
public enum HALError: Error, Hashable, Sendable, CustomStringConvertible {
    /// The chip, bus or device node does not exist. `hint` says how to make it appear.
    case noSuchDevice(device: String, hint: String)
    /// No line of that name (or offset) on the chip.
    case noSuchLine(line: String, chip: String)
    /// Another process holds the line; `consumer` is who, as the kernel reports it.
    case lineBusy(line: String, chip: String, consumer: String?)
    /// The device exists but this user may not open it; `group` is the group to join.
    case permissionDenied(device: String, group: String)
    /// A system call failed with `errno`.
    case io(device: String, operation: String, errno: Int32)
    /// A bit-banged or bus peripheral did not acknowledge a byte.
    case noAcknowledge(device: String, byte: UInt8)
    /// The device cannot do what was asked.
    case unsupported(device: String, detail: String)

    public var description: String {
        switch self {
        case .noSuchDevice(let device, let hint):
            return "\(device) does not exist: \(hint)"
        case .noSuchLine(let line, let chip):
            return "no GPIO line '\(line)' on \(chip): check the line name in [hardware] (gpioinfo lists them)"
        case .lineBusy(let line, let chip, let consumer):
            let who = consumer.map { " by '\($0)'" } ?? ""
            return "GPIO line '\(line)' on \(chip) is already in use\(who): stop that program or pick another line"
        case .permissionDenied(let device, let group):
            return "permission denied opening \(device): add the user to the '\(group)' group (sudo usermod -aG \(group) $USER) and log in again"
        case .io(let device, let operation, let errno):
            return "\(operation) on \(device) failed: \(Errno(rawValue: errno).textWithName)"
        case .noAcknowledge(let device, let byte):
            return "\(device) did not acknowledge byte 0x\(String(byte, radix: 16)): check its wiring and power"
        case .unsupported(let device, let detail):
            return "\(device): \(detail)"
        }
    }
}
