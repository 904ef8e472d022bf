import GymTimerConfig
import GymTimerCore
import Testing

@Suite struct ConfigValidationTests {
    /// Each out-of-range value with its exact message.
    @Test(arguments: [
        ("[rest]\ndefault_seconds = 10", "rest.default_seconds = 10: must be between 15 and 300"),
        ("[rest]\nmin_seconds = 20\nmax_seconds = 100\ndefault_seconds = 101",
         "rest.default_seconds = 101: must be between 20 and 100"),
        ("[rest]\nmin_seconds = 0", "rest.min_seconds = 0: must be between 1 and 3600"),
        ("[rest]\nmin_seconds = 3601", "rest.min_seconds = 3601: must be between 1 and 3600"),
        ("[rest]\nmax_seconds = 3601", "rest.max_seconds = 3601: must be between 15 and 3600"),
        ("[rest]\nmax_seconds = 10", "rest.max_seconds = 10: must be between 15 and 3600"),
        ("[rest]\nmin_seconds = 30\nmax_seconds = 20", "rest.max_seconds = 20: must be between 30 and 3600"),
        ("[rest]\nstep_seconds = 0", "rest.step_seconds = 0: must be between 1 and 300"),
        ("[rest]\nstep_seconds = 301", "rest.step_seconds = 301: must be between 1 and 300"),
        ("[rest]\nwarning_seconds = -1", "rest.warning_seconds = -1: must be between 0 and 60"),
        ("[rest]\nwarning_seconds = 61", "rest.warning_seconds = 61: must be between 0 and 60"),
        ("[rest]\nalarm_timeout_seconds = 0", "rest.alarm_timeout_seconds = 0: must be between 1 and 3600"),
        ("[interval]\nphase_seconds = 0", "interval.phase_seconds = 0: must be between 1 and 3600"),
        ("[interval]\nphase_seconds = 3601", "interval.phase_seconds = 3601: must be between 1 and 3600"),
        ("[interval]\nsets = 0", "interval.sets = 0: must be between 1 and 99"),
        ("[interval]\nsets = 100", "interval.sets = 100: must be between 1 and 99"),
        ("[interval]\nwarning_seconds = 61", "interval.warning_seconds = 61: must be between 0 and 60"),
        ("[interval]\nphase_seconds = 10\nwarning_seconds = 10",
         "interval.warning_seconds = 10: must be less than interval.phase_seconds (10), or 0 for no warning"),
        ("[interval]\nannounce_seconds = 61", "interval.announce_seconds = 61: must be between 0 and 60"),
        ("[audio]\nvolume = 101", "audio.volume = 101: must be between 0 and 100"),
        ("[hardware]\ndebounce_ms = 0", "hardware.debounce_ms = 0: must be between 1 and 30"),
        ("[hardware]\ndebounce_ms = 31", "hardware.debounce_ms = 31: must be between 1 and 30"),
        ("[hardware]\nhold_ms = 499", "hardware.hold_ms = 499: must be between 500 and 10000"),
        ("[hardware.display]\naddress = 0x78", "hardware.display.address = 0x78: must be between 0x70 and 0x77"),
        ("[hardware.display]\nbrightness = 101", "hardware.display.brightness = 101: must be between 0 and 100"),
        ("[hardware.display]\ni2c_bus = -1", "hardware.display.i2c_bus = -1: must be 0 or more"),
        ("[hardware.buzzer]\nfrequency_hz = 99", "hardware.buzzer.frequency_hz = 99: must be between 100 and 10000"),
        ("[hardware.buzzer]\npwm_chip = -1", "hardware.buzzer.pwm_chip = -1: must be 0 or more"),
        ("[hardware.buzzer]\npwm_channel = -2", "hardware.buzzer.pwm_channel = -2: must be 0 or more"),
    ])
    func outOfRange(toml: String, message: String) {
        #expect(problems(toml) == [message])
    }

    /// A value of the wrong type, shown as written.
    @Test(arguments: [
        ("[rest]\nstep_seconds = \"fifteen\"", "rest.step_seconds = \"fifteen\": must be a whole number"),
        ("[rest]\nstep_seconds = 15.5", "rest.step_seconds = 15.5: must be a whole number"),
        ("[rest]\nstep_seconds = [15]", "rest.step_seconds = [15]: must be a whole number"),
        ("[audio]\nenabled = \"yes\"", "audio.enabled = \"yes\": must be true or false"),
        ("[audio]\ndevice = 1", "audio.device = 1: must be a string"),
        ("[audio]\ndevice = \"\"", "audio.device = \"\": must not be empty"),
        ("[history]\npath = \"\"", "history.path = \"\": must not be empty"),
        ("rest = 5", "rest = 5: must be a table"),
        ("[hardware]\nlines = [1, 2]", "hardware.lines = [1, 2]: must be a table"),
        ("[rest]\nstep_seconds = { every = 15, unit = \"s\" }",
         "rest.step_seconds = { every = 15, unit = \"s\" }: must be a whole number"),
        ("mode = \"a\\\"b\"", "mode = \"a\\\"b\": must be one of rest, interval, workout, program"),
        ("[[workout.preset]]\nname = \"x\"", "workout.preset = [{ name = \"x\" }]: must be a string"),
    ])
    func wrongType(toml: String, message: String) {
        #expect(problems(toml) == [message])
    }

    @Test(arguments: [
        ("mode = \"sprint\"", "mode = \"sprint\": must be one of rest, interval, workout, program"),
        ("[interval]\nstart_with = \"medium\"", "interval.start_with = \"medium\": must be one of low, high"),
        ("[interval]\nstart_with = 1", "interval.start_with = 1: must be one of low, high"),
        ("[hardware]\nbias = \"up\"", "hardware.bias = \"up\": must be one of pull-up, pull-down, none"),
        ("[hardware.display]\ntype = \"lcd\"",
         "hardware.display.type = \"lcd\": must be one of tm1637, ht16k33, max7219, none"),
        ("[hardware.buzzer]\ntype = \"piezo\"", "hardware.buzzer.type = \"piezo\": must be one of active, pwm"),
    ])
    func badChoice(toml: String, message: String) {
        #expect(problems(toml) == [message])
    }

    @Test(arguments: [
        ("[rest]\nstep_secs = 15", "rest.step_secs: unknown key (did you mean rest.step_seconds?)"),
        ("[rest]\nstep = 15", "rest.step: unknown key (did you mean rest.step_seconds?)"),
        ("[interval]\nset = 4", "interval.set: unknown key (did you mean interval.sets?)"),
        ("modes = \"rest\"", "modes: unknown key (did you mean mode?)"),
        ("[rest]\ncolour = \"red\"", "rest.colour: unknown key"),
        ("[restt]\nstep_seconds = 15", "restt: unknown table (did you mean rest?)"),
        ("[hardware.line]\nstart = 4", "hardware.line: unknown table (did you mean hardware.lines?)"),
        ("[[workout.prest]]\nname = \"x\"", "workout.prest: unknown table (did you mean workout.presets?)"),
        ("[display]\ntype = \"none\"", "display: unknown table"),
        ("[workout.presets]\nname = \"x\"",
         "workout.presets = { name = \"x\" }: must be a list of tables, written [[workout.presets]]"),
    ])
    func unknownKeysAndTables(toml: String, message: String) {
        #expect(problems(toml) == [message])
    }

    @Test func everyProblemIsReportedTogether() {
        let found = problems("""
            mode = "sprint"
            [rest]
            step_seconds = 0
            step_secs = 15
            warning_seconds = "three"
            [interval]
            start_with = "medium"
            [audio]
            volume = 200
            """)
        #expect(found == [
            "mode = \"sprint\": must be one of rest, interval, workout, program",
            "rest.step_seconds = 0: must be between 1 and 300",
            "rest.warning_seconds = \"three\": must be a whole number",
            "rest.step_secs: unknown key (did you mean rest.step_seconds?)",
            "interval.start_with = \"medium\": must be one of low, high",
            "audio.volume = 200: must be between 0 and 100",
        ])
        do {
            _ = try GymTimerConfiguration.parse("[rest]\nstep_seconds = 0\nmin_seconds = 0")
            Issue.record("parsed a bad file")
        } catch {
            #expect(error.description == """
                rest.min_seconds = 0: must be between 1 and 3600
                rest.step_seconds = 0: must be between 1 and 300
                """)
            #expect(error.description.split(separator: "\n").count == 2)
        }
    }

    @Test func aRefusedBoundIsNotBlamedOnTheDurationToo() {
        #expect(problems("[rest]\nmin_seconds = 0\ndefault_seconds = 5") == [
            "rest.min_seconds = 0: must be between 1 and 3600",
        ])
    }

    @Test func aSyntaxErrorIsOneLineWithItsLineNumber() {
        let found = problems("""
            mode = "rest"
            [rest]
            step_seconds = = 15
            """)
        #expect(found.count == 1)
        #expect(found.first?.hasPrefix("line 3, column ") == true)
        #expect(found.first?.contains("\n") == false)
    }

    @Test func aDuplicateKeyIsASyntaxError() {
        let found = problems("[rest]\nstep_seconds = 15\nstep_seconds = 30\n")
        #expect(found.count == 1)
        #expect(found.first?.hasPrefix("line 3, column ") == true)
    }
}

/// Inputs fuzzing found that crashed the TOML library; each must be one clear problem instead.
@Suite struct ConfigFuzzRegressionTests {
    @Test(arguments: ["[[[a]]\n", "x = 1\n  [ [b]\n", "[[ ]a]\n", "[rest]\nstep_seconds = 1\n[\n", "[", "[[\r\n", "[\rorkout]\n", "[a.\rb]\n", "[a. ]\n", "[\u{594}es = 1\n"])
    func malformedTableHeadersAreOneProblemNotACrash(toml: String) {
        let found = problems(toml)
        #expect(found.count == 1)
        #expect(found.first?.contains("invalid table header") == true || found.first?.hasPrefix("line ") == true)
    }
}
