import Foundation

/// The parsers of the kernel's health files, kept apart from the reads so that tests feed them
/// fixtures: each takes the file's text and gives nil for anything it does not recognise.
public enum HealthReadings {
    /// A thermal zone's `temp`: millidegrees ("48500" → 48.5 °C); nil out of -100...300 °C.
    public static func thermal(_ text: String) -> Double? {
        guard let milli = Int(text.trimmingCharacters(in: .whitespacesAndNewlines)) else { return nil }
        let celsius = Double(milli) / 1000
        return (-100...300).contains(celsius) ? celsius : nil
    }

    /// /proc/net/wireless: the first interface's signal level in dBm (its 4th column, "-61." →
    /// -61); nil when no interface is listed (no Wi-Fi) or the line is not understood. Drivers
    /// that report a level above 0 in the old unsigned form (e.g. 195) are read as value - 256.
    public static func wirelessSignal(_ text: String) -> Int? {
        for line in text.split(separator: "\n") where line.contains(":") {
            let parts = line.split(separator: ":", maxSplits: 1)
            guard parts.count == 2, !parts[0].contains("|") else { continue }
            let columns = parts[1].split(whereSeparator: \.isWhitespace)
            guard columns.count >= 3 else { return nil }
            let level = columns[2].hasSuffix(".") ? columns[2].dropLast() : columns[2]
            guard let value = Int(level), (-200...255).contains(value) else { return nil }
            return value > 0 ? value - 256 : value
        }
        return nil
    }

    /// Free space from statvfs's figures: blocks available to a user times the fragment size,
    /// in MB, and as a percentage of the file system's blocks; nil for an empty file system.
    public static func diskFree(available: UInt64, total: UInt64, fragmentSize: UInt64) -> (mb: Int, percent: Double)? {
        guard total > 0, fragmentSize > 0, available <= total else { return nil }
        let bytes = Double(available) * Double(fragmentSize)
        return (Int(bytes / 1_048_576), Double(available) / Double(total) * 100)
    }

    /// The clock from adjtimex's figures (as `ClockReading` reads them): synchronised when
    /// STA_UNSYNC is clear and the state is not TIME_ERROR; the offset in ms (ns with STA_NANO, else µs).
    public static func clock(state: Int32, status: Int32, offset: Int) -> (synchronised: Bool, offsetMs: Double) {
        let unsynchronisedFlag: Int32 = 0x0040, nanosecondFlag: Int32 = 0x2000, timeError: Int32 = 5
        let synchronised = status & unsynchronisedFlag == 0 && state != timeError
        return (synchronised, Double(offset) / (status & nanosecondFlag != 0 ? 1e6 : 1e3))
    }
}
