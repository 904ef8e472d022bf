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

    public var statusPath: String { folder + "/status.json" }
    public var requestPath: String { folder + "/request" }

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

    /// The agent's side: makes the folder if it is missing, owned as the data directory it is
    /// in is (the kiosk's user), so that the kiosk can write `request` into it.
    public func prepareFolder() throws(UpgradeError) {
        var info = stat()
        if stat(folder, &info) == 0 { return }
        var parent = stat()
        let dataDirectory = (folder as NSString).deletingLastPathComponent
        guard stat(dataDirectory, &parent) == 0 else {
            throw UpgradeError("preparing \(folder)", "no data directory \(dataDirectory): has the kiosk ever run here?")
        }
        guard mkdir(folder, 0o755) == 0 || errno == EEXIST else { throw UpgradeError("preparing \(folder)", Errno.last.text) }
        if getuid() == 0 { _ = chown(folder, parent.st_uid, parent.st_gid) }
    }

    /// The agent's side: what it found, for the kiosk (`status`).
    public func write(_ status: UpgradeStatus) throws(UpgradeError) {
        do {
            try SafeFiles.replace(statusPath, with: Array((status.json + "\n").utf8), mode: 0o644)
        } catch {
            throw UpgradeError("writing \(statusPath)", "\(error)")
        }
    }

    /// The agent's side: the asked-for upgrade is done (or there was nothing newer).
    public func finishRequest() {
        _ = unlink(requestPath)
    }

    /// Asks the agent for an upgrade (the command's id and instant in the file, for its log).
    public func request(id: String?, at unix: Double) throws(SafeFileError) {
        let fields: [String: JSONValue] = ["id": id.map(JSONValue.string) ?? .null, "at": .number(unix.rounded())]
        let text = FleetJSONEncoder(sortedKeys: true, escapingSlashes: false).text(JSONValue.object(fields))
        try SafeFiles.replace(requestPath, with: Array((text + "\n").utf8), mode: 0o644)
    }
}
