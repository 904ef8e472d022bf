#if canImport(Glibc)
import Glibc
#endif
import Foundation
import GymTimerHAL

/// The real `HealthProbe`: the time since boot (CLOCK_BOOTTIME: the installed unit's
/// `ProcSubset=pid` hides /proc/uptime), adjtimex (as `ClockReading` reads it for the sleep
/// windows' "clock trusted"), /sys/class/thermal/thermal_zone0/temp, statvfs of the data
/// directory and /proc/net/wireless (visible to the unit with a `[fleet]`, whose network drop-in
/// lets it see /proc's system files). `root` prefixes the kernel's files (a test's fixture
/// directory); `clock` is adjtimex and `uptime` the boot clock (a test's figures). Each read fails soft: nil.
public final class SystemHealthProbe: HealthProbe {
    private let dataDirectory: String
    private let root: String
    private let clock: () -> (state: Int32, status: Int32, offset: Int)?
    private let uptime: () -> Int?

    public init(
        dataDirectory: String, root: String = "",
        clock: @escaping () -> (state: Int32, status: Int32, offset: Int)? = {
            (try? SystemCall.clockStatus()).map { ($0.state, $0.status, $0.offset) }
        },
        uptime: @escaping () -> Int? = SystemHealthProbe.secondsSinceBoot
    ) {
        (self.dataDirectory, self.root, self.clock, self.uptime) = (dataDirectory, root, clock, uptime)
    }

    /// Whole seconds since boot, suspend included (CLOCK_BOOTTIME), or nil.
    public static func secondsSinceBoot() -> Int? {
        var now = timespec()
        guard clock_gettime(CLOCK_BOOTTIME, &now) == 0, now.tv_sec >= 0 else { return nil }
        return Int(now.tv_sec)
    }

    public func sample() -> HealthSample {
        var sample = HealthSample()
        sample.uptime = uptime()
        if let figures = clock() {
            let clock = HealthReadings.clock(state: figures.state, status: figures.status, offset: figures.offset)
            (sample.clockSynchronised, sample.clockOffsetMs) = (clock.synchronised, clock.offsetMs)
        }
        sample.cpuTemp = read("/sys/class/thermal/thermal_zone0/temp").flatMap(HealthReadings.thermal)
        sample.wifiDbm = read("/proc/net/wireless").flatMap(HealthReadings.wirelessSignal)
        var figures = statvfs()
        if statvfs(dataDirectory, &figures) == 0,
           let free = HealthReadings.diskFree(
               available: UInt64(figures.f_bavail), total: UInt64(figures.f_blocks), fragmentSize: UInt64(figures.f_frsize)) {
            (sample.diskFreeMB, sample.diskFreePercent) = (free.mb, free.percent)
        }
        return sample
    }

    /// A small kernel file's text (at most 16 KiB), or nil when it cannot be read.
    private func read(_ path: String) -> String? {
        guard let handle = FileHandle(forReadingAtPath: root + path) else { return nil }
        defer { try? handle.close() }
        guard let data = try? handle.read(upToCount: 16384) else { return nil }
        return String(decoding: data, as: UTF8.self)
    }
}
