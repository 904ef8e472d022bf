/// A card held to the station's reader (or a coach putting an athlete on the station): whose
/// card, and what the gym told the station of it (`FleetAthleteCard`, read by the fleet): the
/// short name it shows and the athlete's bests, when known.
public struct CardTap: Hashable, Sendable, Codable {
    public var card: CardID
    /// What the display shows for a moment (`AnnA`): four characters a digit draws, else the
    /// card's last four hex digits are shown instead.
    public var shortName: String?
    /// The athlete's best results per program and division, as the gym published them; nil
    /// when the station knows none (offline, a new card): no `Pr` can be said then.
    public var bests: AthleteBests?
    /// The division the coach's class list puts them in (`{"do":"athlete",…,"division":"scaled"}`);
    /// nil: a fresh athlete starts Rx, one already on the station keeps theirs. A tap at the
    /// wall says none.
    public var division: Division?

    public init(card: CardID, shortName: String? = nil, bests: AthleteBests? = nil, division: Division? = nil) {
        self.card = card
        self.shortName = shortName
        self.bests = bests
        self.division = division
    }

    /// The text the display shows for this athlete.
    public var displayName: String {
        if let shortName, !shortName.isEmpty, DisplayContent.canDraw(shortName) { return shortName }
        return card.shortTail
    }

    /// This tap with what `known` (the same card, as the gym told the station of it) says that
    /// this one does not: its short name and bests.
    public func completed(from known: CardTap?) -> CardTap {
        guard let known, known.card == card else { return self }
        var tap = self
        if tap.shortName == nil { tap.shortName = known.shortName }
        if tap.bests == nil { tap.bests = known.bests }
        return tap
    }
}
