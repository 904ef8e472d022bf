extension Kiosk {
    /// The kiosk with the athlete on it known by the card's pseudonym under `key`, when it was
    /// stored with the UID (a journal from before pseudonyms): its state, and the record of the
    /// run it is in, then carry no UID.
    public func carryingCards(with key: CardKey) -> Kiosk {
        guard let card = athlete?.tap.card, !card.isPseudonym else { return self }
        var kiosk = self
        kiosk.athlete?.tap.card = key.carried(card)
        return kiosk
    }
}
