/// One edge the kernel timestamped on a requested input line.
public struct GPIOEvent: Hashable, Sendable {
    /// The role of the line (`start`, `encoder-a`, …).
    public var line: String
    /// The new logical level (active-low already applied by the kernel).
    public var active: Bool
    /// When it happened on CLOCK_MONOTONIC (libgpiod v1 on kernels since 5.7, and v2's default).
    public var timestamp: Duration

    public init(line: String, active: Bool, timestamp: Duration) {
        self.line = line
        self.active = active
        self.timestamp = timestamp
    }
}
