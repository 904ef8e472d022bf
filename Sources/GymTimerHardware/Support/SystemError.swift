import Glibc
import GymTimerHAL

/// The one place an `errno` from a system call becomes a `HALError`, so every backend (i2c-dev,
/// spidev, libgpiod, ALSA) reports a missing or forbidden device the same way, with what to do.
extension HALError {
    /// Maps `code`: ENOENT → `.noSuchDevice` with `hint`, EACCES/EPERM → `.permissionDenied`
    /// naming `group`, anything else → `.io` naming `operation`.
    public static func fromErrno(
        _ code: Int32, device: String, operation: String, group: String, hint: String
    ) -> HALError {
        switch code {
        case ENOENT: return .noSuchDevice(device: device, hint: hint)
        case EACCES, EPERM: return .permissionDenied(device: device, group: group)
        default: return .io(device: device, operation: operation, errno: code)
        }
    }

    /// `fromErrno` with the group and hint of a kind of device node.
    public static func fromErrno(
        _ code: Int32, device: String, operation: String, interface: DeviceInterface
    ) -> HALError {
        fromErrno(code, device: device, operation: operation, group: interface.group, hint: interface.missingHint)
    }

    /// `fromErrno` for the calling thread's current `errno`, right after a failed call.
    public static func lastError(device: String, operation: String, interface: DeviceInterface) -> HALError {
        fromErrno(errno, device: device, operation: operation, interface: interface)
    }
}
