import GymTimerConfig
import GymTimerCore
import Testing

@Suite struct ProgramConfigTests {
    private let twoPrograms = """
        mode = "program"
        program = "Cindy"

        [[programs]]
        name = "Tabata"
        label = "tAbA"
        kind = "intervals"
        rounds = 8
        work_seconds = 20
        rest_seconds = 10

        [[programs]]
        name = "Cindy"
        label = "Cndy"
        kind = "amrap"
        lead_in_seconds = 0
        time_seconds = 1200
        """

    @Test func withoutProgramsTheFourBuiltInsAreOffered() throws {
        let kiosk = try GymTimerConfiguration.parse("").kiosk
        #expect(kiosk.programs.programs == Program.builtIns)
        #expect(kiosk.programs.programName == "Tabata")
    }

    @Test func programsReplaceTheBuiltInsAndProgramSelectsOne() throws {
        let kiosk = try GymTimerConfiguration.parse(twoPrograms).kiosk
        #expect(kiosk.startMode == .program)
        #expect(kiosk.programs.programs == [
            Program(name: "Tabata", label: "tAbA", leadInSeconds: 10, format: .intervals(rounds: 8, workSeconds: 20, restSeconds: 10)),
            Program(name: "Cindy", label: "Cndy", leadInSeconds: 0, format: .amrap(timeSeconds: 1200)),
        ])
        #expect(kiosk.programs.programName == "Cindy")
        let started = Kiosk(settings: kiosk)
        guard case .program(let mode) = started.mode else { Issue.record("not in program mode: \(started.mode)"); return }
        #expect(mode.program.name == "Cindy")
    }

    @Test func eachKindTakesItsDefaults() throws {
        let kiosk = try GymTimerConfiguration.parse("""
            [[programs]]
            name = "E"
            label = "E"
            kind = "emom"
            rounds = 5
            [[programs]]
            name = "F"
            label = "F"
            kind = "for-time"
            """).kiosk
        #expect(kiosk.programs.programs.map(\.format) == [.emom(rounds: 5, everySeconds: 60), .forTime(capSeconds: 0)])
        #expect(kiosk.programs.programs.map(\.leadInSeconds) == [10, 10])
    }

    @Test(arguments: [
        ("kind = \"intervals\"\nrounds = 8\nwork_seconds = 20\nrest_seconds = 10\ntime_seconds = 600",
         "programs[1].time_seconds = 600: not a key of kind = \"intervals\" (its keys: rounds, work_seconds, rest_seconds)"),
        ("kind = \"amrap\"\ntime_seconds = 600\ncap_seconds = 900",
         "programs[1].cap_seconds = 900: not a key of kind = \"amrap\" (its keys: time_seconds)"),
        ("kind = \"intervals\"\nrounds = 8\nwork_seconds = 20",
         "programs[1].rest_seconds: required for kind = \"intervals\""),
        ("kind = \"emom\"", "programs[1].rounds: required for kind = \"emom\""),
        ("kind = \"amrap\"", "programs[1].time_seconds: required for kind = \"amrap\""),
        ("kind = \"tabata\"", "programs[1].kind = \"tabata\": must be one of intervals, emom, amrap, for-time"),
        ("kind = \"for-time\"\ncap_seconds = 6000", "programs[1].cap_seconds = 6000: must be between 0 and 5999"),
        ("kind = \"for-time\"\nlead_in_seconds = 61", "programs[1].lead_in_seconds = 61: must be between 0 and 60"),
        ("kind = \"emom\"\nrounds = 100", "programs[1].rounds = 100: must be between 1 and 99"),
    ])
    func aWrongProgramIsOneLine(body: String, message: String) {
        #expect(problems("[[programs]]\nname = \"P\"\nlabel = \"P\"\n" + body) == [message])
    }

    @Test func aLabelTheDisplayCannotDrawIsRefused() {
        #expect(problems("[[programs]]\nname = \"Murph\"\nlabel = \"MWXK\"\nkind = \"for-time\"") == [
            "programs[1].label = \"MWXK\": must be up to 4 characters the 7-segment display can draw (letters such as A b C d E F H L n o P r S t U y, digits, space, -)",
        ])
        #expect(problems("[[programs]]\nname = \"L\"\nlabel = \"tAbAt\"\nkind = \"for-time\"").count == 1, "five characters")
    }

    @Test func nameLabelAndKindAreRequired() {
        #expect(problems("[[programs]]\ncap_seconds = 60") == [
            "programs[1].name: required", "programs[1].label: required",
            "programs[1].kind: required (one of intervals, emom, amrap, for-time)",
        ])
    }

    @Test func twoProgramsWithOneNameAreRefused() {
        let toml = "[[programs]]\nname = \"X\"\nlabel = \"A\"\nkind = \"for-time\"\n[[programs]]\nname = \"X\"\nlabel = \"b\"\nkind = \"for-time\""
        #expect(problems(toml) == ["programs[2].name = \"X\": already used by programs[1]"])
    }

    @Test func programMustNameOneOfThem() {
        #expect(problems("program = \"Fran\"") == [
            "program = \"Fran\": must be one of \"Tabata\", \"EMOM 10\", \"AMRAP 12\", \"For Time\"",
        ])
    }

    /// `program` chooses the program the kiosk starts up in; without `mode = "program"` it used
    /// to be accepted and ignored (issue 25).
    @Test func programWithoutProgramModeIsOneLine() {
        #expect(problems("program = \"Tabata\"") == [
            "program = \"Tabata\": only used with mode = \"program\" (mode is \"rest\", the default): add mode = \"program\", or remove program",
        ])
        #expect(problems("mode = \"workout\"\nprogram = \"Tabata\"") == [
            "program = \"Tabata\": only used with mode = \"program\" (mode is \"workout\"): add mode = \"program\", or remove program",
        ])
        #expect(problems("mode = \"program\"\nprogram = \"Tabata\"").isEmpty)
        #expect(problems("mode = \"party\"\nprogram = \"Tabata\"").count == 1, "only the mode's own line")
    }

    /// A name the status line shows must fit it in 80 columns: at most 24 characters.
    @Test func programAndPresetNamesHaveALengthLimit() {
        let long = String(repeating: "n", count: 25)
        #expect(problems("[[programs]]\nname = \"\(long)\"\nlabel = \"A\"\nkind = \"for-time\"") == [
            "programs[1].name = \"\(long)\": must be at most 24 characters, not 25 (the status line shows it, in 80 columns)",
        ])
        #expect(problems("[[workout.presets]]\nname = \"\(long)\"\nexercises = [\"a\"]") == [
            "workout.presets[1].name = \"\(long)\": must be at most 24 characters, not 25 (the status line shows it, in 80 columns)",
        ])
        let fits = String(repeating: "n", count: 24)
        #expect(problems("[[programs]]\nname = \"\(fits)\"\nlabel = \"A\"\nkind = \"for-time\"").isEmpty)
        #expect(problems("[[workout.presets]]\nname = \"\(fits)\"\nexercises = [\"a\"]").isEmpty)
    }
}
