import GymTimerHAL

/// An input waiter that drives simulated lines (the script's or the terminal's), so the
/// runtime's devices can be wired the same way whichever one feeds them.
public protocol SimulatedInputs: InputWaiter {
    /// The input lines by name: the buttons, `encoder-a` and `encoder-b`.
    var lines: [String: SimulatedLine] { get }
}
