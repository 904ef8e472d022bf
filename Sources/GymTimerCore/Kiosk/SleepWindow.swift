/// The hours of the local day a station's display goes dark while nobody uses it (a coach's
/// `sleep` command): from `from` up to, not including, `until`, in minutes since local
/// midnight. It may cross midnight (22:00–06:00). Pure: the local time is found through an
/// injected UTC offset, so tests choose the zone and its daylight-saving days.
public struct SleepWindow: Hashable, Sendable, Codable, CustomStringConvertible {
    /// Minutes since local midnight, 0…1439.
    public let from: Int
    public let until: Int

    /// The window, or why there is none: both in 0…1439 and not equal (a window of no
    /// minutes, or of all of them, is a mistake more likely than a wish).
    public static func make(from: Int, until: Int) -> Result<SleepWindow, KioskRefusal> {
        guard (0..<minutesPerDay).contains(from), (0..<minutesPerDay).contains(until) else {
            return .failure(KioskRefusal("sleep", "the times are between 00:00 and 23:59"))
        }
        guard from != until else { return .failure(KioskRefusal("sleep", "from and until are the same time")) }
        return .success(SleepWindow(checkedFrom: from, until: until))
    }

    /// The window between two `HH:MM` times (24-hour, two digits each), or why not.
    public static func parse(from: String, until: String) -> Result<SleepWindow, KioskRefusal> {
        guard let start = minutes(from), let end = minutes(until) else {
            return .failure(KioskRefusal("sleep", "the times are written HH:MM, 00:00 to 23:59"))
        }
        return make(from: start, until: end)
    }

    private init(checkedFrom from: Int, until: Int) {
        self.from = from
        self.until = until
    }

    /// A journal's window is checked again: a bad one reads as none.
    public init(from decoder: any Decoder) throws {
        let container = try decoder.container(keyedBy: CodingKeys.self)
        let window = Self.make(from: try container.decode(Int.self, forKey: .from), until: try container.decode(Int.self, forKey: .until))
        guard case .success(let checked) = window else {
            throw DecodingError.dataCorruptedError(forKey: .from, in: container, debugDescription: "not a sleep window")
        }
        self = checked
    }

    public static let minutesPerDay = 1440

    /// `HH:MM` as minutes since midnight, or nil.
    public static func minutes(_ text: String) -> Int? {
        let bytes = Array(text.utf8)
        guard bytes.count == 5, bytes[2] == UInt8(ascii: ":"),
              [0, 1, 3, 4].allSatisfy({ (UInt8(ascii: "0")...UInt8(ascii: "9")).contains(bytes[$0]) }) else { return nil }
        let digit = { (i: Int) in Int(bytes[i] - UInt8(ascii: "0")) }
        let hours = digit(0) * 10 + digit(1), minutes = digit(3) * 10 + digit(4)
        guard hours < 24, minutes < 60 else { return nil }
        return hours * 60 + minutes
    }

    /// `minutes` since midnight as `HH:MM`.
    public static func clock(_ minutes: Int) -> String {
        let hours = minutes / 60, rest = minutes % 60
        return (hours < 10 ? "0" : "") + String(hours) + ":" + (rest < 10 ? "0" : "") + String(rest)
    }

    public var fromText: String { Self.clock(from) }
    public var untilText: String { Self.clock(until) }
    public var description: String { fromText + "–" + untilText }

    /// Whether the local minute of the day `minute` (0…1439) lies inside the window.
    public func contains(minute: Int) -> Bool {
        from < until ? (from..<until).contains(minute) : (minute >= from || minute < until)
    }

    /// Whether the wall instant `unix` (seconds since the epoch) lies inside the window, where
    /// `utcOffset` gives the zone's offset (seconds east of UTC) at an instant.
    public func contains(unix: Int64, utcOffset: (Int64) -> Int) -> Bool {
        contains(minute: Self.localMinute(unix, offset: utcOffset(unix)))
    }

    /// The first whole-minute instant after `unix` at which `contains` changes: when the display
    /// must go dark or may wake. Within any day between two offset changes the next edge
    /// follows from the local clock; across a change (a daylight-saving day: a local hour
    /// skipped or repeated) the minutes of that stretch are walked one by one.
    public func nextEdge(after unix: Int64, utcOffset: (Int64) -> Int) -> Int64 {
        let inside = contains(unix: unix, utcOffset: utcOffset)
        var t = (unix.floorDiv(60) + 1) * 60
        // Two days bound the search: a window is entered and left within every day.
        let limit = t + 2 * Int64(Self.minutesPerDay) * 60 + 3600 * 2
        while t <= limit {
            let offset = utcOffset(t)
            let minute = Self.localMinute(t, offset: offset)
            if contains(minute: minute) != inside { return t }
            let target = inside ? until : from
            let ahead = Int64((target - minute + Self.minutesPerDay) % Self.minutesPerDay) * 60
            let candidate = t + ahead
            if utcOffset(candidate) == offset, contains(minute: Self.localMinute(candidate, offset: offset)) != inside {
                return candidate
            }
            // The offset changes before the edge: walk this stretch a minute at a time.
            var step = t + 60
            while step < candidate {
                if contains(unix: step, utcOffset: utcOffset) != inside { return step }
                step += 60
            }
            t = candidate
        }
        return limit
    }

    /// The local minute of the day of `unix` at `offset` seconds east of UTC.
    static func localMinute(_ unix: Int64, offset: Int) -> Int {
        Int((unix + Int64(offset)).floorDiv(60).floorMod(Int64(minutesPerDay)))
    }
}

extension Int64 {
    fileprivate func floorDiv(_ divisor: Int64) -> Int64 {
        let q = self / divisor
        return (self % divisor != 0 && (self < 0) != (divisor < 0)) ? q - 1 : q
    }

    fileprivate func floorMod(_ divisor: Int64) -> Int64 { self - floorDiv(divisor) * divisor }
}
