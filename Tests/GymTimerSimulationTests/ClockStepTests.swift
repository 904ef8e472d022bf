import Foundation
import Glibc
import GymTimerTestSupport
import Testing

/// A Pi's wall clock is wrong at boot and steps when NTP synchronises (issue #24). The real
/// `gymtimer simulate --headless` (the same restore as `run`) under libfaketime (Debian's
/// `faketime`; the monotonic clocks left alone, as a step leaves them): a rest begun on a clock
/// 10 h behind or ahead, killed, and restarted on a clock that stepped, resumes with the time
/// that really passed, within the same boot.
@Suite(.serialized, .enabled(if: faketime.runs, "apt-get install faketime"), faketime)
struct ClockStepTests {
    static let config = "[rest]\ndefault_seconds = 120\n"

    /// Runs headless on `files` under a wall clock `offset` away (faketime's syntax, "+0" for
    /// none), fed `script`. With `killWhen`, SIGKILLs it `grace` seconds after its trace first
    /// satisfies it (watched on disk, so a loaded machine's slow start is waited for, not cut
    /// short); otherwise lets it end by itself. 90 s is the backstop either way. Returns its trace.
    func headless(
        _ files: ScratchDirectory, offset: String, script: String,
        killWhen: ((String) -> Bool)? = nil, grace: Double = 0
    ) throws -> String {
        let config = files.path + "/config.toml"
        try Self.config.write(toFile: config, atomically: true, encoding: .utf8)
        let process = Process()
        // `timeout` is the backstop, and the kill goes to its process group (it makes one of
        // its own). It also starts gymtimer as a child: a Swift binary started straight under
        // libfaketime has been seen to lose its arguments.
        process.executableURL = URL(fileURLWithPath: "/usr/bin/timeout")
        process.arguments = [
            "-s", "KILL", "90", GymtimerBinary.path, "simulate", "--headless", "--config", config,
            "--data-dir", files.path + "/data",
        ]
        var environment = ProcessInfo.processInfo.environment
        environment["LD_PRELOAD"] = LibFaketime.path ?? ""
        environment["FAKETIME"] = offset
        environment["FAKETIME_DONT_FAKE_MONOTONIC"] = "1"
        process.environment = environment
        let trace = files.path + "/trace-\(UUID().uuidString.prefix(6)).jsonl"
        _ = FileManager.default.createFile(atPath: trace, contents: nil)
        let output = try FileHandle(forWritingTo: URL(fileURLWithPath: trace))
        defer { try? output.close() }
        let input = Pipe()
        process.standardInput = input
        process.standardOutput = output
        process.standardError = output
        try process.run()
        input.fileHandleForWriting.write(Data(script.utf8))
        if let killWhen {
            let read = { (try? String(contentsOfFile: trace, encoding: .utf8)) ?? "" }
            while process.isRunning && !killWhen(read()) { usleep(50_000) }
            usleep(UInt32(grace * 1_000_000))
            if process.isRunning { kill(-process.processIdentifier, SIGKILL) }
        }
        process.waitUntilExit()
        try? input.fileHandleForWriting.close()
        return (try? String(contentsOfFile: trace, encoding: .utf8)) ?? ""
    }

    /// The seconds the first countdown of `trace` shows ("0157" is 117), nil when none.
    func firstTime(_ trace: String) -> Int? {
        for line in trace.split(separator: "\n") where line.contains("\"device\":\"display\"") {
            guard let range = line.range(of: "\"text\":\""), line.contains("\"colon\":true") else { continue }
            let text = line[range.upperBound...].prefix(4)
            guard let minutes = Int(text.prefix(2)), let seconds = Int(text.suffix(2)) else { continue }
            return minutes * 60 + seconds
        }
        return nil
    }

    /// A rest started under `before`, killed 1.5 s after it shows, restarted under `after`: it
    /// goes on with what is left of its 120 s (not ended, not 99:59, not started again). A first run on a
    /// clock 10 h off is also what a run whose clock stepped while it ran saves: its loop runs
    /// on the monotonic clock and never sees the step; ±10 h in the second run is a step while
    /// stopped. (`ClockTrustTests` has the same with injected readings.)
    @Test(arguments: [("-10h", "+0"), ("+10h", "+0"), ("+0", "+10h"), ("+0", "-10h")])
    func aRestResumesWithTheTimeThatPassedWhateverTheWallClockDid(before: String, after: String) throws {
        let files = try ScratchDirectory()
        let first = try headless(
            files, offset: before, script: "0.3 click start\n", killWhen: { firstTime($0) != nil }, grace: 1.5)
        #expect(firstTime(first) == 120, "the first run showed the rest's 02:00: \(first.prefix(3000))")
        let second = try headless(files, offset: after, script: "1 end\n")
        let left = try #require(firstTime(second), "the restart shows a time: \(second.prefix(300))")
        // At least 1.5 s passed; under 60 s even on a loaded machine (a rest ended or started
        // again would show 0 or 120).
        #expect(left > 60 && left < 120, "the rest resumed with \(left) s left (clock \(before) then \(after))")
        #expect(second.contains("\"name\":\"rest\",\"on\":true"), "the rest LED is lit: \(second.prefix(400))")
    }
}

/// Debian's libfaketime, preloaded into gymtimer itself (the `faketime` wrapper would run it as
/// a child, out of reach of the test's SIGKILL); nil when not installed.
enum LibFaketime {
    static let path: String? = {
        let lib = "/usr/lib"
        return (try? FileManager.default.contentsOfDirectory(atPath: lib))?
            .map { "\(lib)/\($0)/faketime/libfaketime.so.1" }.first { FileManager.default.fileExists(atPath: $0) }
    }()
}

/// libfaketime, which the clock-step tests run the binary under.
private let faketime = MachineRequirement(LibFaketime.path != nil, "no libfaketime on this machine (apt-get install faketime)")
