import Testing
@testable import GymTimerCore

@Suite struct CountdownTests {
    @Test func roundsRemainingTimeUp() {
        let countdown = Countdown(from: .origin, lasting: .seconds(90))
        #expect(countdown.displayedSeconds(at: .origin) == 90)
        #expect(countdown.displayedSeconds(at: Moment(.milliseconds(1))) == 90)
        #expect(countdown.displayedSeconds(at: Moment(.seconds(1))) == 89)
        #expect(countdown.displayedSeconds(at: Moment(.milliseconds(89_999))) == 1)
        #expect(countdown.displayedSeconds(at: Moment(.seconds(90))) == 0)
        #expect(countdown.displayedSeconds(at: Moment(.seconds(200))) == 0)
    }

    @Test func nextBoundaryIsWholeSecondsBeforeTheDeadline() {
        let countdown = Countdown(from: Moment(.milliseconds(10)), lasting: .seconds(3))
        #expect(countdown.nextSecondBoundary(after: Moment(.milliseconds(10))) == Moment(.milliseconds(1010)))
        #expect(countdown.nextSecondBoundary(after: Moment(.milliseconds(1010))) == Moment(.milliseconds(2010)))
        #expect(countdown.nextSecondBoundary(after: Moment(.milliseconds(2500))) == Moment(.milliseconds(3010)))
        #expect(countdown.nextSecondBoundary(after: Moment(.milliseconds(3010))) == nil)
    }
}

/// Moment arithmetic saturates: a hostile value from outside cannot trap the kiosk.
@Suite struct MomentSaturationTests {
    @Test func farMomentsAndDurationsSaturate() {
        let far = Moment(nanoseconds: .max - 5)
        #expect((far + .seconds(10)).nanoseconds == .max)
        #expect((Moment(nanoseconds: .min + 5) - .seconds(10)).nanoseconds == .min)
        #expect((Moment(nanoseconds: .max) - Moment(nanoseconds: .min)).nanoseconds == .max)
        #expect(Duration.seconds(1e10 * 1e9).nanoseconds == .max)
        #expect((Moment.origin + .seconds(1e10)).nanoseconds == .max, "1e10 s crashed Moment before")
    }
}
