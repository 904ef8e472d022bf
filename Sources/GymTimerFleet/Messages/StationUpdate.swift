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

    /// The payload, keys sorted (`latest_version` left out while unknown).
    public var json: String { FleetJSONEncoder(sortedKeys: true, escapingSlashes: false).text(self) }
}
