import Foundation
import GymTimerHAL
import SystemPackage

/// Reads RIFF/WAVE files (PCM, 8- or 16-bit, mono or stereo, any rate) and converts them to
/// mono Int16 at the output's rate, so sound overrides and cached speech play like built-ins.
public enum WAVReader {
    /// The decoded contents of a WAV file, before conversion.
    public struct Contents: Hashable, Sendable {
        /// Frames per second of the file.
        public var sampleRate: Int
        /// Mono samples (stereo is averaged).
        public var samples: [Int16]
    }

    /// Sample rates accepted in a file (found by fuzzing: an absurd rate made resampling blow up).
    public static let sampleRates = 1000...384_000

    /// Reads the file at `url` and converts it to mono at `sampleRate`.
    public static func read(contentsOf url: URL, sampleRate: Int) throws(WAVError) -> [Int16] {
        let contents = try read(contentsOf: url)
        return resample(contents.samples, from: contents.sampleRate, to: sampleRate)
    }

    /// Reads the file at `url` without converting its rate.
    public static func read(contentsOf url: URL) throws(WAVError) -> Contents {
        let data: Data
        do {
            data = try Data(contentsOf: url)
        } catch {
            throw WAVError(file: url.path, problem: .unreadable(detail: readableReason(error)))
        }
        return try decode(data, file: url.path)
    }

    /// Decodes WAV bytes; `file` names them in errors.
    public static func decode(_ data: Data, file: String) throws(WAVError) -> Contents {
        let bytes = [UInt8](data)
        func fail(_ problem: WAVError.Problem) -> WAVError { WAVError(file: file, problem: problem) }
        guard bytes.count >= 12, bytes[0..<4].elementsEqual("RIFF".utf8), bytes[8..<12].elementsEqual("WAVE".utf8)
        else { throw fail(.notWAVE) }

        var format: (tag: UInt16, channels: Int, rate: Int, bits: Int)?
        var offset = 12
        while offset + 8 <= bytes.count {
            let id = String(decoding: bytes[offset..<offset + 4], as: UTF8.self)
            let declared = Int(le32(bytes, offset + 4))
            let body = offset + 8
            switch id {
            case "fmt ":
                guard declared >= 16, body + 16 <= bytes.count else {
                    throw fail(.malformed(detail: "'fmt ' chunk is shorter than 16 bytes"))
                }
                var tag = le16(bytes, body)
                if tag == 0xFFFE, declared >= 40, body + 26 <= bytes.count {
                    tag = le16(bytes, body + 24) // WAVE_FORMAT_EXTENSIBLE: the sub-format's code
                }
                format = (tag, Int(le16(bytes, body + 2)), Int(le32(bytes, body + 4)), Int(le16(bytes, body + 14)))
            case "data":
                guard let format else { throw fail(.missingChunk("fmt ")) }
                guard format.tag == 1 else { throw fail(.unsupportedEncoding(formatTag: format.tag)) }
                guard format.bits == 8 || format.bits == 16 else { throw fail(.unsupportedBitsPerSample(format.bits)) }
                guard format.channels == 1 || format.channels == 2 else { throw fail(.unsupportedChannels(format.channels)) }
                // A rate far outside audio (e.g. 1 Hz) would make resampling to the output's
                // rate allocate thousands of times the file's size: refuse it as broken.
                guard sampleRates.contains(format.rate) else {
                    throw fail(.malformed(detail: "sample rate \(format.rate) Hz is outside \(sampleRates.lowerBound)…\(sampleRates.upperBound) Hz"))
                }
                // Streaming writers may leave a placeholder size: take what is really there.
                let end = min(bytes.count, body + declared)
                let samples = decodeSamples(bytes[body..<end], bits: format.bits, channels: format.channels)
                guard !samples.isEmpty else { throw fail(.empty) }
                return Contents(sampleRate: format.rate, samples: samples)
            default:
                break
            }
            offset = body + declared + (declared & 1) // chunks are padded to even length
        }
        throw fail(.missingChunk(format == nil ? "fmt " : "data"))
    }

    /// Converts `samples` from one rate to another by linear interpolation (enough for cues).
    public static func resample(_ samples: [Int16], from source: Int, to target: Int) -> [Int16] {
        guard source != target, source > 0, target > 0, !samples.isEmpty else { return samples }
        let count = Int((Double(samples.count) * Double(target) / Double(source)).rounded())
        let ratio = Double(source) / Double(target)
        return (0..<count).map { i in
            let position = Double(i) * ratio
            let index = min(Int(position), samples.count - 1)
            let next = min(index + 1, samples.count - 1)
            let fraction = position - Double(index)
            return Int16((Double(samples[index]) * (1 - fraction) + Double(samples[next]) * fraction).rounded())
        }
    }

    private static func decodeSamples(_ bytes: ArraySlice<UInt8>, bits: Int, channels: Int) -> [Int16] {
        let width = bits / 8
        let frameSize = width * channels
        let frames = bytes.count / frameSize
        let base = bytes.startIndex
        func sample(_ at: Int) -> Int {
            if width == 1 { return (Int(bytes[at]) - 128) << 8 } // 8-bit WAV is unsigned
            return Int(Int16(bitPattern: UInt16(bytes[at]) | UInt16(bytes[at + 1]) << 8))
        }
        return (0..<frames).map { frame in
            let at = base + frame * frameSize
            if channels == 1 { return Int16(sample(at)) }
            return Int16((sample(at) + sample(at + width)) / 2)
        }
    }

    private static func le16(_ bytes: [UInt8], _ at: Int) -> UInt16 {
        UInt16(bytes[at]) | UInt16(bytes[at + 1]) << 8
    }

    private static func le32(_ bytes: [UInt8], _ at: Int) -> UInt32 {
        UInt32(bytes[at]) | UInt32(bytes[at + 1]) << 8 | UInt32(bytes[at + 2]) << 16 | UInt32(bytes[at + 3]) << 24
    }

    private static func readableReason(_ error: any Error) -> String {
        let ns = error as NSError
        if let underlying = ns.userInfo[NSUnderlyingErrorKey] as? NSError, underlying.domain == NSPOSIXErrorDomain {
            return Errno(rawValue: Int32(underlying.code)).text
        }
        return ns.localizedDescription
    }
}
