/// A station's software version and upgrade, retained on `P/S/update` (fleet.md): exactly Home
/// Assistant's MQTT `update` entity payload, so its update entity reads it unchanged. Made from
/// what the upgrade agent last wrote (`UpgradeStatus`) and the running binary's version.
public struct StationUpdate: Hashable, Sendable, Encodable {
    /// The package version installed (the agent's word), else the running binary's.
    public var installedVersion: String
    /// The newest version the gym's package source offers; nil while no agent has looked.
    public var latestVersion: String?
    public var title = "GymTimer"
    /// An upgrade was asked for and not yet done (the agent waits for the station to be idle).
    public var inProgress: Bool

    public init(installedVersion: String, latestVersion: String?, inProgress: Bool) {
        self.installedVersion = installedVersion
        self.latestVersion = latestVersion
        self.inProgress = inProgress
    }

    /// Whether the gym's source offers a version other than the installed one.
    public var offersNewer: Bool { latestVersion.map { !$0.isEmpty && $0 != installedVersion } ?? false }

    enum CodingKeys: String, CodingKey {
        case installedVersion = "installed_version", latestVersion = "latest_version", title, inProgress = "in_progress"
    }

    /// The payload in `bytes` as a reader takes it (the console): nil unless it is an object
    /// with a non-empty `installed_version`; versions longer than 64 bytes are no payload
    /// (Debian's are far shorter), a missing `in_progress` is false.
    public static func parse(_ bytes: [UInt8]) -> StationUpdate? {
        guard bytes.count <= 4096, case .object(let fields)? = JSONValue.parse(bytes),
              let installed = fields["installed_version"]?.string, (1...64).contains(installed.utf8.count) else { return nil }
        let latest: String?
        switch fields["latest_version"] {
        case nil, .null?: latest = nil
        case .string(let text)? where text.utf8.count <= 64: latest = text.isEmpty ? nil : text
        default: return nil
        }
        let inProgress: Bool
        switch fields["in_progress"] {
        case nil, .null?: inProgress = false
        case .bool(let value)?: inProgress = value
        default: return nil
        }
        return StationUpdate(installedVersion: installed, latestVersion: latest, inProgress: inProgress)
    }

    /// The payload, keys sorted (`latest_version` left out while unknown).
    public var json: String { FleetJSONEncoder(sortedKeys: true, escapingSlashes: false).text(self) }
}
