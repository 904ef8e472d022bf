import Foundation
import Testing
@testable import GymTimerHistory

@Suite("LocalDay and DailyStreak")
struct LocalDayTests {
    @Test("parses YYYY-MM-DD strictly", arguments: ["2026-02-29", "2026-13-01", "26-01-01", "2026-1-01", "2026-01-01x", "", "２０２６-01-01"])
    func rejectsBadDays(_ text: String) {
        #expect(LocalDay(text) == nil)
    }

    @Test("round-trips and counts days across month, year and leap day")
    func dayNumbers() throws {
        let day = try #require(LocalDay("2024-02-29"))
        #expect(day.description == "2024-02-29")
        #expect(LocalDay(year: 1970, month: 1, day: 1).dayNumber == 0)
        #expect(try #require(LocalDay("2024-03-01")).dayNumber - day.dayNumber == 1)
        #expect(try #require(LocalDay("2027-01-01")).dayNumber - (try #require(LocalDay("2026-12-31"))).dayNumber == 1)
    }

    @Test("the start of a day is local midnight, DST days included")
    func startOfDay() {
        let berlin = Fixture.berlin
        #expect(LocalDay(year: 2026, month: 3, day: 29).start(in: berlin) == Fixture.date(2026, 3, 29, 0, 0))
        #expect(LocalDay(year: 2026, month: 10, day: 26).start(in: berlin) == Fixture.date(2026, 10, 26, 0, 0))
        #expect(LocalDay(Fixture.date(2026, 10, 26, 0, 0), in: berlin).description == "2026-10-26")
    }

    @Test("streaks: runs, repeats, gaps, today or yesterday")
    func streaks() throws {
        let days = try ["2026-01-01", "2026-01-02", "2026-01-02", "2026-01-04", "2026-01-05", "2026-01-06"].map { try #require(LocalDay($0)) }
        let on6 = DailyStreak(days: days.shuffled(), today: LocalDay(year: 2026, month: 1, day: 6))
        #expect(on6.current == 3 && on6.longest == 3)
        #expect(DailyStreak(days: days, today: LocalDay(year: 2026, month: 1, day: 7)).current == 3)
        #expect(DailyStreak(days: days, today: LocalDay(year: 2026, month: 1, day: 8)).current == 0)
        let none = DailyStreak(days: [], today: LocalDay(year: 2026, month: 1, day: 8))
        #expect(none.current == 0 && none.longest == 0)
    }
}
