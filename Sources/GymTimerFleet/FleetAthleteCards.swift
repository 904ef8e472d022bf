import GymTimerCore

/// What a station knows of the athletes whose cards were tapped on it: the collector's answers
/// to its asks (`FleetCardAnswer`), each as the `CardTap` a tap of that card gives the core (its
/// short name and the athlete's bests). Bounded: at most `maximumCount` cards, the one heard
/// longest ago dropped first; a payload that is not an answer (too large, not its JSON) changes
/// nothing and says why; an answer without an athlete forgets the card (the gym does not know
/// it, or forgot the athlete). Pure: the station feeds it messages and its own results.
public struct FleetAthleteCards: Sendable {
    /// The most cards a station keeps (a gym's members, with room to spare).
    public static let maximumCount = 2000

    /// What a message did.
    public enum Update: Hashable, Sendable {
        /// The card is known now (or anew).
        case kept(CardID)
        /// The card is forgotten (an answer without an athlete).
        case cleared(CardID)
        /// Nothing changed: the payload is over `FleetCardAnswer.maximumBytes` (`too-large`) or
        /// no answer (`malformed`).
        case ignored(kind: String, detail: String)
    }

    private var taps: [CardID: CardTap] = [:]
    /// The cards known, the one heard longest ago first.
    private var order: [CardID] = []
    private let maximumCount: Int

    public init(maximumCount: Int = Self.maximumCount) {
        self.maximumCount = max(1, maximumCount)
    }

    public var count: Int { taps.count }

    /// What a tap of `card` gives the core, as the gym told the station (nil: unknown).
    public func tap(for card: CardID) -> CardTap? { taps[card] }

    /// Takes in an answer (`FleetCardAnswer`) on the station's card topic.
    public mutating func receive(answer payload: [UInt8]) -> Update {
        guard payload.count <= FleetCardAnswer.maximumBytes else {
            return .ignored(kind: "too-large", detail: "\(payload.count) bytes, over \(FleetCardAnswer.maximumBytes)")
        }
        guard let answer = FleetCardAnswer.parse(payload) else {
            return .ignored(kind: "malformed", detail: "not an answer about a card (JSON with a pseudonym and an athlete card or null)")
        }
        guard let athlete = answer.athlete else {
            forget(answer.card)
            return .cleared(answer.card)
        }
        keep(Self.tap(answer.card, athlete))
        return .kept(answer.card)
    }

    /// A result the station recorded for `card`'s athlete: it goes into their bests (a new
    /// best is kept), so the next tap of their card knows it before the gym republishes it.
    public mutating func recorded(_ score: ProgramScore, of program: String, in division: Division, by card: CardID) {
        guard var tap = taps[card], var bests = tap.bests else { return }
        _ = bests.record(score, of: program, in: division)
        tap.bests = bests
        taps[card] = tap
    }

    /// The tap `card` gives: the short name as published and every best whose score reads
    /// back (`ProgramScore(text:)`; one that does not is left out).
    static func tap(_ card: CardID, _ published: FleetAthleteCard) -> CardTap {
        let bests = published.bests.compactMap { best in
            ProgramScore(text: best.score).map { AthleteBests.Entry(program: best.program, division: best.division, score: $0) }
        }
        return CardTap(card: card, shortName: published.short, bests: AthleteBests(bests))
    }

    private mutating func keep(_ tap: CardTap) {
        if taps.updateValue(tap, forKey: tap.card) != nil, let index = order.firstIndex(of: tap.card) {
            order.remove(at: index)
        }
        order.append(tap.card)
        while order.count > maximumCount { taps[order.removeFirst()] = nil }
    }

    /// Drops `card` (cleared by the gym, or forgotten: `{"do":"forget"}`).
    public mutating func forget(_ card: CardID) {
        guard taps.removeValue(forKey: card) != nil, let index = order.firstIndex(of: card) else { return }
        order.remove(at: index)
    }
}
