import Foundation

/// Log lines for the journal: under systemd (which sets `JOURNAL_STREAM`) each stderr line gets
/// a syslog level prefix journald understands (`<4>` warning for faults, `<6>` info otherwise),
/// so `journalctl -p warning -u gymtimer` shows just the faults. Elsewhere lines stay plain.
enum JournalLine {
    static let underSystemd = ProcessInfo.processInfo.environment["JOURNAL_STREAM"] != nil

    static func format(_ message: String) -> String {
        guard underSystemd else { return "gymtimer: \(message)" }
        let level = message.hasPrefix("fault:") ? 4 : 6
        return "<\(level)>\(message)"
    }
}
