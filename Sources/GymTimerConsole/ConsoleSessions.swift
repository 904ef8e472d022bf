import Foundation

/// Who may act on the console: sessions opened with the PIN, each with its own anti-forgery
/// token, and lock-outs after repeated wrong PINs. Pure (time is given); `ConsoleGate` keeps
/// one behind a lock.
///
/// On a Wi-Fi that members and guests share, one guesser must not keep the coach out. Wrong
/// PINs count per client address: five in a row lock out that address only, for a minute. A
/// guesser with many addresses is held by a limit on every address's wrong PINs together (20
/// in 10 minutes), which locks out only addresses that have never opened a session: a device
/// the coach has logged in from before (in the last 12 hours) may always try.
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
    /// Wrong PINs allowed in a row from one address before it is refused for `lockout` seconds.
    public static let allowedFailures = 5
    public static let lockout = 60.0
    /// Wrong PINs from all addresses together within `floodWindow` seconds before addresses
    /// that never opened a session are refused until the window has room again.
    public static let floodFailures = 20
    public static let floodWindow = 600.0
    /// The most sessions kept; the oldest goes first.
    public static let maximumSessions = 64
    /// The most client addresses remembered (wrong PINs, past logins); the stalest goes first.
    public static let maximumClients = 1024

    private(set) var sessions: [String: Session] = [:]
    /// Per client address: wrong PINs in a row, locked until, last successful login.
    private var clients: [String: Client] = [:]
    /// When the recent wrong PINs from every address came.
    private var recentFailures: [Double] = []
    private let random: @Sendable () -> String

    private struct Client {
        var failures = 0
        var lockedUntil = 0.0
        var trustedUntil = 0.0
        var lastSeen = 0.0
    }

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

    /// Checks `guess` from the client at `address` against `pin` at `now` and opens a session
    /// if it matches.
    public mutating func login(_ guess: String, pin: ConsolePIN, now: Double, from address: String = "") -> Login {
        var client = clients[address] ?? Client()
        client.lastSeen = now
        defer { remember(client, address) }
        if now < client.lockedUntil { return .lockedOut(seconds: Int((client.lockedUntil - now).rounded(.up))) }
        recentFailures.removeAll { $0 <= now - Self.floodWindow }
        if client.trustedUntil <= now, recentFailures.count >= Self.floodFailures, let oldest = recentFailures.first {
            return .lockedOut(seconds: Int((oldest + Self.floodWindow - now).rounded(.up)))
        }
        guard pin.matches(guess) else {
            recentFailures.append(now)
            if recentFailures.count > 4 * Self.floodFailures { recentFailures.removeFirst() }
            client.failures += 1
            if client.failures >= Self.allowedFailures {
                client.failures = 0
                client.lockedUntil = now + Self.lockout
            }
            return .wrongPIN
        }
        client.failures = 0
        client.trustedUntil = now + Self.lifetime
        sessions = sessions.filter { $0.value.expires > now }
        if sessions.count >= Self.maximumSessions, let oldest = sessions.values.min(by: { $0.expires < $1.expires }) {
            sessions[oldest.id] = nil
        }
        let session = Session(id: random(), csrf: random(), expires: now + Self.lifetime)
        sessions[session.id] = session
        return .opened(session)
    }

    /// Keeps what is known of `address`, forgetting the stalest client beyond `maximumClients`.
    private mutating func remember(_ client: Client, _ address: String) {
        clients[address] = client
        if clients.count > Self.maximumClients, let stalest = clients.min(by: { $0.value.lastSeen < $1.value.lastSeen })?.key {
            clients[stalest] = nil
        }
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
