import GymTimerCore
import Testing
@testable import GymTimerDrivers

@Suite struct BuzzerFallbackTests {
    /// Without a speaker every program call is still given, each with a rhythm of its own;
    /// `complete` and `time-cap` need none: the core pairs them with its long beep.
    @Test func everyProgramCallHasItsOwnRhythm() {
        let calls: [Sound] = [.go, .work, .rest, .round(2), .halfway, .lastMinute, .personalRecord]
        let patterns = calls.map(BuzzerFallback.pattern(for:))
        #expect(patterns.allSatisfy { $0 != nil && $0?.loops == false })
        #expect(Set(patterns.compactMap { $0 }).count == calls.count, "no two calls sound alike")
        #expect(!patterns.contains(BuzzerFallback.pattern(for: .warning)), "none is mistaken for the warning")
        #expect(BuzzerFallback.pattern(for: .round(2)) == BuzzerFallback.pattern(for: .round(17)))
        #expect(BuzzerFallback.pattern(for: .timeCap) == nil)
        #expect(BuzzerFallback.pattern(for: .complete) == nil)
    }
}
