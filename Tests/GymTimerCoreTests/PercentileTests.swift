import GymTimerCore
import Testing

@Suite struct PercentileTests {
    @Test func nearestRankIsTheSmallestSampleCoveringThePercent() {
        let hundred = Array(1...100)
        #expect(Percentile.nearestRank(99, of: hundred) == 99)
        #expect(Percentile.nearestRank(50, of: hundred) == 50)
        #expect(Percentile.nearestRank(100, of: hundred) == 100)
        // Ten samples: 99 % of them is 9.9, so the tenth (the maximum) is the first to cover it.
        #expect(Percentile.nearestRank(99, of: Array(1...10)) == 10)
        #expect(Percentile.nearestRank(0, of: [3, 4]) == 3)
        #expect(Percentile.nearestRank(99, of: [Int]()) == nil)
    }
}
