import GymTimerHAL

/// An opened GPIO chip that hands out requested lines: `LibgpiodChip` on hardware (libgpiod v1
/// or v2 alike), opened by `GPIOChips`; tests may put their own behind it.
///
/// Every line holds its chip open; a line's request is released when the line is released
/// (or `close()`d), and the chip is closed when the last line and the chip object are gone.
public protocol GPIOChip: AnyObject {
    /// The chip's device node (`/dev/gpiochip0`), for messages.
    var path: String { get }
    /// Requests `line` as an input reporting both edges, with `bias` and the kernel inverting
    /// the level when `activeLow`.
    func input(_ line: GPIOLineID, role: String, activeLow: Bool, bias: GPIOBias) throws(HALError) -> any GPIOEventInput
    /// Requests `line` as a push-pull output starting at logical level `initial`.
    func output(_ line: GPIOLineID, role: String, activeLow: Bool, initial: Bool) throws(HALError) -> any GPIOOutput
    /// Requests `line` as an open-drain output, released (high), whose level can be read back.
    func openDrain(_ line: GPIOLineID, role: String) throws(HALError) -> any GPIOOpenDrain
}

/// A requested GPIO line, with where it is for messages.
public protocol GPIOLine: AnyObject {
    /// The role it was requested for.
    var name: String { get }
    /// Where it is wired, e.g. `GPIO17 (gpiochip0 line 17)`.
    var location: String { get }
    /// Gives the line back to the kernel; later reads and writes fail. Idempotent.
    func release()
}

/// An input line whose edges arrive on a file descriptor the event loop polls.
public protocol GPIOEventInput: DigitalInput, GPIOLine {
    /// Readable (POLLIN) when edge events are pending.
    var eventDescriptor: Int32 { get }
    /// Reads the pending events without blocking beyond what poll(2) promised.
    func readEvents() throws(HALError) -> [GPIOEvent]
}

/// An output line (buzzer, LED).
public protocol GPIOOutput: DigitalOutput, GPIOLine {}

/// An open-drain line for a bit-banged bus.
public protocol GPIOOpenDrain: OpenDrainLine, GPIOLine {}
