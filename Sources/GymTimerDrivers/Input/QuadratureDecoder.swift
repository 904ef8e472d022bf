/// Decodes a rotary encoder's two quadrature contacts into detents with a transition table.
///
/// It is fed the edges of either contact (`edge(_:active:)`) and keeps both levels itself.
/// Each valid transition between neighbouring Gray-code states moves a step forward or back;
/// a jump across two states (both lines changed: a missed edge) is rejected and counted. A
/// detent is reported when the lines return to the rest state (both inactive) having moved at
/// least half a cycle in one direction, so contact bounce (forward then back) cancels out and
/// a detent is never lost to one missed edge nor counted twice.
public struct QuadratureDecoder: Sendable {
    /// One of the encoder's two contacts.
    public enum Contact: Hashable, Sendable { case a, b }

    /// Line levels as a 2-bit state: A in bit 1, B in bit 0.
    private var state: UInt8 = 0
    private var steps = 0
    /// Transitions rejected because both lines changed at once.
    public private(set) var invalidTransitions = 0

    /// Clockwise is A leading B: 00 → 10 → 11 → 01 → 00.
    private static let clockwiseNext: [UInt8] = [0b10, 0b00, 0b11, 0b01]

    /// `a` and `b`: the contacts' levels at rest when decoding starts (read from the lines).
    public init(a: Bool = false, b: Bool = false) {
        state = (a ? 2 : 0) | (b ? 1 : 0)
    }

    /// Feeds one edge: `contact`'s new level. Returns the detents this change completed: +1
    /// clockwise, -1 counter-clockwise, or 0.
    public mutating func edge(_ contact: Contact, active: Bool) -> Int {
        let bit: UInt8 = contact == .a ? 2 : 1
        return update(to: active ? state | bit : state & ~bit)
    }

    /// Moves to both lines' levels at once (tests feed missed edges this way).
    mutating func update(a: Bool, b: Bool) -> Int {
        update(to: (a ? 2 : 0) | (b ? 1 : 0))
    }

    private mutating func update(to next: UInt8) -> Int {
        guard next != state else { return 0 }
        if Self.clockwiseNext[Int(state)] == next {
            steps += 1
        } else if Self.clockwiseNext[Int(next)] == state {
            steps -= 1
        } else {
            invalidTransitions += 1
        }
        state = next
        guard state == 0 else { return 0 }
        defer { steps = 0 }
        if steps >= 2 { return 1 }
        if steps <= -2 { return -1 }
        return 0
    }
}
