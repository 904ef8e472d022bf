import Foundation
import GymTimerCore

/// The card key of tests that type or tap a card's UID, as a gym's owner does: its file (0600,
/// as the owner makes it) and the pseudonyms it gives, so a test checks the pseudonym
/// stored or shown, never that "some card" was.
public enum TestCardKey {
    /// 32 bytes of 0x42 (Python: `bytes([0x42] * 32)`).
    public static let key = CardKey(secret: Array(repeating: 0x42, count: 32))!

    /// The pseudonym of the card with UID `uid` (hex) under `key`.
    public static func card(_ uid: String) -> CardID { key.pseudonym(of: CardUID(hex: uid)!) }

    /// The pseudonym's hex.
    public static func hex(_ uid: String) -> String { card(uid).hex }

    /// The key written to `directory/card.key` (0600); its path.
    @discardableResult
    public static func file(in directory: String) -> String {
        let path = directory + "/card.key"
        _ = FileManager.default.createFile(atPath: path, contents: Data(key.fileText.utf8), attributes: [.posixPermissions: 0o600])
        return path
    }
}
