import Foundation
import GymTimerHistory
import GymTimerRuntime
import Testing

/// The real kiosk path marks a record's date with the clock's synchronisation (issue #24):
/// `simulate --headless` (the same data directory as `run`) records an interval workout, and
/// the history says what adjtimex says of this machine's clock, `gymtimer history` marking the
/// time with `?` when it is not synchronised.
@Suite struct RecordClockMarkTests {
    @Test func aHeadlessRecordCarriesTheClocksSynchronisation() throws {
        try #require(GymtimerBinary.isBuilt, "build first: swift build")
        let files = try ScratchDirectory()
        try "mode = \"interval\"\n[interval]\nphase_seconds = 1\nsets = 1\n"
            .write(toFile: files.path + "/config.toml", atomically: true, encoding: .utf8)
        // Read from a file: every line at once, each time counted from then; the end at 5 s.
        try "0.2 click start\n5 end\n".write(toFile: files.path + "/script.txt", atomically: true, encoding: .utf8)
        let process = Process()
        process.executableURL = URL(fileURLWithPath: "/usr/bin/timeout")
        process.arguments = [
            "-s", "KILL", "60", GymtimerBinary.path, "simulate", "--headless", "--config", files.path + "/config.toml",
            "--data-dir", files.path + "/data",
        ]
        process.standardInput = FileHandle(forReadingAtPath: files.path + "/script.txt")
        process.standardOutput = FileHandle.nullDevice
        process.standardError = FileHandle.nullDevice
        let before = ClockReading.now().synchronised
        try process.run()
        process.waitUntilExit()
        #expect(process.terminationStatus == 0)
        let after = ClockReading.now().synchronised
        try #require(before == after, "the clock's synchronisation changed during the test; nothing to compare")

        let records = try HistoryStore.reading(path: files.path + "/data/history.sqlite").workouts()
        #expect(records.map(\.clockSynchronised) == [after], "one interval workout, marked as the clock was")
        let table = try GymtimerBinary.run(["history", "--db", files.path + "/data/history.sqlite"])
        #expect(table.status == 0)
        #expect(table.stdout.contains("? recorded before the kiosk's clock was synchronised") == !after, "\(table.stdout)")
    }
}
