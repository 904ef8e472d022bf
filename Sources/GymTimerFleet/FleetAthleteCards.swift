import GymTimerCore

/// What a station knows of the gym's athletes' cards: the retained `FleetAthleteCard`s it read
/// on `{prefix}/all/athletes/+`, each as the `CardTap` a tap of that card gives the core (its
/// short name and the athlete's bests). Bounded: at most `maximumCount` cards, the one heard
/// longest ago dropped first; a payload that is not a card (too large, not its JSON) changes
/// nothing and says why; an empty one forgets the card (the gym no longer knows it, or
/// forgot the athlete). Pure: the station feeds it messages and its own results.
public struct FleetAthleteCards: Sendable {
    /// The most cards a station keeps (a gym's members, with room to spare).
    public static let maximumCount = 2000

    /// What a message did.
    public enum Update: Hashable, Sendable {
        /// The card is known now (or anew).
        case kept(CardID)
        /// The card is forgotten (an empty payload).
        case cleared(CardID)
        /// Nothing changed: the topic names no card in its one spelling (`bad-topic`), or the
        /// payload is over `FleetAthleteCard.maximumBytes` (`too-large`) or no card (`malformed`).
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

    /// Takes in a message on `topic` (one of `FleetTopics.everyAthleteCard(prefix:)`'s).
    public mutating func receive(topic: String, payload: [UInt8], prefix: String) -> Update {
        guard let card = FleetTopics.athleteCard(in: topic, prefix: prefix) else {
            return .ignored(kind: "bad-topic", detail: "a card's topic ends in its UID as upper-case hex")
        }
        guard !payload.isEmpty else {
            forget(card)
            return .cleared(card)
        }
        guard payload.count <= FleetAthleteCard.maximumBytes else {
            return .ignored(kind: "too-large", detail: "\(payload.count) bytes, over \(FleetAthleteCard.maximumBytes)")
        }
        guard let parsed = FleetAthleteCard.parse(payload) else {
            return .ignored(kind: "malformed", detail: "not an athlete card (JSON with a short name and at most \(FleetAthleteCard.maximumBests) bests)")
        }
        keep(Self.tap(card, parsed))
        return .kept(card)
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

    private mutating func forget(_ card: CardID) {
        guard taps.removeValue(forKey: card) != nil, let index = order.firstIndex(of: card) else { return }
        order.remove(at: index)
    }
}
