import Foundation
import GymTimerCore
import GymTimerFleet
import GymTimerHAL
import GymTimerSystem
import SystemPackage

/// The kiosk's side of upgrades from the gym's package source (docs/upgrades.md): the folder it
/// shares with the upgrade agent (`/var/lib/gymtimer/upgrade` on an installed station). The agent
/// (root, `gymtimer-upgrade.service`) writes `status.json` (`UpgradeStatus`); the kiosk, which
/// may not run apt, asks for an upgrade by writing `request`, which `gymtimer-upgrade.path`
/// watches; the agent removes it once the upgrade is done. The agent, not the kiosk, decides when:
/// only while the station is idle.
public struct StationUpgrade: Sendable {
    public let folder: String
    /// The running binary's version: what is installed when no agent has said.
    public let running: String

    public init(folder: String, running: String = GymTimerVersion.current) {
        self.folder = folder
        self.running = running
    }

    public var statusPath: String { folder + "/" + UpgradeFolder.statusName }
    public var requestPath: String { folder + "/" + UpgradeFolder.requestName }

    /// What the agent last wrote, or nil (none yet, or a file that is no status).
    public func status() -> UpgradeStatus? {
        guard let handle = FileHandle(forReadingAtPath: statusPath) else { return nil }
        defer { try? handle.close() }
        let bytes = (try? handle.read(upToCount: UpgradeStatus.maximumBytes + 1)) ?? nil
        return bytes.flatMap { UpgradeStatus.parse(Array($0)) }
    }

    /// Whether an upgrade was asked for and the agent has not finished it.
    public var requested: Bool { FileManager.default.fileExists(atPath: requestPath) }

    /// The retained `update` payload: the agent's versions (or the running one), and whether an
    /// upgrade waits.
    public func update() -> StationUpdate {
        let status = status()
        return StationUpdate(installedVersion: status?.installed ?? running, latestVersion: status?.latest, inProgress: requested)
    }

    /// Why an upgrade cannot be asked for now, or nil when it can.
    public func refusal() -> String? {
        guard let status = status() else {
            return "no upgrade agent has checked the gym's package source on this station (docs/upgrades.md)"
        }
        let offered = StationUpdate(installedVersion: status.installed, latestVersion: status.latest, inProgress: false)
        guard offered.offersNewer else { return "nothing newer: \(status.installed) is the gym's latest" }
        return nil
    }

    /// The agent's side: the folder opened for one run, made if missing, refused when it is a
    /// link or not owned as it should be (`UpgradeFolder`); the agent writes only through it.
    public func openFolder() throws(UpgradeError) -> UpgradeFolder {
        try UpgradeFolder.open(folder)
    }

    /// Asks the agent for an upgrade (the command's id and instant in the file, for its log).
    public func request(id: String?, at unix: Double) throws(SafeFileError) {
        let fields: [String: JSONValue] = ["id": id.map(JSONValue.string) ?? .null, "at": .number(unix.rounded())]
        let text = FleetJSONEncoder(sortedKeys: true, escapingSlashes: false).text(JSONValue.object(fields))
        try SafeFiles.replace(requestPath, with: Array((text + "\n").utf8), mode: 0o644)
    }
}
