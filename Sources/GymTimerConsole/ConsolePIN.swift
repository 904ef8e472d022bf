import Foundation

/// The admin PIN that unlocks the console's actions, read from a file only its owner reads.
/// Compared in constant time, so how long a wrong guess takes says nothing of the PIN.
public struct ConsolePIN: Sendable {
    private let bytes: [UInt8]

    /// Why a PIN file was refused, in one line that says what to do.
    public struct Problem: Error, Hashable, Sendable, CustomStringConvertible {
        public var description: String
    }

    /// The shortest PIN accepted: a shorter one is guessed before the lock-out matters.
    public static let minimumLength = 4
    public static let maximumLength = 64

    /// `pin` checked: 4 to 64 printable characters, no spaces.
    public static func checked(_ pin: String) -> Result<ConsolePIN, Problem> {
        let bytes = Array(pin.utf8)
        guard bytes.count >= minimumLength, bytes.count <= maximumLength else {
            return .failure(Problem(description: "the PIN must be \(minimumLength) to \(maximumLength) characters (it has \(bytes.count))"))
        }
        guard bytes.allSatisfy({ $0 > 0x20 && $0 < 0x7F }) else {
            return .failure(Problem(description: "the PIN must be printable ASCII characters without spaces"))
        }
        return .success(ConsolePIN(bytes: bytes))
    }

    /// The PIN on the first line of the file at `path` (trailing spaces and CR dropped).
    public static func read(from path: String) -> Result<ConsolePIN, Problem> {
        guard let handle = FileHandle(forReadingAtPath: path) else {
            return .failure(Problem(description: "--pin-file \(path): cannot be read (create it with: umask 077; echo 1234 > \(path))"))
        }
        defer { try? handle.close() }
        // A PIN is one short line: read no more than a few bytes of whatever the file is.
        let head = (try? handle.read(upToCount: 1024)) ?? Data()
        let line = String(decoding: head, as: UTF8.self).split(separator: "\n", omittingEmptySubsequences: false).first ?? ""
        switch checked(line.trimmingCharacters(in: .whitespacesAndNewlines)) {
        case .success(let pin): return .success(pin)
        case .failure(let problem): return .failure(Problem(description: "--pin-file \(path): \(problem)"))
        }
    }

    /// Whether `guess` is the PIN, in time that depends on the guess's length only.
    public func matches(_ guess: String) -> Bool {
        Self.constantTimeEqual(Array(guess.utf8), bytes)
    }

    /// Whether `a` and `b` are equal, looking at every byte of `a` whatever differs where.
    static func constantTimeEqual(_ a: [UInt8], _ b: [UInt8]) -> Bool {
        var difference = UInt8(truncatingIfNeeded: a.count ^ b.count)
        difference |= UInt8(a.count != b.count ? 1 : 0)
        for index in a.indices {
            difference |= a[index] ^ (b.isEmpty ? 0 : b[index % b.count])
        }
        return difference == 0
    }
}
