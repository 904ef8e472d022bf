/// Why a station refuses taps: it has no card key to turn UIDs into pseudonyms (`CardKeyFile`
/// could not read one, or none was given); the kiosk logs it once, as its fault.
public struct MissingCardKey: Error, CustomStringConvertible {
    public let why: String

    public init(why: String) { self.why = why }

    public var description: String { "a card was tapped but the station has no card key (\(why)); nobody taps in until it has one" }
}
