import Foundation

/// Who may act on the console: sessions opened with the PIN, each with its own anti-forgery
/// token, and a lock-out after repeated wrong PINs. Pure (time is given); `ConsoleServer`
/// keeps one behind a lock.
public struct ConsoleSessions: Sendable {
    /// One logged-in browser.
    public struct Session: Hashable, Sendable {
        /// The cookie's value: 32 random bytes as hex.
        public var id: String
        /// The token the page sends back with every action (in the page, never in a cookie).
        public var csrf: String
        public var expires: Double
    }

    /// How long a session lasts from its login: a coach's day.
    public static let lifetime = 12 * 3600.0
    /// Wrong PINs allowed in a row before the console refuses every PIN for `lockout` seconds.
    public static let allowedFailures = 5
    public static let lockout = 60.0
    /// The most sessions kept; the oldest goes first.
    public static let maximumSessions = 64

    private(set) var sessions: [String: Session] = [:]
    private var failures = 0
    private var lockedUntil = 0.0
    private let random: @Sendable () -> String

    /// `random` gives a fresh unguessable token each call (`ConsoleSessions.token()` in use).
    public init(random: @escaping @Sendable () -> String = ConsoleSessions.token) {
        self.random = random
    }

    /// What a login attempt came to.
    public enum Login: Hashable, Sendable {
        case opened(Session)
        case wrongPIN
        /// Too many wrong PINs: none is looked at for `seconds` more.
        case lockedOut(seconds: Int)
    }

    /// Checks `guess` against `pin` at `now` and opens a session if it matches.
    public mutating func login(_ guess: String, pin: ConsolePIN, now: Double) -> Login {
        if now < lockedUntil { return .lockedOut(seconds: Int((lockedUntil - now).rounded(.up))) }
        guard pin.matches(guess) else {
            failures += 1
            if failures >= Self.allowedFailures {
                failures = 0
                lockedUntil = now + Self.lockout
            }
            return .wrongPIN
        }
        failures = 0
        sessions = sessions.filter { $0.value.expires > now }
        if sessions.count >= Self.maximumSessions, let oldest = sessions.values.min(by: { $0.expires < $1.expires }) {
            sessions[oldest.id] = nil
        }
        let session = Session(id: random(), csrf: random(), expires: now + Self.lifetime)
        sessions[session.id] = session
        return .opened(session)
    }

    /// The live session whose cookie is `id`, if any.
    public func session(_ id: String?, now: Double) -> Session? {
        guard let id, let session = sessions[id], session.expires > now else { return nil }
        return session
    }

    /// Ends the session `id`.
    public mutating func logout(_ id: String?) {
        if let id { sessions[id] = nil }
    }

    /// 32 bytes from the system's random source, as 64 hex digits.
    public static func token() -> String {
        var generator = SystemRandomNumberGenerator()
        return (0..<32).map { _ in String(format: "%02x", UInt8.random(in: 0...255, using: &generator)) }.joined()
    }
}
