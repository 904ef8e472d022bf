import Foundation

/// Renders spoken cues to WAV files with espeak-ng (`espeak-ng -w FILE "text"`), run as a
/// separate process. Rendering happens once per cue; the caller caches the file.
public struct SpeechSynthesizer: Sendable {
    /// Why speech could not be rendered.
    public enum Failure: Error, Hashable, Sendable, CustomStringConvertible {
        /// No espeak-ng executable was found.
        case notInstalled(program: String)
        /// espeak-ng ran but failed or wrote nothing.
        case failed(program: String, detail: String)

        public var description: String {
            switch self {
            case .notInstalled(let program):
                return "\(program) is not installed (sudo apt-get install espeak-ng); spoken cues use tones instead"
            case .failed(let program, let detail):
                return "\(program) failed: \(detail); spoken cues use tones instead"
            }
        }
    }

    /// The program to run: a path, or a name looked up in PATH.
    public var program: String
    /// Words per minute; a little faster than espeak's 175 so "Set 12 completing in 3, 2, 1"
    /// fits the cue's length.
    public var wordsPerMinute: Int
    /// Voice name passed with -v, or nil for espeak's default.
    public var voice: String?

    public init(program: String = "espeak-ng", wordsPerMinute: Int = 190, voice: String? = nil) {
        self.program = program
        self.wordsPerMinute = wordsPerMinute
        self.voice = voice
    }

    /// Speaks `text` into a WAV file at `file`, replacing it. Blocks until espeak-ng exits.
    public func render(_ text: String, to file: URL) throws(Failure) {
        guard let executable = resolve() else { throw .notInstalled(program: program) }
        let process = Process()
        process.executableURL = executable
        var arguments = ["-s", String(wordsPerMinute), "-w", file.path]
        if let voice { arguments += ["-v", voice] }
        process.arguments = arguments + ["--", text]
        let errors = Pipe()
        process.standardError = errors
        process.standardOutput = FileHandle.nullDevice
        do {
            try process.run()
        } catch {
            throw .failed(program: program, detail: "cannot start: \(error.localizedDescription)")
        }
        let message = errors.fileHandleForReading.readDataToEndOfFile()
        process.waitUntilExit()
        guard process.terminationStatus == 0 else {
            let text = String(decoding: message, as: UTF8.self).trimmingCharacters(in: .whitespacesAndNewlines)
            throw .failed(program: program, detail: "exit status \(process.terminationStatus)\(text.isEmpty ? "" : ": \(text)")")
        }
    }

    /// The executable's URL: `program` itself if it contains a slash, else the first match in PATH.
    func resolve() -> URL? {
        let manager = FileManager.default
        if program.contains("/") {
            return manager.isExecutableFile(atPath: program) ? URL(fileURLWithPath: program) : nil
        }
        let path = ProcessInfo.processInfo.environment["PATH"] ?? "/usr/local/bin:/usr/bin:/bin"
        for directory in path.split(separator: ":") {
            let candidate = "\(directory)/\(program)"
            if manager.isExecutableFile(atPath: candidate) { return URL(fileURLWithPath: candidate) }
        }
        return nil
    }
}
