import Foundation

/// The `floor` event the page reads: every tile, whether the broker is connected, and the
/// console's clock (`now`), so the page counts down right even where the browser's clock is off.
public struct ConsoleFloorEvent: Hashable, Sendable, Codable {
    public var now: Double
    public var connected: Bool
    public var broker: String
    public var problem: String?
    public var tiles: [ConsoleTile]
    /// On a chain's central broker: each gym's tiles, by gym (the page's gym picker); nil in one gym.
    public var gyms: [String: [ConsoleTile]]? = nil

    /// The event as a guest's page gets it: no tile names a card (`ConsoleAudience`).
    public var forGuests: ConsoleFloorEvent {
        var shown = self
        shown.tiles = tiles.map(ConsoleAudience.guestTile)
        shown.gyms = gyms?.mapValues { $0.map(ConsoleAudience.guestTile) }
        return shown
    }

    /// The event as one line of JSON.
    public var json: String {
        let encoder = JSONEncoder()
        encoder.outputFormatting = [.sortedKeys, .withoutEscapingSlashes]
        return (try? encoder.encode(self)).map { String(decoding: $0, as: UTF8.self) } ?? "{}"
    }
}
