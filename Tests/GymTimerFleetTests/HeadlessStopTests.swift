import Foundation
import GymTimerDrivers
import Testing

#if canImport(Glibc)
import Glibc
#endif

/// A SIGTERM to a headless station (`gymtimer simulate --headless`, the kiosk's loop on
/// simulated devices) mid-rest: the one stop path (the stop signals wake the loop's blocking
/// point, the loop ends, the teardown runs) exits 0 with the running state saved, so the
/// station started again resumes the rest. The collector's SIGTERM is `HeadlessStationTests`'
/// and `CollectorRaceTests`', the console's the browser test's, `run`'s the VM test's.
@Suite(.serialized) struct HeadlessStopTests {
    let directory: String
    /// The `gymtimer` binary beside the test bundle.
    let gymtimer = URL(fileURLWithPath: CommandLine.arguments[0]).deletingLastPathComponent().appendingPathComponent("gymtimer").path

    init() throws {
        var template = Array((NSTemporaryDirectory() + "headless-stop-XXXXXX").utf8CString)
        directory = String(cString: mkdtemp(&template)!)
    }

    func station(_ output: String) throws -> RunningProcess {
        let config = "\(directory)/station.toml"
        try "[rest]\ndefault_seconds = 60\n".write(toFile: config, atomically: true, encoding: .utf8)
        return try RunningProcess(
            gymtimer, ["simulate", "--headless", "--config", config, "--data-dir", "\(directory)/data"],
            stdout: "\(directory)/\(output).jsonl", stderr: "\(directory)/\(output).log", pipeInput: true)
    }

    func read(_ name: String) -> String {
        (try? String(contentsOfFile: "\(directory)/\(name)", encoding: .utf8)) ?? ""
    }

    func eventually(_ seconds: Double = 15, _ condition: () -> Bool) -> Bool {
        let end = Date().addingTimeInterval(seconds)
        while Date() < end {
            if condition() { return true }
            usleep(20_000)
        }
        return condition()
    }

    @Test func aSIGTERMMidRestEndsTheStationCleanlyWithItsStateSaved() throws {
        let first = try station("first")
        first.send("0 click start")
        let resting = eventually {
            read("first.jsonl").split(separator: "\n").contains { line in
                [#""device":"led""#, #""name":"rest""#, #""on":true"#].allSatisfy { line.contains($0) }
            }
        }
        #expect(resting, "the rest began: \(read("first.jsonl"))")
        first.signal(SIGTERM)
        #expect(first.wait(upTo: 10) == 0, "SIGTERM -> exit 0: \(read("first.log"))")
        #expect(FileManager.default.fileExists(atPath: "\(directory)/data/state.journal"), "the running state is saved")
        let second = try station("second")
        #expect(eventually { read("second.log").contains("headless: resumed from") }, "the rest resumes: \(read("second.log"))")
        second.signal(SIGTERM)
        #expect(second.wait(upTo: 10) == 0, "SIGTERM -> exit 0: \(read("second.log"))")
    }
}
