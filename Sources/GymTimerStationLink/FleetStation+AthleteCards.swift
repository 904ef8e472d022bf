import GymTimerCore
import GymTimerFleet
import GymTimerHistory
import GymTimerMQTT

/// The gym's word on the cards tapped on this station (fleet.md, "Athletes"). A station learns
/// only those: when a card comes onto it (a tap, the class list) it asks on its own
/// `P/{station}/card-ask` (`FleetCardAsk`), and the collector answers on `P/{station}/card`
/// (`FleetCardAnswer`) with the athlete's short name and bests, again whenever they change.
/// The station keeps what it was told (`FleetAthleteCards`), so the next tap of that card shows
/// the name at once and a result that beats a best says `Pr`. The ask is also the station's
/// word that the card was on it: the collector files a record of a card its station never
/// asked for as a guest's. An answer that is not one is logged once per kind and ignored.
extension FleetStation {
    /// A card came onto the station at the wall clock's now: the gym is asked for it, and what
    /// it told before is what the tap shows now (nil: nothing yet; the answer updates the
    /// athlete on the station when it comes).
    public func tapped(_ card: CardID) -> CardTap? {
        ask(for: card, at: wall.now)
        return cards.tap(for: card)
    }

    /// What a tap of `card` gives the core, as the gym told this station (nil: unknown).
    public func knownTap(for card: CardID) -> CardTap? { cards.tap(for: card) }

    /// How many cards the station knows.
    public var knownCards: Int { cards.count }

    /// Asks the gym for `card`, on the card at `at` (Unix seconds); nothing while disconnected
    /// (connecting asks for the athlete on the station, and each waiting record asks for its own).
    func ask(for card: CardID, at: Double) {
        guard card.isPseudonym else { return }
        let ask = FleetCardAsk(card: card, at: Int64(at.rounded(.down)))
        _ = try? client?.publish(MQTTMessage(topic: topics.cardAsk, payload: ask.payload, qos: 1))
    }

    /// An answer on `P/{station}/card`: kept (or the card dropped), and the athlete on the
    /// station, if it is theirs, shows their name and carries their bests from now on.
    func learn(_ message: MQTTMessage) {
        switch cards.receive(answer: message.payload) {
        case .kept(let card):
            guard lastKiosk?.athlete?.card == card, let tap = cards.tap(for: card) else { return }
            _ = deliver(.command(.setAthlete(tap)), now())
        case .cleared: break
        case .ignored(let kind, let detail):
            logOnce("card-" + kind, "fleet: an athlete card is ignored (\(kind)): \(detail) (further ones of this kind are not logged)")
        }
    }

    /// A result this station recorded: its athlete's kept best moves on with it, so their next
    /// tap, before the gym answers again, still measures against it.
    func remember(_ workout: StoredWorkout) {
        guard workout.kind == .program, let card = workout.athlete, let program = workout.preset,
              let score = workout.score.flatMap(ProgramScore.init(text:)) else { return }
        cards.recorded(score, of: program, in: workout.division ?? .rx, by: card)
    }
}
