import Testing
@testable import GymTimerDrivers

@Suite struct QuadratureDecoderTests {
    /// One clockwise detent from rest: A rises, B rises, A falls, B falls.
    static let clockwise: [(Bool, Bool)] = [(true, false), (true, true), (false, true), (false, false)]
    static let counterClockwise: [(Bool, Bool)] = [(false, true), (true, true), (true, false), (false, false)]

    func feed(_ states: [(Bool, Bool)], into decoder: inout QuadratureDecoder) -> [Int] {
        states.map { decoder.update(a: $0.0, b: $0.1) }.filter { $0 != 0 }
    }

    @Test func oneDetentEachWay() {
        var decoder = QuadratureDecoder()
        #expect(feed(Self.clockwise, into: &decoder) == [1])
        #expect(feed(Self.counterClockwise, into: &decoder) == [-1])
    }

    @Test func edgesOfEitherContactAreEnough() {
        var decoder = QuadratureDecoder()
        let clockwise: [(QuadratureDecoder.Contact, Bool)] = [(.a, true), (.b, true), (.a, false), (.b, false)]
        let counter: [(QuadratureDecoder.Contact, Bool)] = [(.b, true), (.a, true), (.b, false), (.a, false)]
        #expect((clockwise + counter).map { decoder.edge($0.0, active: $0.1) } == [0, 0, 0, 1, 0, 0, 0, -1])
        // An edge repeating its contact's level (the one between was missed) moves nothing.
        #expect(decoder.edge(.a, active: false) == 0 && decoder.invalidTransitions == 0)
    }

    @Test func manyFastDetentsAreNeitherLostNorDoubled() {
        var decoder = QuadratureDecoder()
        let states = Array(repeating: Self.clockwise, count: 500).flatMap { $0 }
        #expect(feed(states, into: &decoder) == Array(repeating: 1, count: 500))
    }

    @Test func contactBounceCancelsOut() {
        var decoder = QuadratureDecoder()
        // A chatters at the start of the detent, B chatters in the middle.
        let bouncy: [(Bool, Bool)] = [(true, false), (false, false), (true, false), (true, true), (true, false),
                                      (true, true), (false, true), (false, false)]
        #expect(feed(bouncy, into: &decoder) == [1])
        #expect(decoder.invalidTransitions == 0)
    }

    @Test func aJumpAcrossTwoStatesIsRejectedButTheDetentSurvives() {
        var decoder = QuadratureDecoder()
        // The (true, true) step was missed: 10 → 01 changes both lines at once. The jump is
        // rejected, but half the cycle went clockwise, so the detent is not lost.
        #expect(feed([(true, false), (false, true), (false, false)], into: &decoder) == [1])
        #expect(decoder.invalidTransitions == 1)
        #expect(feed([(true, false), (true, true), (false, false)], into: &decoder) == [1])
        #expect(decoder.invalidTransitions == 2)
        #expect(feed(Self.clockwise, into: &decoder) == [1])
    }

    @Test func noiseWithoutProgressIsNoDetent() {
        var decoder = QuadratureDecoder()
        // A single glitch straight across the cycle and back moves nothing.
        #expect(feed([(true, true), (false, false)], into: &decoder) == [])
        #expect(decoder.invalidTransitions == 2)
    }

    @Test func aHalfTurnAndBackIsNothing() {
        var decoder = QuadratureDecoder()
        #expect(feed([(true, false), (true, true), (true, false), (false, false)], into: &decoder) == [])
    }
}
