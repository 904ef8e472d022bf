/// A file descriptor besides the input lines that should wake the event loop (a signal's
/// self-pipe): `GPIOInputWaiter` polls it and calls `drain()` when it is readable.
public protocol PollWakeup: AnyObject {
    var descriptor: Int32 { get }
    /// Reads what made the descriptor readable, so the next poll blocks again.
    func drain()
}
