#if !GYMTIMER_GPIOD_V2
import CGPIOD
import Glibc
import GymTimerHAL

/// A GPIO chip through libgpiod v1 (Debian 12, Raspberry Pi OS bookworm). Lines are looked up
/// by name in the chip's own line names (`GPIOLineLookup`), requested one by one with the
/// consumer `gymtimer`, and released by their `GPIOLineV1` handles; the chip is closed (which
/// would also release anything left) when the last handle and this object are gone.
final class GPIOChipV1: GPIOChip {
    /// The consumer name other programs see in `gpioinfo` and in our "line busy" errors.
    static let consumer = "gymtimer"

    let path: String
    /// The chip handle; owned, closed in deinit.
    let handle: OpaquePointer
    /// Line names by offset (nil: unnamed), read once at open.
    let lineNames: [String?]

    /// Opens the chip at `path`. ENOENT → `.noSuchDevice` (check the chip name), EACCES →
    /// `.permissionDenied` (join the `gpio` group), other errors → `.io`.
    init(path: String) throws(HALError) {
        self.path = path
        guard let chip = gpiod_chip_open(path) else {
            var code = errno
            // A path that exists but is no GPIO chip fails the chip-info ioctl.
            if code == ENOTTY || code == EINVAL { code = ENODEV }
            throw .lastError(code, device: path, operation: "open GPIO chip")
        }
        handle = chip
        let count = gpiod_chip_num_lines(chip)
        lineNames = (0..<count).map { offset in
            gpiod_chip_get_line(chip, offset).flatMap { gpiod_line_name($0) }.map { String(cString: $0) }
        }
    }

    deinit { gpiod_chip_close(handle) }

    func input(_ line: GPIOLineID, role: String, activeLow: Bool, bias: GPIOBias) throws(HALError) -> any GPIOEventInput {
        var flags = activeLow ? Int32(GPIOD_LINE_REQUEST_FLAG_ACTIVE_LOW) : 0
        switch bias {
        case .pullUp: flags |= Int32(GPIOD_LINE_REQUEST_FLAG_BIAS_PULL_UP)
        case .pullDown: flags |= Int32(GPIOD_LINE_REQUEST_FLAG_BIAS_PULL_DOWN)
        case .disabled: flags |= Int32(GPIOD_LINE_REQUEST_FLAG_BIAS_DISABLE)
        }
        return try request(line, role: role, type: Int32(GPIOD_LINE_REQUEST_EVENT_BOTH_EDGES),
                           flags: flags, initial: 0, what: "input with edge events")
    }

    func output(_ line: GPIOLineID, role: String, activeLow: Bool, initial: Bool) throws(HALError) -> any GPIOOutput {
        let flags = activeLow ? Int32(GPIOD_LINE_REQUEST_FLAG_ACTIVE_LOW) : 0
        return try request(line, role: role, type: Int32(GPIOD_LINE_REQUEST_DIRECTION_OUTPUT),
                           flags: flags, initial: initial ? 1 : 0, what: "output")
    }

    /// Requested as an open-drain output, released. Reading it back returns the wire's level on
    /// a Raspberry Pi: the BCM GPIO block has no open-drain mode, so gpiolib emulates it by
    /// switching the pin to input whenever it is released (drivers/gpio/gpiolib.c,
    /// gpio_set_open_drain_value_commit) and the chip's `get` reads the pin level register
    /// (GPLEV), whatever the direction. So the TM1637's ACK (the chip pulling DIO low while it
    /// is released) is seen without re-requesting the line as an input.
    func openDrain(_ line: GPIOLineID, role: String) throws(HALError) -> any GPIOOpenDrain {
        try request(line, role: role, type: Int32(GPIOD_LINE_REQUEST_DIRECTION_OUTPUT),
                    flags: Int32(GPIOD_LINE_REQUEST_FLAG_OPEN_DRAIN), initial: 1, what: "open-drain output")
    }

    private func request(
        _ id: GPIOLineID, role: String, type: Int32, flags: Int32, initial: Int32, what: String
    ) throws(HALError) -> GPIOLineV1 {
        let offset = try GPIOLineLookup.offset(of: id, in: lineNames, chip: path)
        guard let line = gpiod_chip_get_line(handle, UInt32(offset)) else {
            throw .lastError(errno, device: path, operation: "get line \(offset)")
        }
        let location = GPIOLineV1.location(name: lineNames[offset], chip: path, offset: offset)
        let result = Self.consumer.withCString { consumer in
            var config = gpiod_line_request_config(consumer: consumer, request_type: type, flags: flags)
            return gpiod_line_request(line, &config, initial)
        }
        guard result == 0 else {
            let code = errno
            if code == EBUSY {
                _ = gpiod_line_update(line)
                let holder = gpiod_line_consumer(line).map { String(cString: $0) }
                throw .lineBusy(line: id.description, chip: path, consumer: holder)
            }
            throw .lastError(code, device: path, operation: "request \(location) as \(what)")
        }
        return GPIOLineV1(chip: self, line: line, name: role, location: location)
    }
}

extension HALError {
    /// `fromErrno` for a GPIO chip: its hint and the `gpio` group.
    static func lastError(_ code: Int32, device: String, operation: String) -> HALError {
        fromErrno(code, device: device, operation: operation, interface: .gpio)
    }
}
#endif
