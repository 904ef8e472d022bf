/// What one run of the upgrade agent came to, as its last line says it.
public enum UpgradeOutcome: Hashable, Sendable {
    /// A newer package was installed.
    case upgraded(from: String, to: String)
    /// The source offers nothing newer than `version`.
    case upToDate(String)
    /// A newer package waits, and why it was not installed now (outside the window, a rest
    /// counting down…): a later run tries again.
    case notNow(String)
    case failed(UpgradeError)

    public var line: String {
        switch self {
        case .upgraded(let from, let to): return "upgraded gymtimer \(from) → \(to)"
        case .upToDate(let version): return "gymtimer \(version) is the gym's latest"
        case .notNow(let why): return "not upgrading now: \(why)"
        case .failed(let error): return "upgrade failed: \(error)"
        }
    }

    /// Whether the run did what it could (waiting for a better moment is not a failure).
    public var succeeded: Bool {
        if case .failed = self { return false }
        return true
    }
}
