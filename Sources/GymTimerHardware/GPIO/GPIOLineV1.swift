#if !GYMTIMER_GPIOD_V2
import CGPIOD
import Glibc
import GymTimerHAL

/// One line requested through libgpiod v1: an input with edge events, an output or an
/// open-drain line, depending on how `GPIOChipV1` requested it. Keeps its chip open, and
/// releases the request when released or deinitialised.
final class GPIOLineV1: GPIOEventInput, GPIOOutput, GPIOOpenDrain {
    let name: String
    let location: String
    private let chip: GPIOChipV1
    private let line: OpaquePointer
    private var isReleased = false

    init(chip: GPIOChipV1, line: OpaquePointer, name: String, location: String) {
        self.chip = chip
        self.line = line
        self.name = name
        self.location = location
    }

    deinit { release() }

    /// `GPIO17 (/dev/gpiochip0 line 17)`, or without the name for unnamed lines.
    static func location(name: String?, chip: String, offset: Int) -> String {
        let place = "\(chip) line \(offset)"
        return name.map { "\($0) (\(place))" } ?? place
    }

    func release() {
        guard !isReleased else { return }
        isReleased = true
        gpiod_line_release(line)
    }

    func read() throws(HALError) -> Bool {
        try checkRequested("read")
        let value = gpiod_line_get_value(line)
        guard value >= 0 else { throw .lastError(errno, device: location, operation: "read") }
        return value == 1
    }

    func write(_ active: Bool) throws(HALError) {
        try checkRequested("write")
        guard gpiod_line_set_value(line, active ? 1 : 0) == 0 else {
            throw .lastError(errno, device: location, operation: "write")
        }
    }

    var eventDescriptor: Int32 { isReleased ? -1 : gpiod_line_event_get_fd(line) }

    func readEvents() throws(HALError) -> [GPIOEvent] {
        try checkRequested("read events")
        var buffer = [gpiod_line_event](repeating: gpiod_line_event(), count: 16)
        let count = buffer.withUnsafeMutableBufferPointer {
            gpiod_line_event_read_fd_multiple(eventDescriptor, $0.baseAddress, UInt32($0.count))
        }
        guard count >= 0 else { throw .lastError(errno, device: location, operation: "read edge events") }
        return buffer.prefix(Int(count)).map { event in
            GPIOEvent(
                line: name, active: event.event_type == Int32(GPIOD_LINE_EVENT_RISING_EDGE),
                timestamp: .seconds(event.ts.tv_sec) + .nanoseconds(event.ts.tv_nsec))
        }
    }

    private func checkRequested(_ operation: String) throws(HALError) {
        if isReleased { throw .io(device: location, operation: operation + " (line released)", errno: EBADF) }
    }
}
#endif
