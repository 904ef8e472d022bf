import Foundation
import Testing
@testable import GymTimerCore

/// The sleep window's arithmetic on the local clock: inside or not, and the next edge, with the
/// zone injected (no test reads the machine's time zone).
@Suite struct SleepWindowTests {
    func window(_ from: String, _ until: String) throws -> SleepWindow {
        try SleepWindow.parse(from: from, until: until).get()
    }

    /// 2026-11-25 00:00 UTC.
    let midnightUTC: Int64 = 1_764_028_800

    @Test func timesAreCheckedAsHHMM() {
        #expect(SleepWindow.minutes("22:00") == 1320)
        #expect(SleepWindow.minutes("00:00") == 0)
        #expect(SleepWindow.minutes("23:59") == 1439)
        for bad in ["24:00", "22:60", "2:00", "22:0", "22-00", "", "２２:00", "-1:00", "22:00 "] {
            #expect(SleepWindow.minutes(bad) == nil, "\(bad.debugDescription)")
        }
        #expect(throws: KioskRefusal.self) { try window("07:00", "07:00") }
        #expect(throws: KioskRefusal.self) { try SleepWindow.make(from: 0, until: 1440).get() }
        #expect(throws: KioskRefusal.self) { try SleepWindow.make(from: -1, until: 10).get() }
    }

    @Test func aWindowAcrossMidnightHoldsBothEnds() throws {
        let night = try window("22:00", "06:00")
        #expect(night.contains(minute: 22 * 60))
        #expect(night.contains(minute: 23 * 60 + 59))
        #expect(night.contains(minute: 0))
        #expect(night.contains(minute: 5 * 60 + 59))
        #expect(!night.contains(minute: 6 * 60), "until is not inside")
        #expect(!night.contains(minute: 12 * 60))
        let day = try window("13:00", "14:00")
        #expect(day.contains(minute: 13 * 60 + 30) && !day.contains(minute: 14 * 60) && !day.contains(minute: 12 * 60 + 59))
    }

    @Test func theNextEdgeInAFixedZone() throws {
        let night = try window("22:00", "06:00")
        let utc: (Int64) -> Int = { _ in 0 }
        // 12:00 UTC: outside; the next edge is 22:00 the same day.
        #expect(night.nextEdge(after: midnightUTC + 12 * 3600, utcOffset: utc) == midnightUTC + 22 * 3600)
        // 23:30: inside; the edge is 06:00 the next day.
        #expect(night.nextEdge(after: midnightUTC + 23 * 3600 + 1800, utcOffset: utc) == midnightUTC + 30 * 3600)
        // Exactly on 22:00 the window has begun: the next edge is its end.
        #expect(night.nextEdge(after: midnightUTC + 22 * 3600, utcOffset: utc) == midnightUTC + 30 * 3600)
        // In a zone two hours east, 22:00 local is 20:00 UTC.
        let east: (Int64) -> Int = { _ in 7200 }
        #expect(night.nextEdge(after: midnightUTC + 12 * 3600, utcOffset: east) == midnightUTC + 20 * 3600)
        #expect(night.contains(unix: midnightUTC + 21 * 3600, utcOffset: east))
        #expect(!night.contains(unix: midnightUTC + 21 * 3600, utcOffset: utc))
    }

    @Test func aDaylightSavingDayMovesTheEdgeByTheLocalClock() throws {
        // A zone at +1 h that goes to +2 h at 01:00 UTC (02:00 local becomes 03:00).
        let change = midnightUTC + 3600
        let zone: (Int64) -> Int = { $0 < change ? 3600 : 7200 }
        // A window 02:30–06:00: 02:30 never happens that night, so the window begins when the
        // local clock jumps past it, at 03:00 local (01:00 UTC), and ends at 06:00 local (04:00 UTC).
        let skipped = try window("02:30", "06:00")
        let start = midnightUTC - 3600  // 00:00 local
        #expect(skipped.nextEdge(after: start, utcOffset: zone) == change)
        #expect(skipped.nextEdge(after: change, utcOffset: zone) == midnightUTC + 4 * 3600)
        // A window 22:00–06:00 on that night ends at 06:00 local, now +2 h: 04:00 UTC, not 05:00.
        let night = try window("22:00", "06:00")
        #expect(night.nextEdge(after: midnightUTC - 1800, utcOffset: zone) == midnightUTC + 4 * 3600)
        // And back: +2 h to +1 h at 01:00 UTC (03:00 local becomes 02:00): 06:00 local is 05:00 UTC.
        let back: (Int64) -> Int = { $0 < change ? 7200 : 3600 }
        #expect(night.nextEdge(after: midnightUTC - 1800, utcOffset: back) == midnightUTC + 5 * 3600)
    }

    @Test func aStoredWindowIsCheckedAgainWhenRead() throws {
        let good = try JSONDecoder().decode(SleepWindow.self, from: Data(#"{"from":1320,"until":360}"#.utf8))
        #expect(good == (try window("22:00", "06:00")))
        for bad in [#"{"from":1320,"until":1320}"#, #"{"from":99999,"until":360}"#, #"{"from":-5,"until":360}"#] {
            #expect(throws: (any Error).self) { try JSONDecoder().decode(SleepWindow.self, from: Data(bad.utf8)) }
        }
    }
}
