/// Everything the core needs from the config file, already validated.
public struct KioskSettings: Hashable, Sendable, Codable {
    public var rest: RestSettings

    public init(rest: RestSettings = RestSettings()) {
        self.rest = rest
    }
}
