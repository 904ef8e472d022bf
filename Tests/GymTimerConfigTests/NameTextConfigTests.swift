import Foundation
import GymTimerConfig
import GymTimerCore
import Testing

/// Every name a config gives — a program's name and label, a workout preset's name and its
/// exercises, the station's name — is refused when it holds a control or format character
/// (`NameText`), in one line that names the character and quotes the value escaped, never
/// raw; names in any script and emoji still load.
@Suite struct NameTextConfigTests {
    /// A config with one program named `name` (a TOML basic string's body, escapes as written).
    func program(named name: String, label: String = "tAbA") -> String {
        """
        [[programs]]
        name = "\(name)"
        label = "\(label)"
        kind = "intervals"
        rounds = 8
        work_seconds = 20
        rest_seconds = 10
        """
    }

    /// No line holds a raw control or format character, and there is one line per problem.
    func expectShownSafely(_ lines: [String], sourceLocation: SourceLocation = #_sourceLocation) {
        for line in lines {
            #expect(!line.unicodeScalars.contains(where: NameText.isRefused), "raw control character in \(line.debugDescription)",
                    sourceLocation: sourceLocation)
        }
    }

    @Test func aProgramNameWithARightToLeftOverrideIsRefusedNamingIt() {
        let found = problems(program(named: #"\u202EFran"#))
        #expect(found == [
            #"programs[1].name = "\u202EFran": has a right-to-left override (U+202E) at character 1: names may not hold control or format characters"#,
        ])
        expectShownSafely(found)
    }

    @Test func aProgramNameWithANewlineIsRefusedNamingIt() {
        let found = problems(program(named: #"Fran\nRow"#))
        #expect(found == [
            #"programs[1].name = "Fran\nRow": has a line break (U+000A) at character 5: names may not hold control or format characters"#,
        ])
    }

    @Test(arguments: [
        (#"A\u200BB"#, "a zero-width space (U+200B) at character 2"),
        (#"\uFEFFAMRAP"#, "a zero-width no-break space (U+FEFF) at character 1"),
        (#"Ab\u00ADc"#, "a soft hyphen (U+00AD) at character 3"),
        (#"Fran\u2066x\u2069"#, "a left-to-right isolate (U+2066) at character 5"),
        (#"Fran\tRow"#, "a tab (U+0009) at character 5"),
        (#"Fran\u2028Row"#, "a line break (U+2028) at character 5"),
        (#"Fran\U000E0041"#, "a tag character (U+E0041) at character 4"),
        (#"\u001B[2JFran"#, "an escape (U+001B) at character 1"),
    ])
    func everyControlOrFormatCharacterIsRefused(name: String, words: String) {
        let found = problems(program(named: name))
        #expect(found.count == 1 && found[0].contains("has " + words + ": names may not hold"), "\(found)")
        expectShownSafely(found)
    }

    @Test func aLabelWithAControlCharacterIsRefusedNamingIt() {
        let found = problems(program(named: "Fran", label: #"A\u202E"#))
        #expect(found == [
            #"programs[1].label = "A\u202E": has a right-to-left override (U+202E) at character 2: names may not hold control or format characters"#,
        ])
    }

    @Test func aPresetNameOrAnExerciseWithAControlCharacterIsRefused() {
        let found = problems("""
            [workout]
            preset = "legs"
            [[workout.presets]]
            name = "\\u202Elegs"
            exercises = ["Squats"]
            [[workout.presets]]
            name = "arms"
            exercises = ["Curls", "Dips\\nPush-ups"]
            """)
        #expect(found.contains(
            #"workout.presets[1].name = "\u202Elegs": has a right-to-left override (U+202E) at character 1: names may not hold control or format characters"#),
            "\(found)")
        #expect(found.contains(
            #"workout.presets[2].exercises = ["Curls", "Dips\nPush-ups"]: exercise 2 has a line break (U+000A) at character 5: names may not hold control or format characters"#),
            "\(found)")
        expectShownSafely(found)
    }

    @Test func aStationNameWithAControlCharacterIsRefusedNamingIt() {
        let found = problems("""
            [fleet]
            broker = "mqtt://127.0.0.1"
            station = "\\u202Erack-1"
            """)
        #expect(found == [
            #"fleet.station = "\u202Erack-1": has a right-to-left override (U+202E) at character 1: names may not hold control or format characters"#,
        ])
        let plain = problems("""
            [fleet]
            broker = "mqtt://127.0.0.1"
            station = "Rack 1"
            """)
        #expect(plain == [#"fleet.station = "Rack 1": must be 1 to 32 of a-z, 0-9 and -, and not "all" (which addresses every station)"#])
    }

    @Test func aConfigFileIsRefusedByTheLoaderToo() throws {
        let path = FileManager.default.temporaryDirectory.appendingPathComponent("names-\(UUID().uuidString).toml").path
        try program(named: #"\u202EFran"#).write(toFile: path, atomically: true, encoding: .utf8)
        defer { try? FileManager.default.removeItem(atPath: path) }
        #expect(throws: ConfigError.self) { try GymTimerConfiguration.load(path: path) }
        do {
            _ = try GymTimerConfiguration.load(path: path)
        } catch {
            #expect(error.description.contains("has a right-to-left override (U+202E) at character 1"), "\(error)")
            #expect(!error.description.contains("\u{202E}"))
        }
    }

    @Test func namesInAnyScriptAndEmojiStillLoad() throws {
        for name in ["Ångström", "Zoë", "北京", "Kettlebell 💪", "Row 💪🏽", "Ünïcödé 5×5"] {
            #expect(problems(program(named: name)) == [], "\(name)")
            let kiosk = try GymTimerConfiguration.parse(program(named: name)).kiosk
            #expect(kiosk.programs.programs.map(\.name) == [name])
        }
    }
}
