import Foundation
import GymTimerCore
import GymTimerFleet

/// A change the coach asks of the roster or of a result (the JSON body of `POST
/// /api/roster-name`, `/api/roster-rename`, `/api/division`, `/api/void`), checked for shape; a name or
/// short name holding a control or format character is refused here (`NameText`, the rule
/// every entry point shares), the rest of the names' rules by the roster (`RosterNames`),
/// which says what is wrong. Pure.
public enum ConsoleRosterEdit: Hashable, Sendable {
    /// A new card named: `{"card":"04A1B2C3","name":"Anna Berg","short":"AnnA"}` (no short:
    /// derived from the name).
    case name(card: CardID, name: String, short: String?)
    /// `{"id":3,"name":"Anna Lind","short":"LInd"}`: either or both.
    case rename(id: Int64, name: String?, short: String?, shown: PublicName? = nil)
    /// `{"id":"rack-1/program@5","division":"scaled"}`: a result's division.
    case division(record: String, division: Division)
    /// `{"id":"rack-1/program@5"}`: a result voided (no best or leaderboard counts it).
    case void(record: String)

    /// Which edit a path asks for.
    public enum Kind: String, Hashable, Sendable, CaseIterable {
        case name = "roster-name", rename = "roster-rename", division, void
    }

    struct Body: Decodable {
        var card: String?
        var name: String?
        var short: String?
        var id: JSONID?
        var division: String?
        /// How the signed-out world names the athlete (`initial`, `short` or `guest`).
        var `public`: String?
    }

    /// An id as the page sends it: a number (an athlete) or a text (a record).
    enum JSONID: Decodable {
        case number(Int64)
        case text(String)
        init(from decoder: any Decoder) throws {
            let container = try decoder.singleValueContainer()
            if let number = try? container.decode(Int64.self) { self = .number(number) } else { self = .text(try container.decode(String.self)) }
        }
    }

    /// `body` for `kind`, checked; the refusal says what to change.
    public static func parse(_ kind: Kind, body: [UInt8]) -> Result<ConsoleRosterEdit, ConsolePIN.Problem> {
        guard let decoded = try? JSONDecoder().decode(Body.self, from: Data(body)) else {
            return .failure(.init(description: "the request is not the JSON the page sends"))
        }
        func blankless(_ text: String?) -> String? { text.flatMap { $0.isEmpty ? nil : $0 } }
        for (what, text) in [("name", decoded.name), ("short name", decoded.short)] {
            if let text, let problem = NameText.problem(text) {
                return .failure(.init(description: "the \(what) \(NameText.quoted(String(text.prefix(40)))) \(problem)"))
            }
        }
        switch kind {
        case .name:
            // A new card as a station reported it: its pseudonym. A UID is never typed here (it
            // would cross the Wi-Fi): the owner taps the card on a station, or uses `athletes add`.
            guard let text = decoded.card, let card = CardID(hex: text), card.isPseudonym else {
                return .failure(.init(description: "not a new card from the list (tap the card on a station first)"))
            }
            guard let name = blankless(decoded.name) else { return .failure(.init(description: "write the athlete's name")) }
            return .success(.name(card: card, name: name, short: blankless(decoded.short)))
        case .rename:
            guard case .number(let id)? = decoded.id else { return .failure(.init(description: "say which athlete")) }
            let name = blankless(decoded.name), short = blankless(decoded.short)
            var shown: PublicName?
            if let text = decoded.public {
                guard let chosen = PublicName(rawValue: text) else {
                    return .failure(.init(description: "shown signed out as initial, short or guest"))
                }
                shown = chosen
            }
            guard name != nil || short != nil || shown != nil else { return .failure(.init(description: "write a new name or short name")) }
            return .success(.rename(id: id, name: name, short: short, shown: shown))
        case .division:
            guard case .text(let record)? = decoded.id, !record.isEmpty, record.utf8.count <= 256 else {
                return .failure(.init(description: "say which result"))
            }
            guard let division = decoded.division.flatMap(Division.init(rawValue:)) else {
                return .failure(.init(description: "the division is rx or scaled"))
            }
            return .success(.division(record: record, division: division))
        case .void:
            guard case .text(let record)? = decoded.id, !record.isEmpty, record.utf8.count <= 256 else {
                return .failure(.init(description: "say which result"))
            }
            return .success(.void(record: record))
        }
    }

    /// What the collector is asked (`GymDeskAsk`): it does the edit and says what it did.
    public var ask: GymDeskAsk.Kind {
        switch self {
        case .name: .name
        case .rename: .rename
        case .division: .division
        case .void: .void
        }
    }

    /// The edit's fields in `ask`.
    public func fill(_ ask: inout GymDeskAsk) {
        switch self {
        case .name(let card, let name, let short):
            (ask.card, ask.name, ask.short) = (card.hex, name, short)
        case .rename(let id, let name, let short, let shown):
            (ask.athlete, ask.name, ask.short, ask.shown) = (id, name, short, shown)
        case .division(let record, let division):
            (ask.record, ask.division) = (record, division)
        case .void(let record):
            ask.record = record
        }
    }
}
