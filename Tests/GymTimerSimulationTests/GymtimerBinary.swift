import Foundation
import GymTimerHistory

/// The built `gymtimer` binary, run as a real process on real files, for the fault tests.
enum GymtimerBinary {
    static let root = URL(fileURLWithPath: #filePath).deletingLastPathComponent().deletingLastPathComponent().deletingLastPathComponent()
    /// The binary under test: `GYMTIMER_BINARY` if set (to run these tests against another
    /// build, e.g. to see them fail on one without the fixes), else the one built beside these
    /// tests (debug or release, whichever `swift test` runs).
    static let path = ProcessInfo.processInfo.environment["GYMTIMER_BINARY"] ?? builtBeside("gymtimer")

    /// `program` in the folder of the running test bundle, where SwiftPM puts the package's
    /// executables of the same build.
    static func builtBeside(_ program: String) -> String {
        let bundle = (try? FileManager.default.destinationOfSymbolicLink(atPath: "/proc/self/exe")) ?? CommandLine.arguments[0]
        return URL(fileURLWithPath: bundle).deletingLastPathComponent().appendingPathComponent(program).path
    }
    static var isBuilt: Bool { FileManager.default.isExecutableFile(atPath: path) }

    /// What one run printed and how it ended.
    struct Outcome {
        var status: Int32
        var stdout: String
        var stderr: String
    }

    /// Runs `gymtimer ARGUMENTS...` (or another `executable`) to its end.
    static func run(_ arguments: [String], executable: String = path) throws -> Outcome {
        let process = Process()
        process.executableURL = URL(fileURLWithPath: executable)
        process.arguments = arguments
        let out = Pipe()
        // stderr to a file, so neither output can fill a pipe and stall the child.
        let errPath = FileManager.default.temporaryDirectory.appendingPathComponent("gymtimer-err-\(UUID().uuidString)").path
        _ = FileManager.default.createFile(atPath: errPath, contents: nil)
        defer { try? FileManager.default.removeItem(atPath: errPath) }
        let err = try FileHandle(forWritingTo: URL(fileURLWithPath: errPath))
        process.standardOutput = out
        process.standardError = err
        process.standardInput = FileHandle.nullDevice
        try process.run()
        let outData = out.fileHandleForReading.readDataToEndOfFile()
        process.waitUntilExit()
        try err.close()
        let errData = FileManager.default.contents(atPath: errPath) ?? Data()
        return Outcome(
            status: process.terminationStatus, stdout: String(decoding: outData, as: UTF8.self),
            stderr: String(decoding: errData, as: UTF8.self))
    }

    /// `gymtimer simulate` of `script` under `config` on `dataDir`.
    static func simulate(_ script: String, config: String = "", dataDir: String, in files: String) throws -> Outcome {
        try script.write(toFile: files + "/script.txt", atomically: true, encoding: .utf8)
        try config.write(toFile: files + "/config.toml", atomically: true, encoding: .utf8)
        return try run([
            "simulate", "--script", files + "/script.txt", "--config", files + "/config.toml", "--data-dir", dataDir,
        ])
    }

    /// The ids of the workouts stored in `dataDir`'s history.
    static func recordIDs(in dataDir: String) throws -> [String] {
        try HistoryStore.reading(path: dataDir + "/history.sqlite").workouts().map(\.id)
    }

    /// Interval workouts of 20 s that end and are recorded by themselves.
    static let intervalConfig = """
        mode = "interval"
        [interval]
        phase_seconds = 5
        sets = 2
        """

    /// `count` interval workouts, 30 s apart, then the end.
    static func intervalScript(workouts count: Int) -> String {
        (0..<count).map { "\(1 + $0 * 30) click start\n\(25 + $0 * 30) click dismiss\n" }.joined() + "\(count * 30 + 10) end\n"
    }
}

/// A fresh directory under the system's temporary one, removed at the end.
final class ScratchDirectory {
    let path: String

    init() throws {
        path = FileManager.default.temporaryDirectory.appendingPathComponent("gymtimer-fault-\(UUID().uuidString.prefix(8))").path
        try FileManager.default.createDirectory(atPath: path, withIntermediateDirectories: true)
    }

    deinit { try? FileManager.default.removeItem(atPath: path) }
}
