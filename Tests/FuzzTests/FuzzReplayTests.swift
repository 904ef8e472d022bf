import Foundation
import FuzzCommand
import FuzzConfig
import FuzzScript
import FuzzWAV
import Testing

/// Replays every checked-in fuzz input — the seeds and each crash the fuzzers found, kept
/// once fixed — through the same entry points libFuzzer calls (scripts/fuzz.sh), so a fixed
/// crash stays fixed in every `swift test`.
@Suite struct FuzzReplayTests {
    static let corpus = URL(fileURLWithPath: #filePath).deletingLastPathComponent().appendingPathComponent("Corpus")

    static func inputs(_ target: String) -> [URL] {
        let directory = corpus.appendingPathComponent(target)
        let names = (try? FileManager.default.contentsOfDirectory(atPath: directory.path)) ?? []
        return names.sorted().map { directory.appendingPathComponent($0) }
    }

    static func replay(_ file: URL, _ entry: (UnsafePointer<UInt8>?, Int) -> CInt) throws {
        let bytes = [UInt8](try Data(contentsOf: file))
        _ = bytes.withUnsafeBufferPointer { entry($0.baseAddress, $0.count) }
    }

    @Test(arguments: inputs("FuzzScript")) func scriptInputs(_ file: URL) throws {
        try Self.replay(file, fuzzScriptOneInput)
    }

    @Test(arguments: inputs("FuzzConfig")) func configInputs(_ file: URL) throws {
        try Self.replay(file, fuzzConfigOneInput)
    }

    @Test(arguments: inputs("FuzzWAV")) func wavInputs(_ file: URL) throws {
        try Self.replay(file, fuzzWAVOneInput)
    }

    @Test(arguments: inputs("FuzzCommand")) func commandInputs(_ file: URL) throws {
        try Self.replay(file, fuzzCommandOneInput)
    }

    @Test func everyTargetHasInputs() {
        for target in ["FuzzScript", "FuzzConfig", "FuzzWAV", "FuzzCommand"] {
            #expect(!Self.inputs(target).isEmpty, "\(target) has no corpus")
        }
    }
}
