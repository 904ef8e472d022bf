import Foundation
import Testing

/// What a test needs of the machine it runs on (root, a tool such as faketime or espeak-ng).
///
/// On a developer's machine a test whose need is not met is skipped, saying why. Under CI
/// (`CI` set, and not "false") it is never skipped: it fails with the reason, as the test
/// command's stages do (scripts/lib/stages.sh), so that a machine missing a tool cannot pass by
/// running less. Use both traits together:
///
///     @Test(.enabled(if: MachineRequirement.root.runs, "needs root"), MachineRequirement.root)
public struct MachineRequirement: TestTrait, SuiteTrait, Sendable {
    /// Whether the machine has what the test needs.
    public let isMet: Bool
    /// What is missing, and what provides it.
    public let why: String

    public init(_ isMet: Bool, _ why: String) {
        self.isMet = isMet
        self.why = why
    }

    /// True when the test command runs under CI, where nothing may be skipped.
    public static var underCI: Bool {
        let value = ProcessInfo.processInfo.environment["CI"] ?? ""
        return !value.isEmpty && value != "false"
    }

    /// Whether a test with this requirement runs: when it is met, and always under CI.
    public var runs: Bool { isMet || Self.underCI }

    public var isRecursive: Bool { true }

    /// Under CI, an unmet requirement is the test's failure, with the reason.
    public func prepare(for test: Test) async throws {
        if !isMet { throw CannotRunUnderCI(why: why) }
    }

    /// Root, for tmpfs mounts and chroots.
    public static let root = MachineRequirement(getuid() == 0, "needs root (to mount a small tmpfs)")

    /// A program on PATH (or at an absolute path), e.g. `faketime`'s library or `espeak-ng`.
    public static func tool(_ name: String, installedBy package: String) -> MachineRequirement {
        let found = name.hasPrefix("/")
            ? FileManager.default.isExecutableFile(atPath: name)
            : (ProcessInfo.processInfo.environment["PATH"] ?? "/usr/bin:/bin").split(separator: ":")
                .contains { FileManager.default.isExecutableFile(atPath: "\($0)/\(name)") }
        return MachineRequirement(found, "no \(name) on this machine (apt-get install \(package))")
    }
}

/// The error a test fails with under CI when the machine lacks what it needs.
public struct CannotRunUnderCI: Error, CustomStringConvertible {
    public let why: String
    public var description: String { "cannot run under CI: \(why)" }
}
