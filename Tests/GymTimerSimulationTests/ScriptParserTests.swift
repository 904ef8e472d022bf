import Testing
@testable import GymTimerSimulation

@Suite struct ScriptParserTests {
    let parser = ScriptParser()

    @Test func readsEveryVerbWithExactTimes() throws {
        let script = try parser.parse("""
            # a comment line
            0.030 press start
            1 release start   # trailing comment

            1.5 click dismiss
            2 hold dismiss 2.5
            3 bounce start
            4 turn -3
            5 restart
            12.5 end
            """)
        #expect(script.steps.map(\.action) == [
            .press("start"), .release("start"), .click("dismiss"), .hold("dismiss", .milliseconds(2500)),
            .bounce("start"), .turn(-3), .restart,
        ])
        #expect(script.steps.map(\.time) == [.milliseconds(30), .seconds(1), .milliseconds(1500), .seconds(2), .seconds(3), .seconds(4), .seconds(5)])
        #expect(script.steps.map(\.line) == [2, 3, 5, 6, 7, 8, 9])
        #expect(script.end == .milliseconds(12500))
    }

    @Test(arguments: [
        ("1 jump start\n2 end", "script line 1: unknown verb 'jump' (press, release, click, hold, bounce, turn, tap, restart, end)"),
        ("1.x click start\n2 end", "script line 1: '1.x' is not a valid time in seconds (e.g. 1, 12.5, 0.030)"),
        ("-1 click start\n2 end", "script line 1: '-1' is not a valid time in seconds (e.g. 1, 12.5, 0.030)"),
        ("1 click stop\n2 end", "script line 1: unknown button 'stop' (dismiss, start)"),
        ("2 click start\n1 click start\n3 end", "script line 2: time 1 is earlier than the line before (times must not decrease)"),
        ("1 click start", "script: the last line must be 'TIME end'"),
        ("1 end\n2 click start", "script line 2: nothing may follow 'end'"),
        ("1 turn two\n2 end", "script line 1: 'two' is not a whole number of detents from -10000 to 10000"),
        ("1 hold start\n2 end", "script line 1: usage: TIME hold BUTTON SECONDS"),
        ("1 click\n2 end", "script line 1: usage: TIME click BUTTON"),
        ("1\n2 end", "script line 1: expected 'TIME VERB ...', got '1'"),
        ("1 tap 04A1B2C\n2 end", "script line 1: usage: TIME tap UID (the card's UID in hex, 1 to 10 bytes, e.g. 04A1B2C3)"),
        ("1 tap\n2 end", "script line 1: usage: TIME tap UID (the card's UID in hex, 1 to 10 bytes, e.g. 04A1B2C3)"),
        ("1 tap 0102030405060708090A0B\n2 end", "script line 1: usage: TIME tap UID (the card's UID in hex, 1 to 10 bytes, e.g. 04A1B2C3)"),
    ])
    func rejectsMistakesNamingTheLine(text: String, message: String) {
        #expect(throws: ScriptError.self) { try parser.parse(text) }
        do {
            _ = try parser.parse(text)
        } catch {
            #expect(error.description == message)
        }
    }
}
