import Foundation
import GymTimerCore
import GymTimerHAL

/// A reader whose field holds the cards a script taps (`T tap UID` on the headless simulator's
/// stdin): each card is in the field for `tapLength` from its time on the kiosk's timeline, as a
/// member's fob held briefly to the reader. Asked from the card source's thread, filled from the
/// loop's: every access holds the lock.
public final class SimulatedCardReader: CardReader, @unchecked Sendable {
    public let name = "simulated reader"
    /// How long a scripted tap holds the card to the reader.
    public static let tapLength: Duration = .milliseconds(500)

    private let now: @Sendable () -> Duration
    private let lock = NSLock()
    private var taps: [(card: CardUID, from: Duration)] = []

    /// `now` is the kiosk's timeline (the moment a tap's time counts on).
    public init(now: @escaping @Sendable () -> Duration) { self.now = now }

    /// `card` is held to the reader from `time` for `tapLength`.
    public func tap(_ card: CardUID, at time: Duration) {
        lock.withLock {
            taps.append((card, time))
            // Taps over are forgotten: the list stays as short as the taps still to come.
            let t = now()
            taps.removeAll { $0.from + Self.tapLength < t }
        }
    }

    public func cardInField() throws(HALError) -> [UInt8]? {
        let t = now()
        let card = lock.withLock { taps.last { $0.from <= t && t < $0.from + Self.tapLength }?.card }
        return card?.bytes
    }
}
