/// Decodes a rotary encoder's two quadrature lines into detents with a transition table.
///
/// Each valid transition between neighbouring Gray-code states moves a step forward or back;
/// a jump across two states (both lines changed: a missed edge) is rejected and counted. A
/// detent is reported when the lines return to the rest state (both inactive) having moved at
/// least half a cycle in one direction, so contact bounce (forward then back) cancels out and
/// a detent is never lost to one missed edge nor counted twice.
public struct QuadratureDecoder: Sendable {
    /// Line levels as a 2-bit state: A in bit 1, B in bit 0.
    private var state: UInt8 = 0
    private var steps = 0
    /// Transitions rejected because both lines changed at once.
    public private(set) var invalidTransitions = 0

    /// Clockwise is A leading B: 00 → 10 → 11 → 01 → 00.
    private static let clockwiseNext: [UInt8] = [0b10, 0b00, 0b11, 0b01]

    public init(a: Bool = false, b: Bool = false) {
        state = (a ? 2 : 0) | (b ? 1 : 0)
    }

    /// Feeds the current levels of both lines after an edge on either; returns the detents
    /// completed by this change: +1 clockwise, -1 counter-clockwise, or 0.
    public mutating func update(a: Bool, b: Bool) -> Int {
        let next: UInt8 = (a ? 2 : 0) | (b ? 1 : 0)
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
