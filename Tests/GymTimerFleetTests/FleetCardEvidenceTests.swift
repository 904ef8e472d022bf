import Foundation
import GymTimerCore
import GymTimerFleet
import GymTimerTestSupport
import Testing

/// The collector's evidence that a card was on a station: an ask vouches for a run from
/// `lead` before its start to `lag` after its end, on that station only; every side is bounded.
@Suite struct FleetCardEvidenceTests {
    static let anna = TestCardKey.card("04A1B2C3")
    static let start = Date(timeIntervalSince1970: 1_767_700_000)

    @Test func anAskVouchesForTheRunsAroundItOnItsStationOnly() {
        var evidence = FleetCardEvidence()
        evidence.heard(FleetCardAsk(card: Self.anna, at: Int64(Self.start.timeIntervalSince1970)), from: "rack-1")
        let end = Self.start.addingTimeInterval(600)
        #expect(evidence.vouches(for: Self.anna, on: "rack-1", from: Self.start, to: end))
        #expect(!evidence.vouches(for: Self.anna, on: "rack-2", from: Self.start, to: end), "another station's ask is not this one's")
        #expect(!evidence.vouches(for: TestCardKey.card("0A0B0C0D"), on: "rack-1", from: Self.start, to: end))
        // Tapped on 11 h 59 min before a run: it vouches; 12 h 1 min: not.
        let later = Self.start.addingTimeInterval(FleetCardEvidence.lead - 60)
        #expect(evidence.vouches(for: Self.anna, on: "rack-1", from: later, to: later.addingTimeInterval(60)))
        let tooLate = Self.start.addingTimeInterval(FleetCardEvidence.lead + 60)
        #expect(!evidence.vouches(for: Self.anna, on: "rack-1", from: tooLate, to: tooLate.addingTimeInterval(60)))
        // An ask after the run's end (beyond the lag) vouches for no run before it.
        let earlier = Self.start.addingTimeInterval(-FleetCardEvidence.lag - 600)
        #expect(!evidence.vouches(for: Self.anna, on: "rack-1", from: earlier, to: earlier.addingTimeInterval(599)))
        #expect(evidence.stations(asking: Self.anna) == ["rack-1"])
        evidence.forget(Self.anna)
        #expect(evidence.stations(asking: Self.anna).isEmpty && !evidence.vouches(for: Self.anna, on: "rack-1", from: Self.start, to: end))
    }

    @Test func aFloodOfAsksStaysBounded() {
        var evidence = FleetCardEvidence()
        // One station asking for far more cards than it may keep, each many times.
        for n in 0..<(FleetCardEvidence.maximumCardsPerStation + 50) {
            let card = CardID(bytes: Array(repeating: UInt8(n % 256), count: 11) + [UInt8(n / 256)])!
            for t in 0..<3 { evidence.heard(FleetCardAsk(card: card, at: Int64(n * 10 + t)), from: "rack-1") }
        }
        #expect(evidence.askers.count == FleetCardEvidence.maximumCardsPerStation)
        // One card asked for at more times than are kept: the newest stay.
        for t in 0..<(FleetCardEvidence.maximumAsksPerCard + 10) {
            evidence.heard(FleetCardAsk(card: Self.anna, at: 1_767_700_000 + Int64(t) * 100_000), from: "rack-2")
        }
        let first = Date(timeIntervalSince1970: 1_767_700_000)
        #expect(!evidence.vouches(for: Self.anna, on: "rack-2", from: first, to: first), "the oldest ask is dropped")
        let last = Date(timeIntervalSince1970: 1_767_700_000 + Double(FleetCardEvidence.maximumAsksPerCard + 9) * 100_000)
        #expect(evidence.vouches(for: Self.anna, on: "rack-2", from: last, to: last))
        evidence.told(7, of: Self.anna, to: "rack-2")
        #expect(evidence.lastTold(Self.anna, to: "rack-2") == 7)
        evidence.told(8, of: Self.anna, to: "rack-9")
        #expect(evidence.lastTold(Self.anna, to: "rack-9") == nil, "what a station is told is kept only beside its ask")
        // More stations than are kept: the one heard from longest ago goes, with what it was told.
        for n in 0..<FleetCardEvidence.maximumStations { evidence.heard(FleetCardAsk(card: Self.anna, at: 1), from: "s-\(n)") }
        #expect(evidence.stations(asking: Self.anna).count == FleetCardEvidence.maximumStations)
        #expect(!evidence.stations(asking: Self.anna).contains("rack-2") && evidence.lastTold(Self.anna, to: "rack-2") == nil)
    }
}
