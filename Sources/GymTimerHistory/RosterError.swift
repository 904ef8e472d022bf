import GymTimerCore

/// Why a roster operation failed: one line for the CLI, saying what failed and what to do.
public enum RosterError: Error, Hashable, Sendable, CustomStringConvertible {
    /// No database at the path: the roster lives in the gym's (the collector's) database.
    case missingDatabase(path: String)
    /// The file could not be opened, read or written (the history's own error).
    case database(HistoryError)
    /// No athlete of that name in the roster.
    case unknownAthlete(name: String)
    /// Neither a roster name nor a card UID (`history --athlete`, `stats --athlete`).
    case unknownAthleteOrCard(text: String)
    /// The card belongs to someone already.
    case cardTaken(card: CardID, owner: String)
    /// Another athlete has that name already (names find athletes, so they are unique).
    case nameTaken(name: String)
    /// A name that is not 1 to 64 printable characters (`RosterNames.problem` says why).
    case badName(name: String)
    /// A short name that is not 1 to 4 characters a 7-segment digit draws.
    case badShortName(shortName: String)
    /// A merge of an athlete into themselves.
    case mergeIntoSelf(name: String)

    public var description: String {
        switch self {
        case .missingDatabase(let path):
            "no gym database at \(path): the roster is kept in the collector's database (gymtimer collect --db \(path) creates it); check the path"
        case .database(let error):
            "\(error)"
        case .unknownAthlete(let name):
            "no athlete named \(Self.quoted(name)) in the roster (gymtimer athletes --db PATH list shows who is)"
        case .unknownAthleteOrCard(let text):
            "no athlete named \(Self.quoted(text)) in the roster, and it is not a card either (its pseudonym as `athletes list` prints it)"
        case .cardTaken(let card, let owner):
            "card \(card.hex) is already \(Self.quoted(owner))'s (gymtimer athletes merge joins two athletes who are one person)"
        case .nameTaken(let name):
            "there is already an athlete named \(Self.quoted(name)): pick another name (e.g. with the family name's initial)"
        case .badName(let name):
            "bad athlete name \(Self.quoted(name)): \(RosterNames.problem(name) ?? "1 to 64 printable characters")"
        case .badShortName(let shortName):
            "bad short name \(Self.quoted(shortName)): "
                + (NameText.problem(shortName)?.description ?? "1 to 4 characters a 7-segment digit draws (letters but k m v w x z, digits, - _ =)")
        case .mergeIntoSelf(let name):
            "cannot merge \(Self.quoted(name)) into themselves: name two different athletes"
        }
    }

    /// `text` in double quotes, control and format characters escaped (`NameText.quoted`:
    /// `\u{202E}`), so a line stays one line and in its order.
    static func quoted(_ text: String) -> String { NameText.quoted(text) }
}
