import Foundation
import Testing
@testable import GymTimerSimulation

/// Scripts an attacker or a careless editor could hand the simulator (issue #12, items 10 and
/// 11): each is a clear error or a normal run, never a trap, a hang or an echo of megabytes.
@Suite struct HostileScriptTests {
    let parser = ScriptParser()

    @Test func crlfLineEndsAreLineEnds() throws {
        let script = try parser.parse("1 click start\r\n2 turn 1\r\n5 end\r\n")
        #expect(script.steps.map(\.action) == [.click("start"), .turn(1)])
        #expect(script.end == .seconds(5))
        #expect(throws: ScriptError(line: 2, "unknown verb 'jump' (press, release, click, hold, bounce, turn, tap, restart, end)")) {
            try parser.parse("1 click start\r\n2 jump start\r\n5 end\r\n")
        }
    }

    @Test(arguments: ["-9223372036854775808", "9223372036854775807", "1000000000", "10001", "-10001", "99999999999999999999"])
    func aTurnBeyondTheBoundIsAClearError(detents: String) {
        #expect(throws: ScriptError(line: 1, "'\(detents)' is not a whole number of detents from -10000 to 10000")) {
            try parser.parse("1 turn \(detents)\n2 end\n")
        }
    }

    @Test func manyTurnsAtOnceAreBoundedInAll() throws {
        let lines = String(repeating: "0 turn 10000\n", count: 11)
        #expect(throws: ScriptError(line: 11, "the script turns the knob more than 100000 detents in all")) {
            try parser.parse(lines + "1 end\n")
        }
    }

    @Test func theLargestTurnParses() throws {
        #expect(try parser.parse("1 turn -10000\n2 end\n").steps.map(\.action) == [.turn(-10000)])
    }

    @Test func aHugeTokenIsNotEchoedWhole() throws {
        let token = String(repeating: "x", count: 1_000_000)
        do {
            _ = try parser.parse("1 \(token) start\n2 end\n")
            Issue.record("accepted")
        } catch {
            #expect("\(error)".utf8.count < 200, "the message is short")
            #expect("\(error)".contains("(1000000 bytes)"))
        }
    }

    // The binary reading what it is given as a script.

    @Test(arguments: ["/dev/zero", "DIRECTORY", "FIFO"])
    func aScriptThatIsNotARegularFileIsOneLine(kind: String) throws {
        try #require(GymtimerBinary.isBuilt, "build first: swift build")
        let files = try ScratchDirectory()
        var path = kind
        if kind == "DIRECTORY" { path = files.path }
        if kind == "FIFO" {
            path = files.path + "/fifo"
            #expect(mkfifo(path, 0o600) == 0)
        }
        let outcome = try GymtimerBinary.run(["simulate", "--script", path])
        #expect(outcome.status == 2)
        #expect(outcome.stderr == "gymtimer: cannot read script \(path): not a regular file\n")
    }

    @Test func aHugeTokenInAScriptFileIsCutInTheMessage() throws {
        try #require(GymtimerBinary.isBuilt, "build first: swift build")
        let files = try ScratchDirectory()
        let path = files.path + "/script.txt"
        try ("1 " + String(repeating: "y", count: 900_000) + " start\n2 end\n").write(toFile: path, atomically: true, encoding: .utf8)
        let outcome = try GymtimerBinary.run(["simulate", "--script", path])
        #expect(outcome.status == 2)
        #expect(outcome.stderr.utf8.count < 300, "\(outcome.stderr.prefix(300))")
        #expect(outcome.stderr.contains("(900000 bytes)"), "the parser's message, cut")
    }
}
