/// Why a WAV file could not be used, naming the file so the log line says what to fix.
public struct WAVError: Error, Hashable, Sendable, CustomStringConvertible {
    /// What is wrong with the file.
    public enum Problem: Hashable, Sendable {
        /// The file could not be read at all (missing, unreadable); `detail` is the OS's reason.
        case unreadable(detail: String)
        /// It does not start with a RIFF/WAVE header.
        case notWAVE
        /// A required chunk ("fmt " or "data") is missing.
        case missingChunk(String)
        /// The header is cut short or inconsistent.
        case malformed(detail: String)
        /// Not plain PCM (e.g. compressed or floating point); `formatTag` is the WAV format code.
        case unsupportedEncoding(formatTag: UInt16)
        /// Sample size other than 8 or 16 bits.
        case unsupportedBitsPerSample(Int)
        /// Channel count other than 1 or 2.
        case unsupportedChannels(Int)
        /// The data chunk holds no samples.
        case empty
    }

    /// The file's path (or another name for in-memory data).
    public var file: String
    public var problem: Problem

    public init(file: String, problem: Problem) {
        self.file = file
        self.problem = problem
    }

    public var description: String {
        let what: String
        switch problem {
        case .unreadable(let detail): what = "cannot be read (\(detail))"
        case .notWAVE: what = "is not a WAV file (no RIFF/WAVE header)"
        case .missingChunk(let id): what = "has no '\(id)' chunk"
        case .malformed(let detail): what = "is malformed: \(detail)"
        case .unsupportedEncoding(let tag):
            what = "uses encoding \(tag), not PCM: save it as 16-bit PCM WAV"
        case .unsupportedBitsPerSample(let bits):
            what = "has \(bits)-bit samples: save it as 8- or 16-bit PCM WAV"
        case .unsupportedChannels(let count):
            what = "has \(count) channels: save it as mono or stereo"
        case .empty: what = "holds no samples"
        }
        return "WAV file \(file) \(what)"
    }
}
