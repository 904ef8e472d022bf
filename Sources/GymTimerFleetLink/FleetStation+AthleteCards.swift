import GymTimerCore
import GymTimerFleet
import GymTimerHistory
import GymTimerMQTT

/// The gym's word on its athletes' cards (`FleetAthleteCard`, retained by the collector on
/// `{prefix}/all/athletes/{card}`): the station keeps what it reads (`FleetAthleteCards`), so a
/// tap of a card shows its short name and carries the athlete's bests into the core, where a
/// result that beats one says `Pr`. A card that is not one is logged once per kind and ignored;
/// an empty payload forgets the card.
extension FleetStation {
    /// What a tap of `card` gives the core, as the gym told this station (nil: unknown).
    public func knownTap(for card: CardID) -> CardTap? { cards.tap(for: card) }

    /// How many cards the station knows.
    public var knownCards: Int { cards.count }

    /// Whether `topic` is under the athletes' cards (`{prefix}/all/athletes/…`).
    func isAthleteCard(_ topic: String) -> Bool {
        topic.hasPrefix(topics.prefix + "/all/athletes/")
    }

    /// A card's retained message (or its clearing).
    func learn(_ message: MQTTMessage) {
        switch cards.receive(topic: message.topic, payload: message.payload, prefix: topics.prefix) {
        case .kept, .cleared: break
        case .ignored(let kind, let detail):
            logOnce("card-" + kind, "fleet: an athlete card is ignored (\(kind)): \(detail) (further ones of this kind are not logged)")
        }
    }

    /// A result this station recorded: its athlete's kept best moves on with it, so their next
    /// tap, before the gym republishes their card, still measures against it.
    func remember(_ workout: StoredWorkout) {
        guard workout.kind == .program, let card = workout.athlete, let program = workout.preset,
              let score = workout.score.flatMap(ProgramScore.init(text:)) else { return }
        cards.recorded(score, of: program, in: workout.division ?? .rx, by: card)
    }
}
