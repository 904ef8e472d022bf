import GymTimerCore

/// What a station's name may be (fleet.md, "Topics"): one topic level with no MQTT wildcard,
/// and never the every-station topic. The protocol's rule, which the config
/// (`FleetSettings.isValidStation`), the stations, the collector and the console all check.
public enum FleetStationName {
    /// The name that addresses every station at once (`{prefix}/all/cmd`): no station may take it.
    public static let every = "all"

    /// What a station name must be, as every check says it.
    public static let rule = "must be 1 to 32 of a-z, 0-9 and -, and not \"all\" (which addresses every station)"

    /// What is wrong with `name` as a station's (or a gym's) name, or nil: a character no name
    /// may hold named as `NameText` names it (`has a right-to-left override (U+202E) at
    /// character 1: …`), else `rule`.
    public static func problem(_ name: String) -> String? {
        if isValid(name) { return nil }
        return NameText.problem(name)?.description ?? rule
    }

    /// Whether `name` is a valid station name: 1 to 32 of `a-z`, `0-9` and `-`, and not `all`.
    public static func isValid(_ name: String) -> Bool {
        name != every && (1...32).contains(name.utf8.count)
            && name.utf8.allSatisfy { (UInt8(ascii: "a")...UInt8(ascii: "z")).contains($0) || (UInt8(ascii: "0")...UInt8(ascii: "9")).contains($0) || $0 == UInt8(ascii: "-") }
    }
}
