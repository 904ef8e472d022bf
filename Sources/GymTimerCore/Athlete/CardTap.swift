/// A card held to the station's reader (or a coach putting an athlete on the station): whose
/// card, and the short name the station shows for it, when the gym has given one.
public struct CardTap: Hashable, Sendable, Codable {
    public var card: CardID
    /// What the display shows for a moment (`AnnA`): four characters a digit draws, else the
    /// card's last four hex digits are shown instead.
    public var shortName: String?

    public init(card: CardID, shortName: String? = nil) {
        self.card = card
        self.shortName = shortName
    }

    /// The text the display shows for this athlete.
    public var displayName: String {
        if let shortName, !shortName.isEmpty, DisplayContent.canDraw(shortName) { return shortName }
        return card.shortTail
    }
}
