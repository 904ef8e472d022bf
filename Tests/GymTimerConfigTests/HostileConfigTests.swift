import Foundation
import Testing

/// Config values that looked fine to check-config but were not (issue #12, item 11).
@Suite struct HostileConfigTests {
    @Test func aLineGivenByNameAndByNumberIsOneLine() {
        #expect(problems("[hardware.lines]\nstart = \"17\"\nbuzzer = \"GPIO17\"") == [
            "hardware.lines.buzzer = \"GPIO17\": already used by hardware.lines.start",
        ])
        #expect(problems("[hardware.lines]\nstart = 17\nbuzzer = \"gpio17\"") == [
            "hardware.lines.buzzer = \"gpio17\": already used by hardware.lines.start",
        ])
    }

    @Test func aNulInAStringIsRefused() {
        let message = "line 2: a NUL character (\\u0000) is not allowed: paths and line names would be cut there"
        #expect(problems("[history]\npath = \"/var/lib/gym\\u0000timer.sqlite\"") == [message])
        #expect(problems("[history]\npath = \"/var/lib/gym\0timer.sqlite\"") == [message])
        #expect(problems("[hardware.lines]\nstart = \"GPIO\\U0000000017\"") == [message])
    }

    @Test func aDirectoryAsTheHistoryPathIsRefused() throws {
        let directory = FileManager.default.temporaryDirectory.path
        let found = problems("[history]\npath = \"\(directory)\"")
        #expect(found.count == 1 && found[0].contains("is a directory"), "\(found)")
    }

    @Test func moreThan999PresetsAreRefused() {
        let presets = (1...1000).map { "[[workout.presets]]\nname = \"p\($0)\"\nexercises = [\"Squats\"]\n" }.joined()
        #expect(problems(presets) == ["workout.presets: lists 1000 presets; the display can show at most 999"])
        let fine = (1...999).map { "[[workout.presets]]\nname = \"p\($0)\"\nexercises = [\"Squats\"]\n" }.joined()
        #expect(problems(fine) == [])
    }
}
