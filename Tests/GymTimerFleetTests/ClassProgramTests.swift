import GymTimerCore
import GymTimerFleet
import Testing

/// A class's program on the wire (`{"do":"start","at":…,"program":{…}}`): read back as itself,
/// and every hostile definition refused with the field it got wrong, as a config's
/// `[[programs]]` table would be (`Program+Definition`'s limits are the config's).
@Suite struct ClassProgramTests {
    static func parse(_ text: String) -> Result<FleetCommand, FleetCommandError> { FleetCommand.parse(Array(text.utf8)) }
    static let start = #"{"do":"start","at":1767600010,"program":"#

    @Test(arguments: [
        Program(name: "Row 5 x 500", label: "ro 5", leadInSeconds: 5, format: .intervals(rounds: 5, workSeconds: 120, restSeconds: 60)),
        Program(name: "EMOM 7", label: "E 7", leadInSeconds: 0, format: .emom(rounds: 7, everySeconds: 45)),
        Program(name: "Chipper", label: "CHIP", format: .forTime(capSeconds: 0)),
        Program(name: "Ünïcode AMRAP", label: "A 9", leadInSeconds: 60, format: .amrap(timeSeconds: 5999)),
    ])
    func aDefinitionReadsBackAsItself(program: Program) {
        let command = FleetCommand.classStart(at: 1_767_600_010, runs: .defined(program))
        #expect(Self.parse(command.json) == .success(command), "\(command.json)")
    }

    @Test func aDefinitionsLeftOutKeysTakeTheConfigsDefaults() {
        let parsed = Self.parse(Self.start + #"{"name":"For time","label":"Ft","kind":"for-time"}}"#)
        #expect(parsed == .success(.classStart(at: 1_767_600_010, runs: .defined(
            Program(name: "For time", label: "Ft", leadInSeconds: 10, format: .forTime(capSeconds: 0))))))
    }

    @Test(arguments: [
        (#"{"name":"X","label":"A","kind":"amrap","time_seconds":1e300}"#, "\"program.time_seconds\" must be whole seconds or rounds, 1 to 5999"),
        (#"{"name":"X","label":"A","kind":"amrap","time_seconds":2.5}"#, "\"program.time_seconds\" must be"),
        (#"{"name":"X","label":"A","kind":"amrap","time_seconds":0}"#, "\"program.time_seconds\" must be"),
        (#"{"name":"X","label":"A","kind":"amrap","time_seconds":"60"}"#, "\"program.time_seconds\" must be"),
        (#"{"name":"X","label":"A","kind":"amrap"}"#, "command lacks \"program.time_seconds\""),
        (#"{"name":"X","label":"A","kind":"amrap","time_seconds":60,"rounds":3}"#, "\"program.rounds\" is not a field of \"start (kind amrap)\""),
        (#"{"name":"X","label":"A","kind":"amrap","time_seconds":60,"lead_in_seconds":-1}"#, "\"program.lead_in_seconds\" must be"),
        (#"{"name":"X","label":"A","kind":"intervals","rounds":100,"work_seconds":20,"rest_seconds":10}"#, "\"program.rounds\" must be"),
        (#"{"name":"X","label":"A","kind":"sprint"}"#, "\"program.kind\" must be one of intervals, emom, amrap, for-time"),
        (#"{"name":"X","label":"WWWW","kind":"for-time"}"#, "\"program.label\" must be up to 4 characters"),
        (#"{"name":"X","label":"ABCDE","kind":"for-time"}"#, "\"program.label\" must be"),
        (#"{"name":"","label":"A","kind":"for-time"}"#, "\"program.name\" must be a name of 1 to 24 characters"),
        (#"{"name":"a\u001b[2Jb","label":"A","kind":"for-time"}"#, "\"program.name\" has an escape (U+001B) at character 2: names may not"),
        (#"{"name":"\u202eFran","label":"A","kind":"for-time"}"#, "\"program.name\" has a right-to-left override (U+202E) at character 1"),
        (#"{"name":"Fran","label":"A\n","kind":"for-time"}"#, "\"program.label\" has a line break (U+000A) at character 2"),
        (#"{"name":"0123456789012345678901234","label":"A","kind":"for-time"}"#, "\"program.name\" must be"),
        (#"{"name":["X"],"label":"A","kind":"for-time"}"#, "\"program.name\" must be"),
        (#"{"label":"A","kind":"for-time"}"#, "command lacks \"program.name\""),
        (#"{"name":"X","label":"A","kind":"for-time","script":"rm -rf /"}"#, "\"program.script\" is not a field of \"start\""),
        (#"[1,2]"#, "\"program\" must be a program's definition, a JSON object"),
        (#""AMRAP 12""#, "\"program\" must be a program's definition"),
    ])
    func aHostileDefinitionIsRefusedSayingWhichField(definition: String, words: String) {
        switch Self.parse(Self.start + definition + "}") {
        case .success(let command): Issue.record("accepted \(definition) as \(command)")
        case .failure(let error): #expect(error.description.contains(words), "\(definition): \(error)")
        }
    }

    @Test func aDefinitionBesideAModeOrNameIsRefused() {
        let both = #"{"do":"start","at":1767600010,"mode":"program","program":{"name":"X","label":"A","kind":"for-time"}}"#
        #expect(Self.parse(both) == .failure(.unexpected(field: "mode", command: "start")))
    }

    @Test func aConfigAndTheWireShareTheirLimits() {
        // A program out of the limits is refused by the kiosk too (a journal, a hand-built value).
        let tooLong = Program(name: "X", label: "A", format: .amrap(timeSeconds: 6000))
        #expect(tooLong.definitionProblem == "time_seconds must be within 1...5999")
        #expect(Program.builtIns.allSatisfy { $0.definitionProblem == nil })
    }
}
