import GymTimerFleet

/// What the upgrade agent (`gymtimer-upgrade.service`, root) last found, as it writes it to
/// `status.json` in the station's upgrade folder for the kiosk to read: the installed package's
/// version and the newest the gym's source offers. Read defensively: a file that is too large,
/// not JSON or holds anything but Debian version strings is no status at all.
public struct UpgradeStatus: Hashable, Sendable {
    public var installed: String
    public var latest: String?

    public init(installed: String, latest: String?) {
        self.installed = installed
        self.latest = latest
    }

    /// The largest status file read (a few hundred bytes in practice).
    public static let maximumBytes = 4096

    /// The status in `bytes`, or nil when they are not one.
    public static func parse(_ bytes: [UInt8]) -> UpgradeStatus? {
        guard bytes.count <= maximumBytes, case .object(let fields)? = JSONValue.parse(bytes),
              let installed = fields["installed"]?.string, isVersion(installed) else { return nil }
        switch fields["latest"] {
        case nil, .null?: return UpgradeStatus(installed: installed, latest: nil)
        case .string(let latest)? where isVersion(latest): return UpgradeStatus(installed: installed, latest: latest)
        default: return nil
        }
    }

    /// The file's text, as the agent writes it.
    public var json: String {
        let fields: [String: JSONValue] = ["installed": .string(installed), "latest": latest.map(JSONValue.string) ?? .null]
        return FleetJSONEncoder(sortedKeys: true, escapingSlashes: false).text(JSONValue.object(fields))
    }

    /// A Debian version as dpkg writes it: 1 to 64 of `0-9 A-Z a-z . + ~ : -`, starting with a digit.
    public static func isVersion(_ text: String) -> Bool {
        guard (1...64).contains(text.utf8.count), let first = text.unicodeScalars.first, ("0"..."9").contains(first) else { return false }
        return text.unicodeScalars.allSatisfy { $0.isASCII && ($0.properties.isAlphabetic || ("0"..."9").contains($0) || ".+~:-".unicodeScalars.contains($0)) }
    }
}
