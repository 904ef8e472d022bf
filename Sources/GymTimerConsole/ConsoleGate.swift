import Foundation

/// The PIN and the sessions behind one lock, for the HTTP side's concurrent requests.
///
/// `@unchecked Sendable` is safe: `sessions`, the one mutable property, is read and written
/// only while `lock` is held; `pin` and `now` are `let` (and `now` is `@Sendable`).
public final class ConsoleGate: @unchecked Sendable {
    public let pin: ConsolePIN?
    private let lock = NSLock()
    private var sessions = ConsoleSessions()
    private let now: @Sendable () -> Double

    public init(pin: ConsolePIN?, now: @escaping @Sendable () -> Double = { Date().timeIntervalSince1970 }) {
        self.pin = pin
        self.now = now
    }

    /// A login with `guess` from the client at `address`; `.wrongPIN` too when the console has
    /// no PIN (nothing unlocks it).
    public func login(_ guess: String, from address: String) -> ConsoleSessions.Login {
        guard let pin else { return .wrongPIN }
        lock.lock()
        defer { lock.unlock() }
        return sessions.login(guess, pin: pin, now: now(), from: address)
    }

    public func session(_ id: String?) -> ConsoleSessions.Session? {
        lock.lock()
        defer { lock.unlock() }
        return sessions.session(id, now: now())
    }

    public func logout(_ id: String?) {
        lock.lock()
        sessions.logout(id)
        lock.unlock()
    }
}
