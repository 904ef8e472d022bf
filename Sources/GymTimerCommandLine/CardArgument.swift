import GymTimerCore
import GymTimerSystem

/// A card typed on a command line: its pseudonym as `athletes list` prints it (24 hex digits),
/// or its UID (1 to 10 bytes of hex, as `gymtimer selftest` prints a tapped card's), which is
/// turned into the pseudonym here with the gym's card key (`--card-key FILE`) and goes no
/// further (docs/security.md).
public enum CardArgument {
    /// The card `text` names for `option`, or a one-line usage error saying what to give.
    public static func card(_ text: String, option: String, keyFile: String?) throws -> CardID {
        if let card = CardID(hex: text), card.isPseudonym { return card }
        guard let uid = CardUID(hex: text) else {
            throw CLIError.usage(
                "bad card for \(option): \(NameText.quoted(String(text.prefix(40)))) (expected a card's UID in hex, 1 to 10 bytes, e.g. 04A1B2C3, or its 24-digit pseudonym as `athletes list` prints it)")
        }
        guard let keyFile else {
            throw CLIError.usage(
                "\(option) \(text) is a card's UID: give the gym's card key (--card-key FILE, the stations' [athletes] card_key), which turns it into the card's pseudonym")
        }
        do {
            return try CardKeyFile.read(keyFile).pseudonym(of: uid)
        } catch {
            throw CLIError.usage("\(error)")
        }
    }
}
