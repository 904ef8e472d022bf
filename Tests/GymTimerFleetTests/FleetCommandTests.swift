import Testing
import GymTimerCore
@testable import GymTimerFleet

@Suite struct FleetCommandTests {
    static func parse(_ text: String) -> Result<FleetCommand, FleetCommandError> { FleetCommand.parse(Array(text.utf8)) }

    @Test(arguments: [
        (#"{"do": "start"}"#, FleetCommand.start(at: nil)),
        (#"{"do": "start", "at": 1767225600.5}"#, .start(at: 1767225600.5)),
        (#"{"do": "dismiss"}"#, .dismiss),
        (#"{"do": "select", "mode": "program", "name": "Tabata"}"#, .select(mode: "program", name: "Tabata")),
        (#"{"do": "select", "mode": "rest"}"#, .select(mode: "rest", name: nil)),
        (#"{"do": "set", "rest_seconds": 120}"#, .setRest(seconds: 120)),
        (#"{"do": "message", "text": "HYdrAtE", "seconds": 20}"#, .message(text: "HYdrAtE", seconds: 20)),
        (#"{"do": "message", "text": "GO"}"#, .message(text: "GO", seconds: 10)),
        (#"{"do": "lock"}"#, .lock),
        (#"{"do": "unlock"}"#, .unlock),
    ])
    func wellFormedCommands(text: String, command: FleetCommand) {
        #expect(Self.parse(text) == .success(command))
    }

    @Test(arguments: [
        ("not json", FleetCommandError.malformed),
        ("[1, 2]", .notAnObject),
        ("\"start\"", .notAnObject),
        (#"{"go": "start"}"#, .missing("do")),
        (#"{"do": 1}"#, .wrongType(field: "do", expected: "a string")),
        (#"{"do": "jump"}"#, .unknown("jump")),
        (#"{"do": "start", "at": "soon"}"#, .wrongType(field: "at", expected: "a Unix time in seconds")),
        (#"{"do": "start", "at": true}"#, .wrongType(field: "at", expected: "a Unix time in seconds")),
        (#"{"do": "start", "at": -5}"#, .wrongType(field: "at", expected: "a Unix time in seconds")),
        (#"{"do": "start", "delay": 3}"#, .unexpected(field: "delay", command: "start")),
        (#"{"do": "select"}"#, .missing("mode")),
        (#"{"do": "select", "mode": "yoga"}"#, .wrongType(field: "mode", expected: "one of interval, program, rest, workout")),
        (#"{"do": "set", "rest_seconds": 90.5}"#, .wrongType(field: "rest_seconds", expected: "whole seconds between 1 and 3600")),
        (#"{"do": "set", "rest_seconds": 1e300}"#, .wrongType(field: "rest_seconds", expected: "whole seconds between 1 and 3600")),
        (#"{"do": "set"}"#, .missing("rest_seconds")),
        (#"{"do": "message"}"#, .missing("text")),
        (#"{"do": "message", "text": ""}"#, .wrongType(field: "text", expected: "a text of 1 to 64 characters")),
        (#"{"do": "message", "text": 5}"#, .wrongType(field: "text", expected: "a text of 1 to 64 characters")),
        (#"{"do": "message", "text": "GO", "seconds": 1e300}"#, .wrongType(field: "seconds", expected: "whole seconds between 1 and 60")),
        (#"{"do": "message", "text": "GO", "seconds": 0}"#, .wrongType(field: "seconds", expected: "whole seconds between 1 and 60")),
        (#"{"do": "lock", "pin": "1234"}"#, .unexpected(field: "pin", command: "lock")),
    ])
    func badCommandsSayWhy(text: String, error: FleetCommandError) {
        #expect(Self.parse(text) == .failure(error))
    }

    @Test(arguments: [
        FleetCommand.message(text: "say \"hi\" \\ to all", seconds: 7), .lock, .unlock, .start(at: nil), .pause,
    ])
    func whatTheCoachsToolsPublishReadsBackAsTheSameCommand(command: FleetCommand) {
        #expect(FleetCommand.parse(Array(command.json.utf8)) == .success(command))
    }

    /// The collector's forget names one card; its JSON reads back as the same command, and a
    /// card that is no UID (or none) is refused saying which field.
    @Test func forgetNamesOneCard() {
        let card = CardID(hex: "04A1B2C3")!
        #expect(Self.parse(#"{"do":"forget","card":"04:a1:b2:c3"}"#) == .success(.forget(card: card)))
        #expect(FleetCommand.forget(card: card).json == #"{"do":"forget","card":"04A1B2C3"}"#)
        #expect(Self.parse(FleetCommand.forget(card: card).json) == .success(.forget(card: card)))
        #expect(Self.parse(#"{"do":"forget"}"#) == .failure(.missing("card")))
        #expect(Self.parse(#"{"do":"forget","card":"04A1B2C"}"#)
            == .failure(.wrongType(field: "card", expected: "a card's pseudonym in hex (24 digits)")))
        #expect(Self.parse(#"{"do":"forget","card":null}"#)
            == .failure(.wrongType(field: "card", expected: "a card's pseudonym in hex (24 digits)")))
        #expect(Self.parse(#"{"do":"forget","card":"04A1B2C3","at":1}"#) == .failure(.unexpected(field: "at", command: "forget")))
    }

    @Test func anOversizedPayloadIsRefusedUnread() {
        let payload = Array(#"{"do": "start", "pad": ""#.utf8) + Array(repeating: UInt8(ascii: "x"), count: 5000) + Array(#""}"#.utf8)
        #expect(FleetCommand.parse(payload) == .failure(.tooLarge(bytes: payload.count)))
        #expect(FleetCommandError.tooLarge(bytes: payload.count).kind == "too-large")
    }

    @Test func aLongUnknownNameIsCutInTheMessage() {
        let name = String(repeating: "a", count: 100)
        guard case .failure(.unknown(let shown)) = Self.parse("{\"do\": \"\(name)\"}") else {
            Issue.record("not refused as unknown")
            return
        }
        #expect(shown.count == 33 && shown.hasSuffix("…"))
    }

    @Test func topicsOfAStation() {
        let topics = FleetTopics(prefix: "gymtimer", station: "rack-3")
        #expect(topics.status == "gymtimer/rack-3/status")
        #expect(topics.commandTopics == ["gymtimer/rack-3/cmd", "gymtimer/all/cmd"])
        #expect(FleetTopics.station(in: "gymtimer/rack-3/workout", prefix: "gymtimer") == "rack-3")
        #expect(FleetTopics.station(in: "gymtimer/all/cmd", prefix: "gymtimer") == nil)
        #expect(FleetTopics.station(in: "other/rack-3/workout", prefix: "gymtimer") == nil)
    }
}

/// What the coach's tools publish is what a station parses back: one shape per command.
@Suite struct FleetCommandJSONTests {
    @Test(arguments: [
        FleetCommand.start(at: nil), .start(at: 1_767_225_600.25), .dismiss, .pause, .resume, .reset, .setRest(seconds: 120),
        .select(mode: "rest", name: nil), .select(mode: "program", name: "Tabata \"fast\" \\ 20/10"),
    ])
    func everyCommandSaysWhatItIs(command: FleetCommand) {
        #expect(FleetCommand.parse(Array(command.json.utf8)) == .success(command), "\(command.json)")
    }
}
