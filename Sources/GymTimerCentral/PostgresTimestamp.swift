#if canImport(Glibc)
import Glibc
#endif
import Foundation

/// A timestamptz as text both ways, in UTC: what the central store sends
/// (`2026-12-03 10:00:00.123456+00`) and what PostgreSQL prints in a session whose DateStyle
/// is ISO and TimeZone UTC, as `PostgresLink` sets every one (the fraction is left out when
/// zero). Microseconds, as PostgreSQL keeps them.
enum PostgresTimestamp {
    static func text(_ date: Date) -> String {
        let micros = Int64((date.timeIntervalSince1970 * 1_000_000).rounded())
        var seconds = time_t(micros.floorDivided(by: 1_000_000))
        let fraction = micros - Int64(seconds) * 1_000_000
        var parts = tm()
        gmtime_r(&seconds, &parts)
        func two(_ value: Int32) -> String { value < 10 ? "0\(value)" : "\(value)" }
        let digits = String(fraction + 1_000_000).dropFirst()
        return "\(parts.tm_year + 1900)-\(two(parts.tm_mon + 1))-\(two(parts.tm_mday)) "
            + "\(two(parts.tm_hour)):\(two(parts.tm_min)):\(two(parts.tm_sec)).\(digits)+00"
    }

    /// The instant `text` says (`YYYY-MM-DD HH:MM:SS[.ffffff]+00`), nil for anything else.
    static func date(_ text: String) -> Date? {
        let bytes = Array(text.utf8)
        guard bytes.count >= 22, bytes.suffix(3) == Array("+00".utf8) else { return nil }
        func number(_ range: Range<Int>) -> Int32? {
            guard range.upperBound <= bytes.count else { return nil }
            var value: Int32 = 0
            for byte in bytes[range] {
                guard (UInt8(ascii: "0")...UInt8(ascii: "9")).contains(byte) else { return nil }
                value = value * 10 + Int32(byte - UInt8(ascii: "0"))
            }
            return value
        }
        let separators = [(4, "-"), (7, "-"), (10, " "), (13, ":"), (16, ":")]
        guard separators.allSatisfy({ bytes[$0.0] == UInt8(ascii: Unicode.Scalar($0.1)!) }),
              let year = number(0..<4), let month = number(5..<7), let day = number(8..<10),
              let hour = number(11..<13), let minute = number(14..<16), let second = number(17..<19) else { return nil }
        var micros: Int64 = 0
        let end = bytes.count - 3
        if end > 19 {
            guard bytes[19] == UInt8(ascii: "."), end - 20 <= 6, let fraction = number(20..<end) else { return nil }
            micros = Int64(fraction) * Int64([1, 100_000, 10_000, 1_000, 100, 10, 1][end - 20])
        } else if end != 19 {
            return nil
        }
        var parts = tm()
        parts.tm_year = year - 1900
        parts.tm_mon = month - 1
        parts.tm_mday = day
        parts.tm_hour = hour
        parts.tm_min = minute
        parts.tm_sec = second
        let seconds = timegm(&parts)
        guard seconds != -1 || (year == 1969 && month == 12 && day == 31) else { return nil }
        return Date(timeIntervalSince1970: Double(seconds) + Double(micros) / 1_000_000)
    }
}

extension Int64 {
    fileprivate func floorDivided(by divisor: Int64) -> Int64 {
        let quotient = self / divisor
        return (self % divisor < 0) ? quotient - 1 : quotient
    }
}
