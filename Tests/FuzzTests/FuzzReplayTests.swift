import Foundation
import FuzzCommand
import FuzzConfig
import FuzzConsole
import FuzzRecord
import FuzzScript
import FuzzStation
import FuzzWAV
import GymTimerFleet
import GymTimerCollector
import GymTimerFleetCommands
import GymTimerFleetLink
import GymTimerStationLink
import GymTimerUpgrade
import GymTimerConfig
import GymTimerDrivers
import GymTimerSimulation
import Testing

/// Replays every checked-in fuzz input — the seeds and each crash the fuzzers found, kept
/// once fixed — through the same entry points libFuzzer calls (scripts/fuzz.sh), so a fixed
/// crash stays fixed in every `swift test`, and checks what the parser made of each one
/// against a table: a parser that stops crashing by refusing everything is caught too.
@Suite struct FuzzReplayTests {
    static let corpus = URL(fileURLWithPath: #filePath).deletingLastPathComponent().appendingPathComponent("Corpus")

    static func inputs(_ target: String) -> [URL] {
        let directory = corpus.appendingPathComponent(target)
        let names = (try? FileManager.default.contentsOfDirectory(atPath: directory.path)) ?? []
        return names.sorted().map { directory.appendingPathComponent($0) }
    }

    static func replay(_ file: URL, _ entry: (UnsafePointer<UInt8>?, Int) -> CInt) throws -> [UInt8] {
        let bytes = [UInt8](try Data(contentsOf: file))
        _ = bytes.withUnsafeBufferPointer { entry($0.baseAddress, $0.count) }
        return bytes
    }

    /// What the script parser makes of each corpus file: its steps and end, or its error.
    /// (Outcomes are `escaped`: the fuzzers' bytes quoted back in an error read as `\u{…}`.)
    static let expectedScripts: [String: String] = [
        "issue-12-turn-bound-and-restart.txt":
            "accepted: 4 steps, end 400.0 seconds",
        "seed-all-verbs.txt":
            "accepted: 7 steps, end 150.0 seconds",
        "seed-fleet-lines.txt":
            "accepted: 9 steps, end 60.0 seconds",
        "seed-fleet-lines-without-fleet.txt":
            "refused: script line 1: 'fleet' needs a [fleet] section in the config: the simulated station has no broker without one",
        "seed-short.txt":
            "accepted: 2 steps, end 12.5 seconds",
    ]

    /// What the config parser makes of each corpus file: accepted (with the default rest and
    /// the counts of presets and programs), or its problems.
    static let expectedConfigs: [String: String] = [
        "crash-toml-combining-mark-after-bracket.toml":
            "refused: line 1: invalid table header [\\u{594}es =\\u{fffd}\\u{fffd}d_ala\"x\": a table name must start with a letter, digit, _, - or a quote",
        "crash-toml-cr-in-table-header.toml":
            "refused: line 22: invalid table header [\\u{d}orkout]: a table name must start with a letter, digit, _, - or a quote",
        "crash-toml-empty-table-header.toml":
            "refused: line 5: invalid table header [: a table name must start with a letter, digit, _, - or a quote",
        "crash-toml-header-after-quotes-in-comment.toml":
            "refused: line 2: invalid table header [\\u{fffd}\\u{0}\\u{0}\\u{0}o\\u{1e}ut]: a table name must start with a letter, digit, _, - or a quote",
        "crash-toml-parse-key-assert.toml":
            "refused: line 1: invalid table header [[[CworkouCworkout.presets]]: a table name must start with a letter, digit, _, - or a quote",
        "found-label-case-mapping.toml":
            "refused: programs[1].label = \"\\u{df}\": must be up to 4 characters the 7-segment display can draw (letters such as A b C d E F H L n o P r S t U y, digits, space, -)",
        "found-tomlkit-leak.toml":
            "refused: rest.step_seconds = 0: must be between 1 and 300 | interval.start_with = \"sideways\": must be one of low, high",
        "seed-example.toml":
            "accepted: rest 90 s, 1 presets, 4 programs",
        "seed-presets.toml":
            "accepted: rest 90 s, 1 presets, 4 programs",
        "seed-problems.toml":
            "refused: rest.step_seconds = 0: must be between 1 and 300 | interval.start_with = \"sideways\": must be one of low, high",
        "seed-programs.toml":
            "refused: programs[2].label = \"\\u{df}\\u{fb01}\": must be up to 4 characters the 7-segment display can draw (letters such as A b C d E F H L n o P r S t U y, digits, space, -) | programs[2].cap_seconds = 1: not a key of kind = \"emom\" (its keys: rounds, every_seconds) | programs[3].rest_seconds: required for kind = \"intervals\"",
    ]

    /// What the WAV reader makes of each corpus file: rate and sample count, or its error.
    static let expectedWAVs: [String: String] = [
        "found-rate-1hz-timeout.wav":
            "refused: WAV file fuzz.wav is malformed: sample rate 1 Hz is outside 1000\\u{2026}384000 Hz",
        "seed-extensible.wav":
            "decoded: 48000 Hz, 4 samples",
        "seed-mono16.wav":
            "decoded: 8000 Hz, 8 samples",
        "seed-stereo8.wav":
            "decoded: 22050 Hz, 3 samples",
    ]

    static func scriptOutcome(_ bytes: [UInt8]) -> String {
        do {
            let text = String(decoding: bytes, as: UTF8.self)
            let script = try ScriptParser(fleet: text.hasPrefix("# fleet")).parse(text)  // FuzzScript.fleetMark
            return "accepted: \(script.steps.count) steps, end \(script.end)"
        } catch {
            return "refused: \(error)"
        }
    }

    static func configOutcome(_ bytes: [UInt8]) -> String {
        do {
            let configuration = try GymTimerConfiguration.parse(String(decoding: bytes, as: UTF8.self))
            let kiosk = configuration.kiosk
            return "accepted: rest \(kiosk.rest.defaultSeconds) s, \(kiosk.workout.presets.count) presets, "
                + "\(kiosk.programs.programs.count) programs"
        } catch {
            return "refused: \(error.problems.joined(separator: " | "))"
        }
    }

    /// What the fleet's command parser makes of each corpus file: the command, or why it refused.
    static let expectedCommands: [String: String] = [
        "athlete.json": #"accepted: athlete(Optional(GymTimerCore.CardTap(card: 04A1B2C3, shortName: Optional("AnnA"), bests: nil, division: nil)))"#,
        "athlete-scaled.json": #"accepted: athlete(Optional(GymTimerCore.CardTap(card: 04A1B2C3, shortName: nil, bests: nil, division: Optional(GymTimerCore.Division.scaled))))"#,
        "athlete-bad-division.json": #"refused (bad-field): "division" must be rx or scaled"#,
        "athlete-bad-short.json": #"refused (bad-field): "short" must be a short name of up to 4 characters a digit draws"#,
        "athlete-odd-card.json": #"refused (bad-field): "card" must be a card's pseudonym in hex (24 digits), or null"#,
        "athlete-off.json": "accepted: athlete(nil)",
        "bad-field.json": #"refused (bad-field): "x" is not a field of "start""#,
        "forget.json": #"accepted: forget(card: 04A1B2C3)"#,
        "forget-no-card.json": #"refused (bad-field): command lacks "card""#,
        "forget-null-card.json": #"refused (bad-field): "card" must be a card's pseudonym in hex (24 digits)"#,
        "forget-extra.json": #"refused (bad-field): "short" is not a field of "forget""#,
        "dismiss.json": "accepted: dismiss",
        "lone-surrogate.json": "refused (malformed): command is not JSON",
        "pause.json": "accepted: pause",
        "pause-extra.json": #"refused (bad-field): "at" is not a field of "pause""#,
        "reset.json": "accepted: reset",
        "resume.json": "accepted: resume",
        "select.json": #"accepted: select(mode: "program", name: Optional("Tabata"))"#,
        "set-huge.json": #"refused (bad-field): "rest_seconds" must be whole seconds between 1 and 3600"#,
        "set.json": "accepted: setRest(seconds: 120)",
        "sleep-bad-hour.json": #"refused (bad-field): "from" must be a time HH:MM, 00:00 to 23:59"#,
        "sleep-empty.json": #"refused (bad-field): "until" must be a time other than from"#,
        "sleep-mixed.json": #"refused (bad-field): "from" is not a field of "sleep""#,
        "sleep-off.json": "accepted: sleep(nil)",
        "sleep-off-false.json": #"refused (bad-field): "off" must be true"#,
        "sleep-window.json": #"accepted: sleep(Optional(22:00\u{2013}06:00))"#,
        "start-at.json": "accepted: start(at: Optional(1767225600.5))",
        "start-at-huge.json": "accepted: start(at: Optional(1e+300))",
        "start.json": "accepted: start(at: nil)",
        "truncated.json": "refused (malformed): command is not JSON",
    ]

    static func commandOutcome(_ bytes: [UInt8]) -> String {
        switch FleetCommand.parse(bytes) {
        case .success(let command): return "accepted: \(command)"
        case .failure(let error): return "refused (\(error.kind)): \(error)"
        }
    }

    /// What a station in virtual time made of each corpus file (see FuzzStation: the flags
    /// byte, then the coach's messages): the kiosk at 20 s, what it shows, the station's events.
    static let expectedStations: [String: String] = [
        "far-start-idle.bin":
            #"commanded: rest idle, shows "0130"; events error(too-early)"#,
        "retained-start-broker-restart-idle.bin":
            #"undisturbed: rest idle, shows "0130", after a broker restart; events error(retained) error(retained)"#,
        "retained-start-resting.bin":
            #"undisturbed: rest resting, shows "0112"; events error(retained)"#,
        "seed-far-start-resting.bin":
            #"commanded: rest resting, shows "0112"; events error(too-early)"#,
        "seed-garbage-broker-restart-resting.bin":
            #"undisturbed: rest resting, shows "0112", after a broker restart; events error(malformed) error(bad-field)"#,
        "seed-garbage-resting.bin":
            #"undisturbed: rest resting, shows "0112"; events error(malformed) error(malformed) error(malformed) error(unknown-command)"#,
        "seed-oversized-idle.bin":
            #"undisturbed: rest idle, shows "0130"; events error(too-large)"#,
        "seed-retained-garbage-idle.bin":
            #"undisturbed: rest idle, shows "0130"; events error(retained)"#,
        "seed-retained-garbage-broker-restart-idle.bin":
            #"undisturbed: rest idle, shows "0130", after a broker restart; events error(retained) error(retained)"#,
        "seed-select-idle.bin":
            #"commanded: program idle, shows "tAbA"; events command(select) command(dismiss)"#,
        "seed-set-while-resting.bin":
            #"commanded: rest resting, shows "0112"; events error(not-allowed)"#,
        "seed-start-resting.bin":
            #"commanded: rest idle, shows "0130"; events command(start)"#,
    ]

    /// What the collector makes of each record (as from `gymtimer/rack-1/workout`): stored, or refused and why.
    static let expectedRecords: [String: String] = [
        "athlete-number.json": "refused (bad-athlete): athlete is a number, not a card UID (1 to 10 bytes as hex)",
        "athlete-odd-length.json": "refused (bad-athlete): athlete is a text of 7 characters, not a card UID (1 to 10 bytes as hex)",
        "division-number.json": "refused (bad-division): division is a number",
        "division-on-rest.json": "refused (bad-division): division is said of a workout that is no program's",
        "day-zero.json": "refused (bad-time): local_day 0000-02-29 is not the day of completed_at",
        "escapes.json": "refused (bad-text): preset is empty, over 200 bytes or not printable",
        "good-athlete.json": "accepted: rack-1/workout@2 workout 1 sets, score -, athlete 04A1B2C3",
        "good-program.json": "accepted: rack-1/program@5 program 8 sets, score 8 rounds",
        "good-program-scaled.json": "accepted: rack-1/program@6 program 8 sets, score 8 rounds, scaled",
        "good-rest.json": "accepted: rack-1/rest@60000000000 rest 3 sets, score -",
        "good-workout.json": "accepted: rack-1/workout@1 workout 2 sets, score -",
        "negative-duration.json": "refused (bad-duration): duration_ms -60000 is outside 0\\u{2026}604800000",
        "sets-1e300.json": "refused (malformed): not a workout record (fields missing or of the wrong type)",
        "sets-int64-max.json": "refused (bad-sets): sets 9223372036854775807 is outside 0\\u{2026}100000",
        "truncated.json": "refused (malformed): not a workout record (fields missing or of the wrong type)",
        "year-9999.json": "refused (bad-time): completed_at 253402300800 (Unix time) is not between 2020 and a day from now",
    ]

    static func recordOutcome(_ bytes: [UInt8]) -> String {
        switch FleetWorkoutMessage.decode(bytes, station: "rack-1", receivedAt: FuzzRecord.now) {
        case .success(let workout):
            return "accepted: \(workout.id) \(workout.kind.rawValue) \(workout.sets) sets, score \(workout.score ?? "-")"
                + (workout.athlete.map { ", athlete \($0)" } ?? "") + (workout.division.map { ", \($0.rawValue)" } ?? "")
        case .failure(let refusal): return "refused (\(refusal.kind)): \(refusal.detail)"
        }
    }

    static func wavOutcome(_ bytes: [UInt8]) -> String {
        do {
            let contents = try WAVReader.decode(Data(bytes), file: "fuzz.wav")
            return "decoded: \(contents.sampleRate) Hz, \(contents.samples.count) samples"
        } catch {
            return "refused: \(error)"
        }
    }

    /// An outcome as ASCII: anything else (the fuzzers' bytes quoted back in an error) as `\u{…}`.
    static func escaped(_ text: String) -> String {
        var out = ""
        for scalar in text.unicodeScalars {
            if scalar.isASCII, scalar.value >= 0x20, scalar.value < 0x7F, scalar != "\\" {
                out.unicodeScalars.append(scalar)
            } else {
                out += "\\u{\(String(scalar.value, radix: 16))}"
            }
        }
        return out
    }

    @Test(arguments: inputs("FuzzScript")) func scriptInputs(_ file: URL) throws {
        let bytes = try Self.replay(file, fuzzScriptOneInput)
        let outcome = Self.escaped(Self.scriptOutcome(bytes))
        #expect(outcome == Self.expectedScripts[file.lastPathComponent], "\(file.lastPathComponent): \(outcome)")
    }

    @Test(arguments: inputs("FuzzConfig")) func configInputs(_ file: URL) throws {
        let bytes = try Self.replay(file, fuzzConfigOneInput)
        let outcome = Self.escaped(Self.configOutcome(bytes))
        #expect(outcome == Self.expectedConfigs[file.lastPathComponent], "\(file.lastPathComponent): \(outcome)")
    }

    @Test(arguments: inputs("FuzzWAV")) func wavInputs(_ file: URL) throws {
        let bytes = try Self.replay(file, fuzzWAVOneInput)
        let outcome = Self.escaped(Self.wavOutcome(bytes))
        #expect(outcome == Self.expectedWAVs[file.lastPathComponent], "\(file.lastPathComponent): \(outcome)")
    }

    @Test(arguments: inputs("FuzzCommand")) func commandInputs(_ file: URL) throws {
        let bytes = try Self.replay(file, fuzzCommandOneInput)
        let outcome = Self.escaped(Self.commandOutcome(bytes))
        #expect(outcome == Self.expectedCommands[file.lastPathComponent], "\(file.lastPathComponent): \(outcome)")
    }

    @Test(arguments: inputs("FuzzStation")) func stationInputs(_ file: URL) throws {
        let bytes = try Self.replay(file, fuzzStationOneInput)
        let outcome = Self.escaped(fuzzStationOutcome(bytes))
        #expect(outcome == Self.expectedStations[file.lastPathComponent], "\(file.lastPathComponent): \(outcome)")
    }

    /// What `fleet status` prints of each corpus file's retained status and state.
    static let expectedConsoleRows: [String: String] = [
        "hostile.bin": #"online | ?[2Jrest? | xxxxxxxxxxxxxxx\u{2026} | ? | -"#,
        "offline-garbage.bin": "offline | - | - | - | -",
        "paused-no-status.bin": #" | program | paused | - | "0206""#,
        "running.bin": "online | rest | resting | 1:22 | 01:22",
        "wrong-types.bin": #"online?\u{2026} | - | - | - | -"#,
    ]

    @Test(arguments: inputs("FuzzConsole")) func consoleInputs(_ file: URL) throws {
        let bytes = try Self.replay(file, fuzzConsoleOneInput)
        let outcome = Self.escaped(fuzzConsoleOutcome(bytes))
        #expect(outcome == Self.expectedConsoleRows[file.lastPathComponent], "\(file.lastPathComponent): \(outcome)")
    }

    @Test(arguments: inputs("FuzzRecord")) func recordInputs(_ file: URL) throws {
        let bytes = try Self.replay(file, fuzzRecordOneInput)
        let outcome = Self.escaped(Self.recordOutcome(bytes))
        #expect(outcome == Self.expectedRecords[file.lastPathComponent], "\(file.lastPathComponent): \(outcome)")
    }

    /// Every target has inputs, and every input an expected outcome (and no outcome is left
    /// over from a file that is gone).
    @Test func everyInputHasAnExpectation() {
        let tables = [
            "FuzzScript": Self.expectedScripts, "FuzzConfig": Self.expectedConfigs, "FuzzWAV": Self.expectedWAVs,
            "FuzzCommand": Self.expectedCommands, "FuzzStation": Self.expectedStations, "FuzzRecord": Self.expectedRecords,
            "FuzzConsole": Self.expectedConsoleRows,
        ]
        for (target, table) in tables {
            let names = Set(Self.inputs(target).map(\.lastPathComponent))
            #expect(!names.isEmpty, "\(target) has no corpus")
            #expect(names == Set(table.keys), "\(target): corpus and expectations differ")
        }
    }
}
