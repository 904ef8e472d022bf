import GymTimerCore
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

    /// The labels the config accepts are exactly those the font draws.
    @Test func theDrawableCharactersAreTheFontsCharacters() {
        for character in DisplayContent.drawable where character != " " {
            #expect(SevenSegmentFont.segments(for: character) != 0, "\(character) draws")
        }
        #expect(!DisplayContent.canDraw("MWXK"))
        #expect(DisplayContent.canDraw("tAbA"))
        #expect(!DisplayContent.canDraw("tAbAt"), "five characters do not fit")
        #expect(!DisplayContent.canDraw("ßﬁ"), "a case mapping to several characters is refused, not a crash")
    }

    /// A frame's text (built byte by byte for the trace) reads every pattern, decimal point
    /// or not, as `character(for:)` does, the two-byte `°` and the unknown `?` included.
    @Test func aFramesTextIsEachDigitsCharacter() {
        for pattern in 0...255 {
            let digits = [UInt8(pattern), 0x3F, UInt8(pattern), 0x63]
            let expected = String(digits.map { SevenSegmentFont.character(for: $0) })
            #expect(SegmentFrame(digits: digits, colon: false).text == expected, "pattern \(pattern)")
        }
        #expect(SegmentFrame(digits: [0x63, 0x01, 0x3F, 0x00], colon: true).text == "°?0 ")
    }
}
