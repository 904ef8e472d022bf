#if canImport(Glibc)
import Glibc
#endif
import Foundation
import GymTimerHAL
import SystemPackage

/// The files a `[fleet]` section names (`password_file`, `ca_file`): whether each can be read
/// now, by this user. `check-config` refuses a config whose files cannot be read (one line
/// each, exit 2), so an installer finds out before the service starts; the kiosk itself never
/// refuses to start over them: it runs alone and logs the same line (a dark kiosk is worse
/// than one without its fleet).
public enum FleetFiles {
    /// One line per unreadable file, in the config's own `key = "value": problem` form.
    public static func problems(_ fleet: FleetSettings?) -> [String] {
        guard let fleet else { return [] }
        var lines: [String] = []
        if let path = fleet.passwordFile, let why = whyUnreadable(path) {
            lines.append("fleet.password_file = \(TOMLText.render(path)): \(why) (it holds the MQTT password on its first line, readable by the gymtimer user)")
        }
        if let path = fleet.caFile, let why = whyUnreadable(path) {
            lines.append("fleet.ca_file = \(TOMLText.render(path)): \(why) (the gym's CA certificate in PEM, readable by the gymtimer user)")
        }
        return lines
    }

    /// Why the regular file at `path` cannot be read by this process, or nil when it can.
    public static func whyUnreadable(_ path: String) -> String? {
        var info = stat()
        guard stat(path, &info) == 0 else { return "cannot be read: \(Errno.last.text)" }
        guard info.st_mode & S_IFMT == S_IFREG else { return "is not a regular file" }
        guard access(path, R_OK) == 0 else { return "cannot be read: \(Errno.last.text)" }
        return nil
    }
}
