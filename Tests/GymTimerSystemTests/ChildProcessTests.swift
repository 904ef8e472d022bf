import Testing
@testable import GymTimerSystem

@Suite struct ChildProcessTests {
    private func shell(_ script: String, timeout: Duration? = nil) throws -> ChildProcess.Outcome {
        try ChildProcess(executable: "/bin/sh", arguments: ["-c", script], timeout: timeout).run()
    }

    @Test func reportsExitCodeAndStandardError() throws {
        let outcome = try shell("echo to-stdout; echo 'no voice' >&2; exit 3")
        #expect(outcome.exitCode == 3)
        #expect(outcome.signal == nil)
        #expect(outcome.standardError == "no voice\n")
        #expect(outcome.timedOut == false)
    }

    @Test func reportsTheSignalThatEndedIt() throws {
        let outcome = try shell("kill -SEGV $$")
        #expect(outcome.exitCode == nil)
        #expect(outcome.signal == 11)
    }

    @Test func passesArgumentsAndEnvironmentExactly() throws {
        let child = ChildProcess(
            executable: "/bin/sh", arguments: ["-c", "printf '%s|%s|%s' \"$1\" \"$2\" \"$CUE\" >&2", "sh", "a b", "--"],
            environment: ["CUE": "Set 1, go"])
        let outcome = try child.run()
        #expect(outcome.exitCode == 0)
        #expect(outcome.standardError == "a b|--|Set 1, go")
    }

    @Test func standardInputIsEmpty() throws {
        // A helper that reads its input must not wait on the kiosk's terminal or journal socket.
        let outcome = try shell("cat; echo done >&2")
        #expect(outcome.standardError == "done\n")
    }

    @Test func killsAChildThatOutlivesItsTimeout() throws {
        let outcome = try shell("exec sleep 600", timeout: .milliseconds(50))
        #expect(outcome.timedOut)
        #expect(outcome.signal == 9)
    }

    @Test func capsWhatItKeepsOfStandardError() throws {
        let outcome = try shell("head -c 200000 /dev/zero | tr '\\0' x >&2")
        #expect(outcome.exitCode == 0)
        #expect(outcome.standardError.utf8.count == 64 * 1024)
    }

    @Test func aMissingProgramIsASpawnErrorNamingIt() {
        #expect(throws: ChildProcess.SpawnError(executable: "/nonexistent/espeak-ng", errno: 2)) {
            try ChildProcess(executable: "/nonexistent/espeak-ng").run()
        }
        #expect(ChildProcess.SpawnError(executable: "/x", errno: 2).description == "cannot start /x: No such file or directory")
    }
}
