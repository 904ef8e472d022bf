import Foundation
import GymTimerSystem

/// Renders spoken cues to WAV files with espeak-ng (`espeak-ng -w FILE "text"`), run as a
/// child process (`ChildProcess`). Rendering happens once per cue; the caller caches the file.
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
    /// How long one cue may take to render before espeak-ng is killed and tones are used.
    public var timeout: Duration

    public init(program: String = "espeak-ng", wordsPerMinute: Int = 190, voice: String? = nil, timeout: Duration = .seconds(30)) {
        self.program = program
        self.wordsPerMinute = wordsPerMinute
        self.voice = voice
        self.timeout = timeout
    }

    /// Speaks `text` into a WAV file at `file`, replacing it. Blocks until espeak-ng exits, or
    /// kills it after `timeout` (it takes well under a second per cue).
    public func render(_ text: String, to file: URL) throws(Failure) {
        guard let executable = resolve() else { throw .notInstalled(program: program) }
        var arguments = ["-s", String(wordsPerMinute), "-w", file.path]
        if let voice { arguments += ["-v", voice] }
        let outcome: ChildProcess.Outcome
        do {
            outcome = try ChildProcess(executable: executable.path, arguments: arguments + ["--", text], timeout: timeout).run()
        } catch {
            throw .failed(program: program, detail: "\(error)")
        }
        guard outcome.exitCode == 0 else {
            let message = outcome.standardError.trimmingCharacters(in: .whitespacesAndNewlines)
            let ending = outcome.timedOut ? "no answer in \(timeout)" :
                outcome.exitCode.map { "exit status \($0)" } ?? "killed by signal \(outcome.signal ?? 0)"
            throw .failed(program: program, detail: ending + (message.isEmpty ? "" : ": \(message)"))
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
