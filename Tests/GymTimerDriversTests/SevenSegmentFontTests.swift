import Testing
@testable import GymTimerDrivers

@Suite struct SevenSegmentFontTests {
    @Test func digitsRoundTrip() {
        for char in "0123456789 " {
            #expect(SevenSegmentFont.character(for: SevenSegmentFont.segments(for: char)) == char)
        }
    }

    @Test func lettersHaveTheirUsualShapes() {
        #expect(SevenSegmentFont.render("rESt") == [0x50, 0x79, 0x6D, 0x78])
        #expect(SevenSegmentFont.render("Int") == [0x30, 0x54, 0x78, 0x00])
        #expect(SevenSegmentFont.segments(for: "W") == 0, "no readable shape renders dark")
    }
}
