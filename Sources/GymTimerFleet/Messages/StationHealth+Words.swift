import Foundation

extension StationHealth {
    /// The flags in words, as `fleet status` and the console show them: `CLOCK UNSYNCHRONISED`,
    /// `DISK 6% FREE`, `HOT 81 °C`.
    public var flagWords: [String] {
        flags.map { flag in
            switch flag {
            case .clock: "CLOCK UNSYNCHRONISED"
            case .disk: "DISK \(Self.whole(diskFreePercent ?? 0))% FREE"
            case .hot: "HOT \(Self.whole(cpuTemp ?? 0)) °C"
            }
        }
    }

    /// Each figure in words, labelled, in the payload's order ("?" where unknown; every text
    /// from the station sanitised and bounded by `FleetCell`).
    public var figureWords: [(label: String, value: String)] {
        [
            ("version", FleetCell.text(version.isEmpty ? "?" : version, width: 24)),
            ("up", uptime.map(Self.duration) ?? "?"),
            ("clock", clock.map { clock in
                (clock.synchronised ? "synchronised" : "unsynchronised")
                    + (clock.offsetMs.map { String(format: " %+.1f ms", $0) } ?? "")
            } ?? "?"),
            ("CPU", cpuTemp.map { String(format: "%.1f °C", $0) } ?? "?"),
            ("disk", diskFreeMB.map { "\($0) MB free" }.map { mb in
                mb + (diskFreePercent.map { String(format: " (%.1f%%)", $0) } ?? "")
            } ?? "?"),
            ("Wi-Fi", wifiDbm.map { "\($0) dBm" } ?? "none"),
            ("devices", "display \(devices.display.rawValue), audio \(devices.audio.rawValue), reader \(devices.reader.rawValue)"),
            ("last fault", fault.map { FleetCell.text($0.text, width: 60) } ?? "none"),
        ]
    }

    /// One line of figures and flags: `version 1.9.0  up 1d 2h  clock synchronised +1.2 ms ...`.
    public var line: String {
        (figureWords.map { "\($0.label) \($0.value)" } + flagWords).joined(separator: "  ")
    }

    private static func whole(_ value: Double) -> Int { value.isFinite ? Int(value.rounded()) : 0 }

    /// `86400` → `1d 0h`, `5400` → `1h 30m`, `59` → `0m`.
    static func duration(_ seconds: Int) -> String {
        let (days, hours, minutes) = (seconds / 86400, seconds / 3600 % 24, seconds / 60 % 60)
        if days > 0 { return "\(days)d \(hours)h" }
        return hours > 0 ? "\(hours)h \(minutes)m" : "\(minutes)m"
    }
}
