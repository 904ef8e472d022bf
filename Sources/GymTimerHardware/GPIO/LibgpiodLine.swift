import CGPIODShim
import Glibc
import GymTimerHAL

/// One line requested through libgpiod (v1 or v2, behind the C seam): an input with edge
/// events, an output or an open-drain line, depending on how `LibgpiodChip` requested it.
/// Keeps its chip open, and releases the request when released or deinitialised.
final class LibgpiodLine: GPIOEventInput, GPIOOutput, GPIOOpenDrain {
    let name: String
    let location: String
    private let chip: LibgpiodChip
    /// The shim's line handle, freed on release; nil once released.
    private var line: OpaquePointer?

    init(chip: LibgpiodChip, line: OpaquePointer, name: String, location: String) {
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
        guard let line else { return }
        self.line = nil
        gymtimer_gpio_release(line)
    }

    func read() throws(HALError) -> Bool {
        let line = try requested("read")
        let value = gymtimer_gpio_get(line)
        guard value >= 0 else { throw .lastError(errno, device: location, operation: "read") }
        return value == 1
    }

    func write(_ active: Bool) throws(HALError) {
        let line = try requested("write")
        guard gymtimer_gpio_set(line, active) == 0 else {
            throw .lastError(errno, device: location, operation: "write")
        }
    }

    var eventDescriptor: Int32 { line.map { gymtimer_gpio_event_fd($0) } ?? -1 }

    func readEvents() throws(HALError) -> [GPIOEvent] {
        let line = try requested("read events")
        var buffer = [gymtimer_gpio_event](repeating: gymtimer_gpio_event(), count: 16)
        let count = buffer.withUnsafeMutableBufferPointer {
            gymtimer_gpio_read_events(line, $0.baseAddress, UInt32($0.count))
        }
        guard count >= 0 else { throw .lastError(errno, device: location, operation: "read edge events") }
        return buffer.prefix(Int(count)).map { event in
            GPIOEvent(line: name, active: event.rising, timestamp: .nanoseconds(Int64(clamping: event.timestamp_ns)))
        }
    }

    private func requested(_ operation: String) throws(HALError) -> OpaquePointer {
        guard let line else { throw .io(device: location, operation: operation + " (line released)", errno: EBADF) }
        return line
    }
}
