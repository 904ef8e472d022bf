import CGPIODShim
import Glibc
import GymTimerHAL

/// A GPIO chip through libgpiod, v1 or v2 alike: every call goes through the C seam in
/// Sources/CGPIODShim, which the build compiles against whichever libgpiod it found. Lines are
/// looked up by name in the chip's own line names (`GPIOLineLookup`), requested one by one with
/// the consumer `gymtimer`, and released by their `LibgpiodLine` handles; the chip is closed
/// when the last handle and this object are gone.
final class LibgpiodChip: GPIOChip {
    /// The consumer name other programs see in `gpioinfo` and in our "line busy" errors.
    static let consumer = "gymtimer"

    let path: String
    /// The chip handle; owned, closed in deinit (after every line, which keeps the chip alive).
    let handle: OpaquePointer
    /// Line names by offset (nil: unnamed), read once at open.
    let lineNames: [String?]

    /// Opens the chip at `path`. ENOENT → `.noSuchDevice` (check the chip name), EACCES →
    /// `.permissionDenied` (join the `gpio` group), a file that is no GPIO chip or any other
    /// error → `.io`.
    init(path: String) throws(HALError) {
        self.path = path
        guard let chip = gymtimer_gpio_chip_open(path) else {
            // ENODEV for a path that is no GPIO chip, whichever libgpiod said it how.
            throw .lastError(errno, device: path, operation: "open GPIO chip")
        }
        handle = chip
        let count = gymtimer_gpio_chip_num_lines(chip)
        lineNames = (0..<count).map { offset in Self.text { gymtimer_gpio_line_name(chip, offset, $0, $1) } }
    }

    deinit { gymtimer_gpio_chip_close(handle) }

    func input(_ line: GPIOLineID, role: String, activeLow: Bool, bias: GPIOBias) throws(HALError) -> any GPIOEventInput {
        let kind: gymtimer_gpio_bias
        switch bias {
        case .pullUp: kind = GYMTIMER_GPIO_BIAS_PULL_UP
        case .pullDown: kind = GYMTIMER_GPIO_BIAS_PULL_DOWN
        case .disabled: kind = GYMTIMER_GPIO_BIAS_DISABLED
        }
        return try request(line, role: role, mode: GYMTIMER_GPIO_INPUT_EDGES, bias: kind, activeLow: activeLow,
                           initial: false, what: "input with edge events")
    }

    func output(_ line: GPIOLineID, role: String, activeLow: Bool, initial: Bool) throws(HALError) -> any GPIOOutput {
        try request(line, role: role, mode: GYMTIMER_GPIO_OUTPUT, bias: GYMTIMER_GPIO_BIAS_AS_IS, activeLow: activeLow,
                    initial: initial, what: "output")
    }

    /// Requested as an open-drain output, released. Reading it back returns the wire's level on
    /// a Raspberry Pi: the BCM GPIO block has no open-drain mode, so gpiolib emulates it by
    /// switching the pin to input whenever it is released (drivers/gpio/gpiolib.c,
    /// gpio_set_open_drain_value_commit) and the chip's `get` reads the pin level register
    /// (GPLEV), whatever the direction. So the TM1637's ACK (the chip pulling DIO low while it
    /// is released) is seen without re-requesting the line as an input.
    func openDrain(_ line: GPIOLineID, role: String) throws(HALError) -> any GPIOOpenDrain {
        try request(line, role: role, mode: GYMTIMER_GPIO_OPEN_DRAIN, bias: GYMTIMER_GPIO_BIAS_AS_IS, activeLow: false,
                    initial: true, what: "open-drain output")
    }

    private func request(
        _ id: GPIOLineID, role: String, mode: gymtimer_gpio_mode, bias: gymtimer_gpio_bias, activeLow: Bool,
        initial: Bool, what: String
    ) throws(HALError) -> LibgpiodLine {
        let offset = try GPIOLineLookup.offset(of: id, in: lineNames, chip: path)
        let location = LibgpiodLine.location(name: lineNames[offset], chip: path, offset: offset)
        guard let line = gymtimer_gpio_request(handle, UInt32(offset), Self.consumer, mode, bias, activeLow, initial) else {
            let code = errno
            if code == EBUSY {
                let holder = Self.text { gymtimer_gpio_line_consumer(handle, UInt32(offset), $0, $1) }
                throw .lineBusy(line: id.description, chip: path, consumer: holder)
            }
            throw .lastError(code, device: path, operation: "request \(location) as \(what)")
        }
        return LibgpiodLine(chip: self, line: line, name: role, location: location)
    }

    /// The text a shim call copies into a buffer (it returns 1 when there is some), else nil.
    private static func text(_ copy: (UnsafeMutablePointer<CChar>, Int) -> Int32) -> String? {
        var buffer = [CChar](repeating: 0, count: 64)
        let found = buffer.withUnsafeMutableBufferPointer { copy($0.baseAddress!, $0.count) }
        guard found == 1 else { return nil }
        return buffer.withUnsafeBufferPointer { String(cString: $0.baseAddress!) }
    }
}

extension HALError {
    /// `fromErrno` for a GPIO chip: its hint and the `gpio` group.
    static func lastError(_ code: Int32, device: String, operation: String) -> HALError {
        fromErrno(code, device: device, operation: operation, interface: .gpio)
    }
}
