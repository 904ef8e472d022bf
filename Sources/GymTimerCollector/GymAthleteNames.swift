import GymTimerCore
import GymTimerFleet
import GymTimerHistory

/// Who a record's card is, for the coach's pages (`GymScores.make`): the roster's name for a card it knows, the
/// card's last four hex digits for one it does not (a new card, to be named), `guest` for a
/// record without a card. Pure: made from the roster's athletes as the reader found them.
package struct GymAthleteNames: Hashable, Sendable {
    /// One card's owner, by card.
    private var owners: [CardID: RosterAthlete] = [:]

    package init(_ athletes: [RosterAthlete] = []) {
        for athlete in athletes {
            for card in athlete.cards { owners[card] = athlete }
        }
    }

    /// The athlete whose card `card` is, if the roster knows it.
    package func athlete(_ card: CardID?) -> RosterAthlete? { card.flatMap { owners[$0] } }

    /// The name shown for `card`'s records: the roster's, `new card 1A2B`, or `guest`.
    package func name(_ card: CardID?) -> String {
        guard let card else { return GymScores.guest }
        return owners[card]?.name ?? "new card \(card.shortTail)"
    }

    /// Whether the roster knows `card`.
    package func knows(_ card: CardID) -> Bool { owners[card] != nil }
}
