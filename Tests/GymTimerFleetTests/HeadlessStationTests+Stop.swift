import Foundation
import GymTimerSystem
import Testing

#if canImport(Glibc)
import Glibc
#endif

/// A SIGTERM to a headless station (`gymtimer simulate --headless`, the kiosk's loop on
/// simulated devices) mid-rest: the one stop path (the stop signals wake the loop's blocking
/// point, the loop ends, the teardown runs) exits 0 with the running state saved, so the
/// station started again resumes the rest. The collector's SIGTERM is tested beside it
/// (`HeadlessStationTests`, `CollectorRaceTests`), the console's in the browser test, `run`'s
/// in the VM test.
extension HeadlessStationTests {
    /// A station with no fleet on the data directory `data`, stdin a pipe; its trace and log
    /// are `output` `.jsonl` and `.log`.
    func stoppable(_ output: String) throws -> RunningProcess {
        let config = "\(directory)/stoppable.toml"
        try "[rest]\ndefault_seconds = 60\n".write(toFile: config, atomically: true, encoding: .utf8)
        return try RunningProcess(
            gymtimer, ["simulate", "--headless", "--config", config, "--data-dir", "\(directory)/data"],
            stdout: "\(directory)/\(output).jsonl", stderr: "\(directory)/\(output).log", pipeInput: true)
    }

    @Test func aSIGTERMMidRestEndsTheStationCleanlyWithItsStateSaved() throws {
        func read(_ name: String) -> String {
            (try? String(contentsOfFile: "\(directory)/\(name)", encoding: .utf8)) ?? ""
        }
        let first = try stoppable("first")
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
        let second = try stoppable("second")
        #expect(eventually { read("second.log").contains("headless: resumed from") }, "the rest resumes: \(read("second.log"))")
        second.signal(SIGTERM)
        #expect(second.wait(upTo: 10) == 0, "SIGTERM -> exit 0: \(read("second.log"))")
    }
}
