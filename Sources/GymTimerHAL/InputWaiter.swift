/// The one place the event loop blocks: until an input edge is pending or the timeout the
/// core asked for has elapsed. On hardware this is `poll(2)` on the lines' event descriptors;
/// in simulation it advances a virtual clock to the next scripted edge or the timeout.
public protocol InputWaiter: AnyObject {
    /// Blocks until at least one edge is pending or `timeout` elapses (nil: wait for input
    /// only; zero: do not block). Returns the pending edges in the order they happened, or
    /// none when the timeout elapsed. Throws when waiting itself fails.
    func wait(timeout: Duration?) throws(HALError) -> [InputEdge]
}
