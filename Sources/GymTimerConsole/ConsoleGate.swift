import Foundation
import GymTimerCore
import GymTimerSystem
import Synchronization

/// The PIN and the sessions behind one lock (a `Mutex`), for the HTTP side's concurrent requests.
public final class ConsoleGate: Sendable {
    public let pin: ConsolePIN?
    private let sessions = Mutex(ConsoleSessions())
    private let wall: WallClock

    public init(pin: ConsolePIN?, wall: WallClock = .system) {
        self.pin = pin
        self.wall = wall
    }

    /// A login with `guess` from the client at `address`; `.wrongPIN` too when the console has
    /// no PIN (nothing unlocks it).
    public func login(_ guess: String, from address: String) -> ConsoleSessions.Login {
        guard let pin else { return .wrongPIN }
        let now = wall.now
        return sessions.withLock { $0.login(guess, pin: pin, now: now, from: address) }
    }

    public func session(_ id: String?) -> ConsoleSessions.Session? {
        let now = wall.now
        return sessions.withLock { $0.session(id, now: now) }
    }

    public func logout(_ id: String?) {
        sessions.withLock { $0.logout(id) }
    }
}
