import Foundation
import GymTimerCore
import Testing
@testable import GymTimerDrivers

@Suite struct WAVReaderTests {
    @Test func readsMono16Bit() throws {
        let samples: [Int16] = [0, 1000, -1000, 32767, -32768]
        let contents = try WAVReader.decode(WAVBytes.mono(samples, sampleRate: 16_000), file: "t.wav")
        #expect(contents.sampleRate == 16_000)
        #expect(contents.samples == samples)
    }

    @Test func readsUnsigned8BitAndAveragesStereo() throws {
        let eight = try WAVReader.decode(WAVBytes.make(frames: [[0], [12800], [-12800]], sampleRate: 8000, bits: 8), file: "8.wav")
        #expect(eight.samples == [0, 12800, -12800])
        let stereo = try WAVReader.decode(WAVBytes.make(frames: [[1000, 3000], [-2000, 0]], sampleRate: 8000), file: "s.wav")
        #expect(stereo.samples == [2000, -1000])
    }

    @Test func skipsOtherChunksAndToleratesAPlaceholderDataSize() throws {
        var bytes = [UInt8](WAVBytes.mono([1, 2, 3], sampleRate: 8000))
        // A "LIST" chunk of odd length (padded) before "fmt ".
        bytes.insert(contentsOf: Array("LIST".utf8) + [3, 0, 0, 0, 9, 9, 9, 0], at: 12)
        let dataSize = bytes.count - 6 - 4
        bytes.replaceSubrange(dataSize..<(dataSize + 4), with: [0xFF, 0xFF, 0xFF, 0xFF])
        #expect(try WAVReader.decode(Data(bytes), file: "l.wav").samples == [1, 2, 3])
    }

    @Test func convertsToTheDeviceRateKeepingPitchAndLength() throws {
        let source = ToneSynthesizer(sampleRate: 22_050).tone(frequency: 440, duration: .seconds(1))
        let url = try temporaryDirectory("wav").appendingPathComponent("tone.wav")
        try WAVBytes.mono(source, sampleRate: 22_050).write(to: url)
        let converted = try WAVReader.read(contentsOf: url, sampleRate: 48_000)
        #expect(converted.count == 48_000)
        #expect(abs(Signal.zeroCrossingFrequency(converted[...], sampleRate: 48_000) - 440) < 5)
    }

    @Test func errorsNameTheFileAndTheProblem() throws {
        func problem(_ data: Data) -> WAVError.Problem? {
            do { _ = try WAVReader.decode(data, file: "/sounds/x.wav"); return nil } catch { return error.problem }
        }
        #expect(problem(Data("hello, not a wav file".utf8)) == .notWAVE)
        #expect(problem(WAVBytes.make(frames: [[0]], sampleRate: 8000, formatTag: 3)) == .unsupportedEncoding(formatTag: 3))
        #expect(problem(WAVBytes.make(frames: [[0]], sampleRate: 8000, bits: 24)) == .unsupportedBitsPerSample(24))
        #expect(problem(WAVBytes.make(frames: [[0, 0, 0]], sampleRate: 8000)) == .unsupportedChannels(3))
        #expect(problem(WAVBytes.make(frames: [], sampleRate: 8000)) == .empty)
        let noData = Data(WAVBytes.mono([1], sampleRate: 8000).prefix(36))
        #expect(problem(noData) == .missingChunk("data"))

        let error = WAVError(file: "/sounds/x.wav", problem: .notWAVE)
        #expect(error.description.contains("/sounds/x.wav"))
        #expect(error.description.contains("not a WAV file"))
    }

    @Test func missingFileIsUnreadable() {
        #expect(throws: WAVError.self) { try WAVReader.read(contentsOf: URL(fileURLWithPath: "/nonexistent/a.wav")) }
        do {
            _ = try WAVReader.read(contentsOf: URL(fileURLWithPath: "/nonexistent/a.wav"))
        } catch {
            guard case .unreadable = error.problem else { Issue.record("unexpected \(error)"); return }
            #expect(error.description.contains("/nonexistent/a.wav"))
        }
    }

    @Test func overrideFileReplacesTheBuiltInSound() throws {
        let directory = try temporaryDirectory("sounds")
        let custom = ToneSynthesizer(sampleRate: 48_000).tone(frequency: 440, duration: .milliseconds(700))
        try WAVBytes.mono(custom, sampleRate: 48_000).write(to: directory.appendingPathComponent("warning.wav"))
        let log = LogLines()
        let library = toneLibrary(soundsDirectory: directory, log: log.sink)
        #expect(library.samples(for: .warning, sampleRate: 48_000) == custom)
        #expect(library.samples(for: .alarm, sampleRate: 48_000) == toneLibrary().samples(for: .alarm, sampleRate: 48_000))
        #expect(log.all.isEmpty)
    }

    @Test func brokenOverrideIsLoggedOnceAndTheBuiltInPlays() throws {
        let directory = try temporaryDirectory("sounds")
        let file = directory.appendingPathComponent("alarm.wav")
        try Data("RIFF....garbage".utf8).write(to: file)
        let log = LogLines()
        let library = toneLibrary(soundsDirectory: directory, log: log.sink)
        #expect(library.samples(for: .alarm, sampleRate: 48_000) == toneLibrary().samples(for: .alarm, sampleRate: 48_000))
        _ = library.samples(for: .alarm, sampleRate: 44_100)
        #expect(log.all.count == 1)
        let line = try #require(log.all.first)
        #expect(line.contains(file.path))
        #expect(line.contains("not a WAV file"))
        #expect(line.contains("built-in"))
    }
}
