import Foundation
import Testing

/// ARCHITECTURE.md's Runtime invariant, kept: Runtime holds the event loop and the contracts it runs
/// on, and stays under 600 lines; what grows elsewhere (stores, services, set-up) lives in the
/// layer it belongs to.
@Suite struct RuntimeSizeTests {
    @Test func runtimeStaysUnder600Lines() throws {
        let sources = URL(fileURLWithPath: #filePath).deletingLastPathComponent()
            .appendingPathComponent("../../Sources/GymTimerRuntime").standardizedFileURL
        let files = try #require(FileManager.default.enumerator(atPath: sources.path)).compactMap { $0 as? String }
            .filter { $0.hasSuffix(".swift") }
        var lines = 0
        for file in files {
            let text = try String(contentsOf: sources.appendingPathComponent(file), encoding: .utf8)
            lines += text.split(separator: "\n", omittingEmptySubsequences: false).count - (text.hasSuffix("\n") ? 1 : 0)
        }
        #expect(!files.isEmpty)
        #expect(lines < 600, "Sources/GymTimerRuntime has \(lines) lines: move what is not the loop out")
    }
}
