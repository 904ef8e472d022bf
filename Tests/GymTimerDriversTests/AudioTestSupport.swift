import Foundation
import GymTimerCore
import GymTimerDrivers
import GymTimerHAL
import Synchronization
import GymTimerTestSupport

/// Signal analysis for the audio tests (the Hardware tests use it too).
typealias Signal = AudioSignal

/// Builds WAV bytes for tests.
enum WAVBytes {
    static func make(
        frames: [[Int]], sampleRate: Int, bits: Int = 16, formatTag: UInt16 = 1
    ) -> Data {
        let channels = frames.first?.count ?? 1
        var body: [UInt8] = []
        for frame in frames {
            for value in frame {
                if bits == 8 { body.append(UInt8(clamping: value / 256 + 128)) } else {
                    body += le(UInt32(UInt16(bitPattern: Int16(clamping: value))), 2)
                }
            }
        }
        var bytes: [UInt8] = Array("RIFF".utf8) + le(UInt32(36 + body.count), 4) + Array("WAVE".utf8)
        bytes += Array("fmt ".utf8) + le(16, 4) + le(UInt32(formatTag), 2) + le(UInt32(channels), 2)
        bytes += le(UInt32(sampleRate), 4) + le(UInt32(sampleRate * channels * bits / 8), 4)
        bytes += le(UInt32(channels * bits / 8), 2) + le(UInt32(bits), 2)
        bytes += Array("data".utf8) + le(UInt32(body.count), 4) + body
        return Data(bytes)
    }

    static func mono(_ samples: [Int16], sampleRate: Int) -> Data {
        make(frames: samples.map { [Int($0)] }, sampleRate: sampleRate)
    }

    private static func le(_ value: UInt32, _ count: Int) -> [UInt8] {
        (0..<count).map { UInt8(truncatingIfNeeded: value >> (8 * $0)) }
    }
}

/// Collects log lines from any thread.
final class LogLines: Sendable {
    private let lines = Mutex<[String]>([])
    var all: [String] { lines.withLock { $0 } }
    var sink: @Sendable (String) -> Void { { line in self.lines.withLock { $0.append(line) } } }
}

/// A time source the test moves by hand.
final class ManualTime: Sendable {
    private let base = ContinuousClock.now
    private let offset = Mutex<Duration>(.zero)
    func advance(_ duration: Duration) { offset.withLock { $0 += duration } }
    var now: @Sendable () -> ContinuousClock.Instant { { self.base + self.offset.withLock { $0 } } }
}

/// A fresh temporary directory.
func temporaryDirectory(_ label: String) throws -> URL {
    let url = FileManager.default.temporaryDirectory.appendingPathComponent("gymtimer-\(label)-\(UUID().uuidString)")
    try FileManager.default.createDirectory(at: url, withIntermediateDirectories: true)
    return url
}

/// A library with tones only (no espeak-ng), so tests behave alike with or without it.
func toneLibrary(volume: Int = 100, soundsDirectory: URL? = nil, log: @escaping @Sendable (String) -> Void = { _ in }) -> SoundLibrary {
    SoundLibrary(configuration: .init(volume: volume, soundsDirectory: soundsDirectory, speech: nil), log: log)
}
